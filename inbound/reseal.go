package inbound

import (
	"context"
	"fmt"

	"github.com/google/uuid"
	"gorm.io/gorm"

	"github.com/ferry-dev/ferry/internal/seal"
)

// ResealSources moves every source's sealed ingest token and
// verification secret under one of c's other master keys to its
// sealing key: the last step of a master-key rotation
// (docs/operations.md, Rotating secrets). Deleted sources are resealed
// too, as their rows still hold the secrets. A secret no key opens is
// counted and left alone. Errors: wrapped database errors.
func ResealSources(ctx context.Context, db *gorm.DB, c *seal.Cipher) (seal.Tally, error) {
	var total seal.Tally
	for _, col := range []struct {
		name string
		aad  func(uuid.UUID) []byte
	}{{"token_ciphertext", tokenAAD}, {"secret_ciphertext", secretAAD}} {
		t, err := c.ResealAll(ctx, func(ctx context.Context, last *seal.Stored) ([]seal.Stored, error) {
			after := uuid.Nil
			if last != nil {
				after = last.Key.(uuid.UUID)
			}
			var rows []struct {
				ID         uuid.UUID
				Ciphertext []byte
			}
			if err := db.WithContext(ctx).Raw(`SELECT id, `+col.name+` AS ciphertext FROM sources
				WHERE id > ? AND `+col.name+` IS NOT NULL ORDER BY id LIMIT ?`, after, resealPage).Scan(&rows).Error; err != nil {
				return nil, fmt.Errorf("read sources' %s: %w", col.name, err)
			}
			out := make([]seal.Stored, len(rows))
			for i, r := range rows {
				out[i] = seal.Stored{Key: r.ID, Ciphertext: r.Ciphertext, AAD: col.aad(r.ID)}
			}
			return out, nil
		}, func(ctx context.Context, s seal.Stored, resealed []byte) error {
			return db.WithContext(ctx).Exec(`UPDATE sources SET `+col.name+` = ? WHERE id = ? AND `+col.name+` = ?`,
				resealed, s.Key, s.Ciphertext).Error
		})
		total.Resealed, total.Unopened = total.Resealed+t.Resealed, total.Unopened+t.Unopened
		if err != nil {
			return total, err
		}
	}
	return total, nil
}

// resealPage is how many sealed secrets a reseal reads at a time.
const resealPage = 500
