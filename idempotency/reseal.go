package idempotency

import (
	"context"
	"fmt"

	"gorm.io/gorm"

	"github.com/ferry-dev/ferry/internal/seal"
)

// storedKey is an answer's key, as ResealAnswers pages through them.
type storedKey struct{ scope, key string }

// ResealAnswers moves every stored answer sealed under one of c's other
// master keys to its sealing key: the last step of a master-key rotation
// (docs/operations.md, Rotating secrets). Answers live for Window; one no
// key opens is counted and left alone. Errors: wrapped database errors.
func ResealAnswers(ctx context.Context, db *gorm.DB, c *seal.Cipher) (seal.Tally, error) {
	return c.ResealAll(ctx, func(ctx context.Context, last *seal.Stored) ([]seal.Stored, error) {
		var after storedKey
		if last != nil {
			after = last.Key.(storedKey)
		}
		var rows []struct {
			Scope, Key string
			Response   []byte
		}
		if err := db.WithContext(ctx).Raw(`SELECT scope, key, response FROM idempotency_keys
			WHERE (scope, key) > (?, ?) AND response IS NOT NULL ORDER BY scope, key LIMIT 500`, after.scope, after.key).
			Scan(&rows).Error; err != nil {
			return nil, fmt.Errorf("read idempotent answers: %w", err)
		}
		out := make([]seal.Stored, len(rows))
		for i, r := range rows {
			out[i] = seal.Stored{Key: storedKey{r.Scope, r.Key}, Ciphertext: r.Response, AAD: aad(r.Scope, r.Key)}
		}
		return out, nil
	}, func(ctx context.Context, s seal.Stored, resealed []byte) error {
		k := s.Key.(storedKey)
		return db.WithContext(ctx).Exec(`UPDATE idempotency_keys SET response = ? WHERE scope = ? AND key = ? AND response = ?`,
			resealed, k.scope, k.key, s.Ciphertext).Error
	})
}
