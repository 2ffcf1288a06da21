package tenants

import (
	"context"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/google/uuid"

	"github.com/ferry-dev/ferry"
	"github.com/ferry-dev/ferry/page"
)

// TenantSummary is a tenant as the staff console lists it.
type TenantSummary struct {
	Tenant
	Members    int    `json:"members"`     // how many members the tenant has
	OwnerEmail string `json:"owner_email"` // the first owner's email
}

// SearchTenants finds tenants for the staff console by id, name or a
// member's email (case-insensitive substring), newest first, a page of at
// most limit after cursor (from a previous page's next cursor). An empty q
// lists the newest tenants. Errors: EINVALID.
func (s *Service) SearchTenants(ctx context.Context, q string, limit int, cursor string) ([]TenantSummary, string, error) {
	q = strings.TrimSpace(q)
	if !utf8.ValidString(q) || len(q) > maxEmailLen {
		return nil, "", ferry.Invalid("q", "q must be at most %d bytes of valid UTF-8", maxEmailLen)
	}
	cur, err := page.DecodeAt(cursor)
	if err != nil {
		return nil, "", err
	}
	limit = page.Request{Limit: limit}.Size()
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
	if !cur.IsZero() {
		query = query.Where("(t.created_at, t.id) < (?, ?)", cur.At, cur.ID)
	}
	out := []TenantSummary{}
	if err := query.Order("t.created_at DESC, t.id DESC").Limit(limit + 1).Scan(&out).Error; err != nil {
		return nil, "", fmt.Errorf("search tenants: %w", err)
	}
	out, next := page.Trim(out, limit, func(t TenantSummary) page.Cursor { return page.Cursor{At: t.CreatedAt, ID: t.ID} })
	return out, next, nil
}
