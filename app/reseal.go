package app

import (
	"context"
	"fmt"

	"gorm.io/gorm"

	"github.com/ferry-dev/ferry/delivery"
	"github.com/ferry-dev/ferry/idempotency"
	"github.com/ferry-dev/ferry/inbound"
	"github.com/ferry-dev/ferry/internal/seal"
	"github.com/ferry-dev/ferry/tenants"
)

// Resealed is what a reseal did to one kind of stored secret.
type Resealed struct {
	What string
	seal.Tally
}

// Reseal moves every stored secret sealed under one of cfg's other
// master keys to its master key: endpoint signing secrets, sources'
// ingest tokens and verification secrets, staff authenticator keys and
// idempotent answers. It is the last step of a master-key rotation
// (docs/operations.md, Rotating secrets), safe to run again and beside
// running processes. Errors: wrapped database errors.
func Reseal(ctx context.Context, db *gorm.DB, cfg Config) ([]Resealed, error) {
	c, err := cfg.cipher()
	if err != nil {
		return nil, err
	}
	var out []Resealed
	for _, k := range []struct {
		what   string
		reseal func(context.Context, *gorm.DB, *seal.Cipher) (seal.Tally, error)
	}{
		{"endpoint signing secrets", delivery.ResealEndpointSecrets},
		{"source tokens and secrets", inbound.ResealSources},
		{"staff authenticator keys", tenants.ResealStaffTOTP},
		{"idempotent answers", idempotency.ResealAnswers},
	} {
		t, err := k.reseal(ctx, db, c)
		out = append(out, Resealed{What: k.what, Tally: t})
		if err != nil {
			return out, fmt.Errorf("reseal %s: %w", k.what, err)
		}
	}
	return out, nil
}
