package delivery

import (
	"context"
	"fmt"

	"github.com/google/uuid"
	"gorm.io/gorm"

	"github.com/ferry-dev/ferry/internal/seal"
)

// resealPage is how many sealed secrets a reseal reads at a time.
const resealPage = 500

// ResealEndpointSecrets moves every endpoint signing secret sealed under
// one of c's other master keys to its sealing key: the last step of a
// master-key rotation (docs/operations.md, Rotating secrets). A secret no
// key opens is counted and left alone. Errors: wrapped database errors.
func ResealEndpointSecrets(ctx context.Context, db *gorm.DB, c *seal.Cipher) (seal.Tally, error) {
	db = db.WithContext(ctx)
	return c.ResealAll(ctx, func(ctx context.Context, last *seal.Stored) ([]seal.Stored, error) {
		after := uuid.Nil
		if last != nil {
			after = last.Key.(uuid.UUID)
		}
		var rows []endpointSecretRow
		if err := db.Select("id", "endpoint_id", "ciphertext").Where("id > ?", after).Order("id").Limit(resealPage).
			Find(&rows).Error; err != nil {
			return nil, fmt.Errorf("read endpoint secrets: %w", err)
		}
		out := make([]seal.Stored, len(rows))
		for i, r := range rows {
			endpointID := r.EndpointID
			out[i] = seal.Stored{Key: r.ID, Ciphertext: r.Ciphertext, AAD: endpointID[:]}
		}
		return out, nil
	}, func(ctx context.Context, s seal.Stored, resealed []byte) error {
		return db.Exec(`UPDATE endpoint_secrets SET ciphertext = ? WHERE id = ? AND ciphertext = ?`, resealed, s.Key, s.Ciphertext).Error
	})
}
