package tenants

import (
	"context"
	"encoding/base64"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"

	"github.com/ferry-dev/ferry"
)

// TenantSummary is a tenant as the staff console lists it.
type TenantSummary struct {
	Tenant
	Members    int    `json:"members"`
	OwnerEmail string `json:"owner_email"`
}

// SearchTenants finds tenants for the staff console by id, name or a
// member's email (case-insensitive substring), newest first, a page of at
// most limit after cursor (from a previous page's next cursor). An empty q
// lists the newest tenants. Errors: EINVALID.
func (s *Service) SearchTenants(ctx context.Context, q string, limit int, cursor string) ([]TenantSummary, string, error) {
	q = strings.TrimSpace(q)
	if !utf8.ValidString(q) || len(q) > 254 {
		return nil, "", ferry.Invalid("q", "q must be at most 254 bytes of valid UTF-8")
	}
	var afterAt *time.Time
	var afterID uuid.UUID
	if cursor != "" {
		b, err := base64.RawURLEncoding.DecodeString(cursor)
		at, id, ok := strings.Cut(string(b), "|")
		t, terr := time.Parse(time.RFC3339Nano, at)
		u, uerr := uuid.Parse(id)
		if err != nil || !ok || terr != nil || uerr != nil {
			return nil, "", ferry.Invalid("cursor", "cursor is not valid")
		}
		afterAt, afterID = &t, u
	}
	if limit <= 0 || limit > 200 {
		limit = 50
	}
	// Escape LIKE wildcards so q is matched literally.
	pattern := "%" + strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(strings.ToLower(q)) + "%"
	query := s.db.WithContext(ctx).Table("tenants AS t").Select(`t.id, t.name, t.plan, t.created_at,
		(SELECT count(*) FROM users u WHERE u.tenant_id = t.id) AS members,
		coalesce((SELECT u.email FROM users u WHERE u.tenant_id = t.id AND u.role = 'owner'
			ORDER BY u.created_at LIMIT 1), '') AS owner_email`)
	if q != "" {
		match := "lower(t.name) LIKE ? OR EXISTS (SELECT 1 FROM users u WHERE u.tenant_id = t.id AND lower(u.email) LIKE ?)"
		if id, err := uuid.Parse(q); err == nil {
			query = query.Where("(t.id = ? OR "+match+")", id, pattern, pattern)
		} else {
			query = query.Where("("+match+")", pattern, pattern)
		}
	}
	if afterAt != nil {
		query = query.Where("(t.created_at, t.id) < (?, ?)", *afterAt, afterID)
	}
	out := []TenantSummary{}
	err := query.Order("t.created_at DESC, t.id DESC").Limit(limit + 1).Scan(&out).Error
	if err != nil {
		return nil, "", fmt.Errorf("search tenants: %w", err)
	}
	next := ""
	if len(out) > limit {
		out = out[:limit]
		last := out[limit-1]
		next = base64.RawURLEncoding.EncodeToString([]byte(last.CreatedAt.UTC().Format(time.RFC3339Nano) + "|" + last.ID.String()))
	}
	return out, next, nil
}
