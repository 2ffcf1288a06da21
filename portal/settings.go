package portal

import (
	"context"
	"fmt"
	"net/url"
	"strings"

	"github.com/google/uuid"

	"github.com/ferry-dev/ferry"
	"github.com/ferry-dev/ferry/internal/pgval"
)

// Settings returns the tenant's portal settings (none set: no framing,
// Ferry's theme).
func (s *Service) Settings(ctx context.Context, tenantID uuid.UUID) (Settings, error) {
	var rows []struct {
		AllowedOrigins pgval.JSON[[]string]
		Theme          pgval.JSON[Theme]
	}
	if err := s.db.WithContext(ctx).Raw(`SELECT allowed_origins, theme FROM portal_settings WHERE tenant_id = ?`, tenantID).
		Scan(&rows).Error; err != nil {
		return Settings{}, fmt.Errorf("load portal settings: %w", err)
	}
	out := Settings{AllowedOrigins: []string{}}
	if len(rows) > 0 {
		out.Theme = rows[0].Theme.V
		if rows[0].AllowedOrigins.V != nil {
			out.AllowedOrigins = rows[0].AllowedOrigins.V
		}
	}
	return out, nil
}

// checkOrigin returns o as a serialized origin (scheme://host[:port]),
// or EINVALID: https only unless http is allowed (dev).
func (s *Service) checkOrigin(o string) (string, error) {
	u, err := url.Parse(strings.TrimSpace(o))
	bad := ferry.Invalid("allowed_origins", "allowed_origins must be origins such as https://app.example.com (scheme and host, no path)")
	if err != nil || u.Host == "" || u.User != nil || (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" {
		return "", bad
	}
	switch u.Scheme {
	case "https":
	case "http":
		if !s.cfg.AllowHTTPOrigins {
			return "", ferry.Invalid("allowed_origins", "allowed_origins must be https:// origins")
		}
	default:
		return "", bad
	}
	if strings.ContainsAny(u.Host, " ;,'\"*") {
		return "", bad
	}
	return strings.ToLower(u.Scheme + "://" + u.Host), nil
}

// SetSettings replaces the tenant's portal settings. Errors: EINVALID.
func (s *Service) SetSettings(ctx context.Context, tenantID uuid.UUID, in SettingsInput) (Settings, error) {
	if len(in.AllowedOrigins) > MaxOrigins {
		return Settings{}, ferry.Invalid("allowed_origins", "at most %d allowed_origins", MaxOrigins)
	}
	origins := []string{}
	for _, o := range in.AllowedOrigins {
		clean, err := s.checkOrigin(o)
		if err != nil {
			return Settings{}, err
		}
		origins = append(origins, clean)
	}
	theme, err := checkTheme(Theme(in.Theme))
	if err != nil {
		return Settings{}, err
	}
	if err := s.db.WithContext(ctx).Exec(`INSERT INTO portal_settings (tenant_id, allowed_origins, theme, updated_at) VALUES (?, ?, ?, ?)
		ON CONFLICT (tenant_id) DO UPDATE SET allowed_origins = EXCLUDED.allowed_origins, theme = EXCLUDED.theme,
			updated_at = EXCLUDED.updated_at`,
		tenantID, pgval.JSON[[]string]{V: origins}, pgval.JSON[Theme]{V: theme}, s.now().UTC()).Error; err != nil {
		return Settings{}, fmt.Errorf("save portal settings: %w", err)
	}
	return Settings{AllowedOrigins: origins, Theme: theme}, nil
}

// FrameAncestors returns the CSP frame-ancestors sources for the embed
// page of a session: the tenant's allowed origins, or 'none' (also for a
// session that has ended or never was).
func (s *Service) FrameAncestors(ctx context.Context, sessionID uuid.UUID) string {
	tenantID, err := s.TenantOf(ctx, sessionID)
	if err != nil {
		return "'none'"
	}
	st, err := s.Settings(ctx, tenantID)
	if err != nil || len(st.AllowedOrigins) == 0 {
		return "'none'"
	}
	return strings.Join(st.AllowedOrigins, " ")
}
