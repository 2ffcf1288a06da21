package inbound

import (
	"context"
	"crypto/sha256"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"github.com/ferry-dev/ferry"
	"github.com/ferry-dev/ferry/internal/pgval"
	"github.com/ferry-dev/ferry/page"
)

// sourceRow is a row of sources.
type sourceRow struct {
	ID                 uuid.UUID `gorm:"primaryKey"`
	TenantID           uuid.UUID
	Name               string
	Enabled            bool
	Verification       pgval.JSON[Verification] `gorm:"type:jsonb"`
	SecretCiphertext   []byte
	EventType          pgval.JSON[EventTypeRule] `gorm:"type:jsonb"`
	Response           pgval.JSON[*Response]     `gorm:"type:jsonb"`
	Dedupe             pgval.JSON[*DedupeRule]   `gorm:"type:jsonb"`
	RateLimitPerSecond int
	TokenHash          []byte
	TokenCiphertext    []byte
	RejectedUnstored   int64
	CreatedAt          time.Time
	UpdatedAt          time.Time
	DeletedAt          *time.Time
}

func (sourceRow) TableName() string { return "sources" }

func forTenant(id uuid.UUID) func(*gorm.DB) *gorm.DB {
	return func(db *gorm.DB) *gorm.DB { return db.Where("tenant_id = ?", id) }
}

func hashToken(tok string) []byte {
	h := sha256.Sum256([]byte(tok))
	return h[:]
}

// Additional data binding sealed values to their source and purpose, so
// a ciphertext cannot be moved to another source or column.
func secretAAD(id uuid.UUID) []byte { return append([]byte("source-secret:"), id[:]...) }
func tokenAAD(id uuid.UUID) []byte  { return append([]byte("source-token:"), id[:]...) }

// source turns a row into the API's view, revealing the ingest URL.
func (s *Service) source(r sourceRow) (Source, error) {
	tok, err := s.sealer.Open(r.TokenCiphertext, tokenAAD(r.ID))
	if err != nil {
		return Source{}, fmt.Errorf("source %s token: %w", r.ID, err)
	}
	return Source{
		ID: r.ID, Name: r.Name, Enabled: r.Enabled, Verification: r.Verification.V, EventType: r.EventType.V,
		Response: r.Response.V, Dedupe: r.Dedupe.V, RateLimitPerSecond: r.RateLimitPerSecond,
		IngestURL: s.ingestURL(string(tok)), RejectedUnstored: r.RejectedUnstored, CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt,
	}, nil
}

func (s *Service) ingestURL(tok string) string {
	return strings.TrimSuffix(s.cfg.PublicURL, "/") + "/in/" + tok
}

// CreateSource validates in and stores a source with a fresh ingest
// token. Errors: EINVALID.
func (s *Service) CreateSource(ctx context.Context, tenantID uuid.UUID, in SourceInput) (Source, error) {
	name, err := validateName(in.Name)
	if err != nil {
		return Source{}, err
	}
	v, secret, err := in.Verification.normalize(false)
	if err != nil {
		return Source{}, err
	}
	et, err := in.EventType.validate(s.events.ValidEventType)
	if err != nil {
		return Source{}, err
	}
	resp, err := in.Response.validate()
	if err != nil {
		return Source{}, err
	}
	dd, err := in.Dedupe.validate()
	if err != nil {
		return Source{}, err
	}
	if dd == nil {
		dd = defaultDedupe(v.Type)
	}
	rl, err := validateRate(in.RateLimitPerSecond)
	if err != nil {
		return Source{}, err
	}
	tok, err := newToken()
	if err != nil {
		return Source{}, err
	}
	now := s.clock.Now().UTC()
	row := sourceRow{ID: uuid.New(), TenantID: tenantID, Name: name, Enabled: true, Verification: pgval.JSON[Verification]{V: v},
		EventType: pgval.JSON[EventTypeRule]{V: et}, Response: pgval.JSON[*Response]{V: resp}, Dedupe: pgval.JSON[*DedupeRule]{V: dd},
		RateLimitPerSecond: rl, TokenHash: hashToken(tok), CreatedAt: now, UpdatedAt: now}
	row.TokenCiphertext = s.sealer.Seal([]byte(tok), tokenAAD(row.ID))
	if secret != "" {
		row.SecretCiphertext = s.sealer.Seal([]byte(secret), secretAAD(row.ID))
	}
	err = s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := s.checkSourceLimit(ctx, tx, tenantID); err != nil {
			return err
		}
		if err := tx.Create(&row).Error; err != nil {
			return fmt.Errorf("insert source: %w", err)
		}
		return nil
	})
	if err != nil {
		return Source{}, err
	}
	return s.source(row)
}

func (s *Service) sourceRow(ctx context.Context, tenantID, id uuid.UUID) (sourceRow, error) {
	var rows []sourceRow
	if err := s.db.WithContext(ctx).Scopes(forTenant(tenantID)).Where("id = ? AND deleted_at IS NULL", id).
		Limit(1).Find(&rows).Error; err != nil {
		return sourceRow{}, fmt.Errorf("load source %s: %w", id, err)
	}
	if len(rows) == 0 {
		return sourceRow{}, ferry.NotFound("source")
	}
	return rows[0], nil
}

// Source returns one of the tenant's sources. Errors: ENOTFOUND.
func (s *Service) Source(ctx context.Context, tenantID, id uuid.UUID) (Source, error) {
	row, err := s.sourceRow(ctx, tenantID, id)
	if err != nil {
		return Source{}, err
	}
	return s.sourceWithLastRequest(ctx, row)
}

// sourceWithLastRequest is source with LastRequestAt.
func (s *Service) sourceWithLastRequest(ctx context.Context, row sourceRow) (Source, error) {
	src, err := s.source(row)
	if err != nil {
		return Source{}, err
	}
	out := []Source{src}
	if err := s.fillLastRequests(ctx, out); err != nil {
		return Source{}, err
	}
	return out[0], nil
}

// fillLastRequests sets the LastRequestAt of srcs: for each, its newest
// capture, read from the end of source_requests_source_idx.
func (s *Service) fillLastRequests(ctx context.Context, srcs []Source) error {
	if len(srcs) == 0 {
		return nil
	}
	ids := make([]uuid.UUID, len(srcs))
	for i, src := range srcs {
		ids[i] = src.ID
	}
	var rows []struct {
		ID   uuid.UUID
		Last *time.Time
	}
	// Hand-written: a newest-first index read per source, where max()
	// grouped over the list could read every capture of those sources.
	if err := s.db.WithContext(ctx).Raw(`SELECT s.id, (SELECT r.received_at FROM source_requests r WHERE r.source_id = s.id
			ORDER BY r.received_at DESC LIMIT 1) AS last
		FROM unnest(?::uuid[]) AS s(id)`, pgval.Array(ids)).Scan(&rows).Error; err != nil {
		return fmt.Errorf("last requests of %d sources: %w", len(ids), err)
	}
	last := make(map[uuid.UUID]*time.Time, len(rows))
	for _, r := range rows {
		last[r.ID] = r.Last
	}
	for i := range srcs {
		srcs[i].LastRequestAt = last[srcs[i].ID]
	}
	return nil
}

// ListSources returns a page of the tenant's sources, newest first.
// Errors: EINVALID (cursor).
func (s *Service) ListSources(ctx context.Context, tenantID uuid.UUID, pg page.Request) ([]Source, string, error) {
	cur, err := page.DecodeAt(pg.Cursor)
	if err != nil {
		return nil, "", err
	}
	q := s.db.WithContext(ctx).Scopes(forTenant(tenantID)).Where("deleted_at IS NULL")
	if cur.AtPtr() != nil {
		q = q.Where("(created_at, id) < (?, ?)", cur.At, cur.ID)
	}
	var rows []sourceRow
	if err := q.Order("created_at DESC, id DESC").Limit(pg.Size() + 1).Find(&rows).Error; err != nil {
		return nil, "", fmt.Errorf("list sources: %w", err)
	}
	out := make([]Source, 0, len(rows))
	for _, r := range rows {
		src, err := s.source(r)
		if err != nil {
			return nil, "", err
		}
		out = append(out, src)
	}
	out, next := page.Trim(out, pg.Size(), func(x Source) page.Cursor { return page.Cursor{At: x.CreatedAt, ID: x.ID} })
	if err := s.fillLastRequests(ctx, out); err != nil {
		return nil, "", err
	}
	return out, next, nil
}

// UpdateSource applies patch. Errors: ENOTFOUND, EINVALID.
func (s *Service) UpdateSource(ctx context.Context, tenantID, id uuid.UUID, patch SourcePatch) (Source, error) {
	row, err := s.sourceRow(ctx, tenantID, id)
	if err != nil {
		return Source{}, err
	}
	if patch.Name != nil {
		if row.Name, err = validateName(*patch.Name); err != nil {
			return Source{}, err
		}
	}
	if patch.Enabled != nil {
		row.Enabled = *patch.Enabled
	}
	if patch.Verification != nil {
		sameScheme := patch.Verification.Type == row.Verification.V.Type && row.SecretCiphertext != nil
		v, secret, err := patch.Verification.normalize(sameScheme)
		if err != nil {
			return Source{}, err
		}
		row.Verification.V = v
		switch {
		case secret != "":
			row.SecretCiphertext = s.sealer.Seal([]byte(secret), secretAAD(row.ID))
		case v.Type == SchemeNone:
			row.SecretCiphertext = nil
		}
		row.Verification.V.HasSecret = row.SecretCiphertext != nil
	}
	if patch.EventType != nil {
		if row.EventType.V, err = patch.EventType.validate(s.events.ValidEventType); err != nil {
			return Source{}, err
		}
	}
	if patch.ClearResponse {
		row.Response.V = nil
	} else if patch.Response != nil {
		if row.Response.V, err = patch.Response.validate(); err != nil {
			return Source{}, err
		}
	}
	switch {
	case patch.ClearDedupe:
		row.Dedupe.V = nil
	case patch.Dedupe != nil:
		if row.Dedupe.V, err = patch.Dedupe.validate(); err != nil {
			return Source{}, err
		}
	case patch.Verification != nil && row.Dedupe.V == nil:
		row.Dedupe.V = defaultDedupe(row.Verification.V.Type)
	}
	if patch.RateLimitPerSecond != nil {
		if row.RateLimitPerSecond, err = validateRate(patch.RateLimitPerSecond); err != nil {
			return Source{}, err
		}
	}
	row.UpdatedAt = s.clock.Now().UTC()
	err = s.db.WithContext(ctx).Model(&sourceRow{}).Scopes(forTenant(tenantID)).Where("id = ? AND deleted_at IS NULL", id).
		UpdateColumns(map[string]any{"name": row.Name, "enabled": row.Enabled, "verification": row.Verification,
			"secret_ciphertext": row.SecretCiphertext, "event_type": row.EventType, "response": row.Response,
			"dedupe": row.Dedupe, "rate_limit_per_second": row.RateLimitPerSecond, "updated_at": row.UpdatedAt}).Error
	if err != nil {
		return Source{}, fmt.Errorf("update source %s: %w", id, err)
	}
	s.forget(id)
	return s.sourceWithLastRequest(ctx, row)
}

// DeleteSource soft-deletes a source: its ingest URL stops working at
// once; its captured requests stay until retention. Errors: ENOTFOUND.
func (s *Service) DeleteSource(ctx context.Context, tenantID, id uuid.UUID) error {
	res := s.db.WithContext(ctx).Model(&sourceRow{}).Scopes(forTenant(tenantID)).Where("id = ? AND deleted_at IS NULL", id).
		UpdateColumns(map[string]any{"deleted_at": s.clock.Now().UTC(), "enabled": false})
	if res.Error != nil {
		return fmt.Errorf("delete source %s: %w", id, res.Error)
	}
	if res.RowsAffected == 0 {
		return ferry.NotFound("source")
	}
	s.forget(id)
	return nil
}

// RotateToken gives the source a fresh ingest token; the old one stops
// working at once (in other processes within Config.CacheTTL). Errors:
// ENOTFOUND.
func (s *Service) RotateToken(ctx context.Context, tenantID, id uuid.UUID) (Source, error) {
	tok, err := newToken()
	if err != nil {
		return Source{}, err
	}
	var rows []sourceRow
	res := s.db.WithContext(ctx).Model(&rows).Clauses(clause.Returning{}).Scopes(forTenant(tenantID)).
		Where("id = ? AND deleted_at IS NULL", id).
		UpdateColumns(map[string]any{"token_hash": hashToken(tok), "token_ciphertext": s.sealer.Seal([]byte(tok), tokenAAD(id)),
			"updated_at": s.clock.Now().UTC()})
	if res.Error != nil {
		return Source{}, fmt.Errorf("rotate token of source %s: %w", id, res.Error)
	}
	if len(rows) == 0 {
		return Source{}, ferry.NotFound("source")
	}
	s.forget(id)
	return s.sourceWithLastRequest(ctx, rows[0])
}
