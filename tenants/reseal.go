package tenants

import (
	"context"
	"fmt"

	"github.com/google/uuid"
	"gorm.io/gorm"

	"github.com/ferry-dev/ferry/internal/seal"
)

// ResealStaffTOTP moves every staff member's sealed authenticator key
// under one of c's other master keys to its sealing key: the last step
// of a master-key rotation (docs/operations.md, Rotating secrets). A key
// no master key opens is counted and left alone. Errors: wrapped
// database errors.
func ResealStaffTOTP(ctx context.Context, db *gorm.DB, c *seal.Cipher) (seal.Tally, error) {
	return c.ResealAll(ctx, func(ctx context.Context, last *seal.Stored) ([]seal.Stored, error) {
		after := uuid.Nil
		if last != nil {
			after = last.Key.(uuid.UUID)
		}
		var rows []staffRow
		if err := db.WithContext(ctx).Select("id", "totp_secret_sealed").Where("id > ? AND totp_secret_sealed IS NOT NULL", after).
			Order("id").Limit(100).Find(&rows).Error; err != nil {
			return nil, fmt.Errorf("read staff authenticator keys: %w", err)
		}
		out := make([]seal.Stored, len(rows))
		for i, r := range rows {
			out[i] = seal.Stored{Key: r.ID, Ciphertext: r.TOTPSealed, AAD: totpAAD(r.ID)}
		}
		return out, nil
	}, func(ctx context.Context, s seal.Stored, resealed []byte) error {
		return db.WithContext(ctx).Exec(`UPDATE staff SET totp_secret_sealed = ? WHERE id = ? AND totp_secret_sealed = ?`,
			resealed, s.Key, s.Ciphertext).Error
	})
}
