package delivery

import (
	"context"
	"fmt"
	"time"

	"github.com/ferry-dev/ferry/internal/seal"

	"github.com/google/uuid"
	"gorm.io/gorm"

	"github.com/ferry-dev/ferry/delivery/webhook"
)

// Target is what the dispatcher needs to send to an endpoint: its
// settings, its owner and its current signing keys.
type Target struct {
	Endpoint Endpoint
	TenantID uuid.UUID
	// Keys are the HMAC keys to sign with, newest first (two during a
	// rotation's grace period).
	Keys [][]byte
	// Deleted is set when the endpoint no longer exists.
	Deleted bool
}

// LoadTarget reads endpoint id and decrypts its live signing secrets.
// It returns a wrapped database or decryption error.
func LoadTarget(ctx context.Context, db *gorm.DB, c *seal.Cipher, id uuid.UUID, now time.Time) (Target, error) {
	var row endpointRow
	// Hand-written: one indexed read per cache miss on the dispatch path.
	res := db.WithContext(ctx).Raw(`SELECT `+endpointColumns+` FROM endpoints WHERE id = ?`, id).Scan(&row)
	if res.Error != nil {
		return Target{}, fmt.Errorf("load endpoint %s: %w", id, res.Error)
	}
	if res.RowsAffected == 0 || row.DeletedAt != nil {
		return Target{Deleted: true}, nil
	}
	t := Target{Endpoint: row.endpoint(), TenantID: row.TenantID}
	secrets, err := loadSecrets(ctx, db, c, id, now)
	if err != nil {
		return Target{}, err
	}
	for _, s := range secrets {
		key, err := webhook.SecretKey(s.secret)
		if err != nil {
			return Target{}, fmt.Errorf("endpoint %s: %w", id, err)
		}
		t.Keys = append(t.Keys, key)
	}
	return t, nil
}
