// Package idempotency remembers, for 24 hours, the answer to each
// creating request sent with an Idempotency-Key, so a client that retries
// after a timeout gets the first answer instead of a second resource.
// A key reused for a different request is refused, as is a retry that
// arrives while the first request still runs.
package idempotency

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"log/slog"
	"time"
	"unicode/utf8"

	"gorm.io/gorm"

	"github.com/ferry-dev/ferry"
	"github.com/ferry-dev/ferry/internal/clock"
)

// Window is how long an answer is kept and a key stays taken.
const Window = 24 * time.Hour

// abandonAfter is when a key whose first request never finished (its
// process died) may be claimed again: well past any request's timeout.
const abandonAfter = 2 * time.Minute

// MaxKeyLength bounds a key, as Stripe's do.
const MaxKeyLength = 255

// Sealer encrypts the stored answers, which may hold secrets (a new API
// key, an endpoint's signing secret); *seal.Cipher satisfies it.
type Sealer interface {
	Seal(plaintext, aad []byte) []byte
	Open(ciphertext, aad []byte) ([]byte, error)
}

// Response is a stored answer.
type Response struct {
	Status      int
	ContentType string
	Body        []byte
}

// Store keeps keys and answers in PostgreSQL.
type Store struct {
	db     *gorm.DB
	sealer Sealer
	log    *slog.Logger
	clock  clock.Clock
}

// NewStore returns a Store; clk nil is the system clock.
func NewStore(db *gorm.DB, sealer Sealer, log *slog.Logger, clk clock.Clock) *Store {
	return &Store{db: db, sealer: sealer, log: log, clock: clock.Or(clk)}
}

// ValidKey checks a key as clients send it. Errors: EINVALID.
func ValidKey(key string) error {
	if key == "" || len(key) > MaxKeyLength || !utf8.ValidString(key) {
		return ferry.Invalid("Idempotency-Key", "Idempotency-Key must be 1 to %d bytes of valid UTF-8", MaxKeyLength)
	}
	return nil
}

// Begin claims key in scope for a request whose fingerprint (method,
// route and body) is fp. It returns nil when the caller runs the request
// and then calls Finish or Release; or the stored answer of the request
// that used key before, to be sent again. Errors: EKEYREUSED when key
// named a different request, ECONFLICT while the first request with key
// still runs.
func (s *Store) Begin(ctx context.Context, scope, key string, fp []byte) (*Response, error) {
	for range 3 {
		now := s.clock.Now().UTC()
		res := s.db.WithContext(ctx).Exec(`INSERT INTO idempotency_keys (scope, key, fingerprint, created_at) VALUES (?, ?, ?, ?)
			ON CONFLICT (scope, key) DO UPDATE SET fingerprint = EXCLUDED.fingerprint, status = NULL, response = NULL,
				created_at = EXCLUDED.created_at
			WHERE idempotency_keys.created_at < ? OR (idempotency_keys.status IS NULL AND idempotency_keys.created_at < ?)`,
			scope, key, fp, now, now.Add(-Window), now.Add(-abandonAfter))
		if res.Error != nil {
			return nil, fmt.Errorf("claim idempotency key: %w", res.Error)
		}
		if res.RowsAffected == 1 {
			return nil, nil
		}
		var row struct {
			Fingerprint []byte
			Status      *int
			Response    []byte
		}
		err := s.db.WithContext(ctx).Raw(`SELECT fingerprint, status, response FROM idempotency_keys WHERE scope = ? AND key = ?`,
			scope, key).Scan(&row).Error
		if err != nil {
			return nil, fmt.Errorf("read idempotency key: %w", err)
		}
		switch {
		case row.Fingerprint == nil:
			continue // released between the two statements: claim it again
		case !bytes.Equal(row.Fingerprint, fp):
			return nil, ferry.Errorf(ferry.EKEYREUSED, "this Idempotency-Key was used within 24 hours for a different request")
		case row.Status == nil:
			return nil, ferry.Errorf(ferry.ECONFLICT, "a request with this Idempotency-Key is still being processed; retry in a moment")
		}
		return s.open(scope, key, *row.Status, row.Response)
	}
	return nil, ferry.Errorf(ferry.ECONFLICT, "a request with this Idempotency-Key is still being processed; retry in a moment")
}

// Finish stores the answer of the request that claimed key.
func (s *Store) Finish(ctx context.Context, scope, key string, r Response) error {
	sealed := s.sealer.Seal(encode(r), aad(scope, key))
	err := s.db.WithContext(ctx).Exec(`UPDATE idempotency_keys SET status = ?, response = ? WHERE scope = ? AND key = ? AND status IS NULL`,
		r.Status, sealed, scope, key).Error
	if err != nil {
		return fmt.Errorf("store idempotent answer: %w", err)
	}
	return nil
}

// Release frees key after its request failed, so a retry runs it again.
func (s *Store) Release(ctx context.Context, scope, key string) error {
	err := s.db.WithContext(ctx).Exec(`DELETE FROM idempotency_keys WHERE scope = ? AND key = ? AND status IS NULL`, scope, key).Error
	if err != nil {
		return fmt.Errorf("release idempotency key: %w", err)
	}
	return nil
}

// Prune deletes keys older than Window, a bounded batch at a time, and
// returns how many.
func (s *Store) Prune(ctx context.Context) (int64, error) {
	var total int64
	for {
		res := s.db.WithContext(ctx).Exec(`DELETE FROM idempotency_keys WHERE ctid IN
			(SELECT ctid FROM idempotency_keys WHERE created_at < ? LIMIT 5000)`, s.clock.Now().UTC().Add(-Window))
		if res.Error != nil {
			return total, fmt.Errorf("prune idempotency keys: %w", res.Error)
		}
		total += res.RowsAffected
		if res.RowsAffected < 5000 {
			return total, nil
		}
	}
}

// Run prunes every 10 minutes until ctx ends.
func (s *Store) Run(ctx context.Context) error {
	t := s.clock.NewTicker(10 * time.Minute)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-t.C():
			// A failed pass leaves old keys for the next one.
			if _, err := s.Prune(ctx); err != nil && ctx.Err() == nil {
				s.log.Warn("pruning idempotency keys", "err", err)
			}
		}
	}
}

func (s *Store) open(scope, key string, status int, sealed []byte) (*Response, error) {
	plain, err := s.sealer.Open(sealed, aad(scope, key))
	if err != nil {
		return nil, fmt.Errorf("open idempotent answer: %w", err)
	}
	r, err := decode(plain)
	if err != nil {
		return nil, err
	}
	r.Status = status
	return &r, nil
}

// aad binds a sealed answer to its scope and key.
func aad(scope, key string) []byte {
	return []byte("idempotency\x00" + scope + "\x00" + key)
}

// encode lays out an answer as the content type's length, the content
// type, then the body.
func encode(r Response) []byte {
	b := binary.AppendUvarint(nil, uint64(len(r.ContentType)))
	b = append(b, r.ContentType...)
	return append(b, r.Body...)
}

func decode(b []byte) (Response, error) {
	n, k := binary.Uvarint(b)
	if k <= 0 || uint64(len(b)-k) < n {
		return Response{}, errors.New("idempotent answer: bad encoding")
	}
	return Response{ContentType: string(b[k : k+int(n)]), Body: b[k+int(n):]}, nil
}
