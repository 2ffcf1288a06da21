package portal

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"
	"gorm.io/gorm"

	"github.com/ferry-dev/ferry"
	"github.com/ferry-dev/ferry/internal/pgval"
	"github.com/ferry-dev/ferry/page"
)

// sessionRow is a row of portal_sessions.
type sessionRow struct {
	ID                uuid.UUID
	TenantID          uuid.UUID
	CustomerID        uuid.UUID
	CustomerUID       string
	Capabilities      pgval.JSON[[]string]
	EndpointIDs       *pgval.JSON[[]uuid.UUID]
	ReadOnly          bool
	Theme             pgval.JSON[Theme]
	ExternalUserID    string
	ExternalUserEmail string
	CreatedAt         time.Time
	ExpiresAt         time.Time
	RevokedAt         *time.Time
}

const sessionColumns = `s.id, s.tenant_id, s.customer_id, s.customer_uid, s.capabilities, s.endpoint_ids, s.read_only, s.theme,
	s.external_user_id, s.external_user_email, s.created_at, s.expires_at, s.revoked_at`

func (r sessionRow) session() Session {
	out := Session{ID: r.ID, TenantID: r.TenantID, CustomerID: r.CustomerID, Customer: CustomerRef{UID: r.CustomerUID},
		Capabilities: r.Capabilities.V, ReadOnly: r.ReadOnly, Theme: r.Theme.V,
		ExternalUser: ExternalUser{ID: r.ExternalUserID, Email: r.ExternalUserEmail}, ExpiresAt: r.ExpiresAt, CreatedAt: r.CreatedAt,
		RevokedAt: r.RevokedAt}
	if r.EndpointIDs != nil {
		out.EndpointIDs = r.EndpointIDs.V
		if out.EndpointIDs == nil {
			out.EndpointIDs = []uuid.UUID{}
		}
	}
	return out
}

// live completes a session read for a request: the customer must still
// be there (a deleted customer's sessions end). Errors: EUNAUTHORIZED.
func (s *Service) live(ctx context.Context, r sessionRow) (Session, error) {
	id, name, err := s.customers.Lookup(ctx, r.TenantID, r.CustomerUID)
	if ferry.ErrorCode(err) == ferry.ENOTFOUND || (err == nil && id != r.CustomerID) {
		return Session{}, errSession()
	}
	if err != nil {
		return Session{}, err
	}
	out := r.session()
	out.Customer.Name = name
	return out, nil
}

// Themed returns sess with the theme its page shows: the tenant's, with
// the session's overrides. Only what shows the session to its page needs
// it, not every request.
func (s *Service) Themed(ctx context.Context, sess Session) (Session, error) {
	st, err := s.Settings(ctx, sess.TenantID)
	if err != nil {
		return Session{}, err
	}
	sess.Theme = mergeTheme(st.Theme, sess.Theme)
	return sess, nil
}

func mergeTheme(base, over Theme) Theme {
	if over.LogoURL != "" {
		base.LogoURL = over.LogoURL
	}
	if over.PrimaryColor != "" {
		base.PrimaryColor = over.PrimaryColor
	}
	if over.Dark != nil {
		base.Dark = over.Dark
	}
	return base
}

// issue stores a new token of the session, valid for TokenTTL or until
// the session ends, whichever is sooner.
func (s *Service) issue(db *gorm.DB, r sessionRow, now time.Time) (Token, error) {
	tok, h := secret()
	exp := now.Add(TokenTTL)
	if r.ExpiresAt.Before(exp) {
		exp = r.ExpiresAt
	}
	if exp.Sub(now) <= 0 {
		return Token{}, errSession()
	}
	if err := db.Exec(`INSERT INTO portal_tokens (token_hash, session_id, expires_at) VALUES (?, ?, ?)`, h, r.ID, exp).Error; err != nil {
		return Token{}, fmt.Errorf("insert portal token: %w", err)
	}
	// Expired tokens of the session go as new ones come.
	if err := db.Exec(`DELETE FROM portal_tokens WHERE session_id = ? AND expires_at < ?`, r.ID, now).Error; err != nil {
		return Token{}, fmt.Errorf("prune portal tokens: %w", err)
	}
	return Token{Token: tok, ExpiresAt: exp}, nil
}

// Exchange trades a session's single-use code (within CodeTTL of minting)
// for its first token. Errors: EUNAUTHORIZED (unknown, used or expired
// code; ended session).
func (s *Service) Exchange(ctx context.Context, sessionID uuid.UUID, code string) (Exchanged, error) {
	h := hash(code)
	if h == "" {
		return Exchanged{}, errSession()
	}
	now := s.now().UTC()
	var out Exchanged
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var rows []sessionRow
		if err := tx.Raw(`UPDATE portal_sessions s SET code_used_at = ?
			WHERE s.id = ? AND s.code_hash = ? AND s.code_used_at IS NULL AND s.code_expires_at > ?
				AND s.revoked_at IS NULL AND s.expires_at > ?
			RETURNING `+sessionColumns, now, sessionID, h, now, now).Scan(&rows).Error; err != nil {
			return fmt.Errorf("use portal code: %w", err)
		}
		if len(rows) == 0 {
			return errSession()
		}
		sess, err := s.live(ctx, rows[0])
		if err == nil {
			sess, err = s.Themed(ctx, sess)
		}
		if err != nil {
			return err
		}
		tok, err := s.issue(tx, rows[0], now)
		if err != nil {
			return err
		}
		out = Exchanged{Token: tok, Session: sess}
		return nil
	})
	return out, err
}

// Authenticate returns the live session of a bearer token. Errors:
// EUNAUTHORIZED.
func (s *Service) Authenticate(ctx context.Context, token string) (Session, error) {
	h := hash(token)
	if h == "" {
		return Session{}, errSession()
	}
	now := s.now().UTC()
	var rows []sessionRow
	if err := s.db.WithContext(ctx).Raw(`SELECT `+sessionColumns+` FROM portal_tokens t JOIN portal_sessions s ON s.id = t.session_id
		WHERE t.token_hash = ? AND t.expires_at > ? AND s.revoked_at IS NULL AND s.expires_at > ?`, h, now, now).
		Scan(&rows).Error; err != nil {
		return Session{}, fmt.Errorf("load portal session: %w", err)
	}
	if len(rows) == 0 {
		return Session{}, errSession()
	}
	return s.live(ctx, rows[0])
}

// Renew issues a new token for the session of a live token. Errors:
// EUNAUTHORIZED.
func (s *Service) Renew(ctx context.Context, sess Session) (Token, error) {
	now := s.now().UTC()
	var tok Token
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var rows []sessionRow
		if err := tx.Raw(`SELECT `+sessionColumns+` FROM portal_sessions s WHERE s.id = ? AND s.revoked_at IS NULL AND s.expires_at > ?`,
			sess.ID, now).Scan(&rows).Error; err != nil {
			return fmt.Errorf("load portal session: %w", err)
		}
		if len(rows) == 0 {
			return errSession()
		}
		var err error
		tok, err = s.issue(tx, rows[0], now)
		return err
	})
	return tok, err
}

// Revoke ends one of the tenant's sessions. Errors: ENOTFOUND.
func (s *Service) Revoke(ctx context.Context, tenantID, sessionID uuid.UUID) error {
	res := s.db.WithContext(ctx).Exec(`UPDATE portal_sessions SET revoked_at = ? WHERE id = ? AND tenant_id = ? AND revoked_at IS NULL`,
		s.now().UTC(), sessionID, tenantID)
	if res.Error != nil {
		return fmt.Errorf("revoke portal session: %w", res.Error)
	}
	if res.RowsAffected == 0 {
		var n int64
		if err := s.db.WithContext(ctx).Raw(`SELECT count(*) FROM portal_sessions WHERE id = ? AND tenant_id = ?`, sessionID, tenantID).
			Scan(&n).Error; err != nil {
			return fmt.Errorf("revoke portal session: %w", err)
		}
		if n == 0 {
			return ferry.NotFound("portal session")
		}
	}
	return nil
}

// RevokeCustomer ends every live session of the tenant's customer uid, or
// only those of one external user, and returns how many it ended.
// Errors: ENOTFOUND (no such customer).
func (s *Service) RevokeCustomer(ctx context.Context, tenantID uuid.UUID, customerUID, externalUserID string) (int64, error) {
	if _, _, err := s.customers.Lookup(ctx, tenantID, customerUID); err != nil {
		return 0, err
	}
	res := s.db.WithContext(ctx).Exec(`UPDATE portal_sessions SET revoked_at = ?
		WHERE tenant_id = ? AND customer_uid = ? AND (? = '' OR external_user_id = ?) AND revoked_at IS NULL AND expires_at > ?`,
		s.now().UTC(), tenantID, customerUID, externalUserID, externalUserID, s.now().UTC())
	if res.Error != nil {
		return 0, fmt.Errorf("revoke portal sessions: %w", res.Error)
	}
	return res.RowsAffected, nil
}

// ListSessions returns a page of the tenant's sessions, newest first,
// optionally of one customer.
func (s *Service) ListSessions(ctx context.Context, tenantID uuid.UUID, customerUID string, pg page.Request) ([]Session, string, error) {
	cur, err := page.DecodeAt(pg.Cursor)
	if err != nil {
		return nil, "", err
	}
	var rows []sessionRow
	if err := s.db.WithContext(ctx).Raw(`SELECT `+sessionColumns+` FROM portal_sessions s
		WHERE s.tenant_id = ? AND (? = '' OR s.customer_uid = ?) AND (?::timestamptz IS NULL OR (s.created_at, s.id) < (?, ?))
		ORDER BY s.created_at DESC, s.id DESC LIMIT ?`, tenantID, customerUID, customerUID, cur.AtPtr(), cur.At, cur.ID, pg.Size()+1).
		Scan(&rows).Error; err != nil {
		return nil, "", fmt.Errorf("list portal sessions: %w", err)
	}
	out := make([]Session, len(rows))
	for i, r := range rows {
		out[i] = r.session()
	}
	out, next := page.Trim(out, pg.Size(), func(x Session) page.Cursor { return page.Cursor{At: x.CreatedAt, ID: x.ID} })
	return out, next, nil
}

// TenantOf returns the tenant of a session that has not ended, for the
// embed page's framing policy. Errors: ENOTFOUND.
func (s *Service) TenantOf(ctx context.Context, sessionID uuid.UUID) (uuid.UUID, error) {
	var ids []uuid.UUID
	if err := s.db.WithContext(ctx).Raw(`SELECT tenant_id FROM portal_sessions WHERE id = ? AND revoked_at IS NULL AND expires_at > ?`,
		sessionID, s.now().UTC()).Scan(&ids).Error; err != nil {
		return uuid.Nil, fmt.Errorf("load portal session: %w", err)
	}
	if len(ids) == 0 {
		return uuid.Nil, ferry.NotFound("portal session")
	}
	return ids[0], nil
}

// Audit records that the session's user did action on target.
func (s *Service) Audit(ctx context.Context, sess Session, action, target string) error {
	if err := s.db.WithContext(ctx).Exec(`INSERT INTO portal_audit (tenant_id, session_id, customer_uid, external_user_id,
			external_user_email, action, target, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
		sess.TenantID, sess.ID, sess.Customer.UID, sess.ExternalUser.ID, sess.ExternalUser.Email, action, target, s.now().UTC()).Error; err != nil {
		return fmt.Errorf("audit portal action: %w", err)
	}
	return nil
}

// ListAudit returns a page of what the tenant's customers' users did,
// newest first, optionally of one customer.
func (s *Service) ListAudit(ctx context.Context, tenantID uuid.UUID, customerUID string, pg page.Request) ([]AuditEntry, string, error) {
	cur, err := page.DecodeSeq(pg.Cursor)
	if err != nil {
		return nil, "", err
	}
	var rows []struct {
		ID                                int64
		SessionID                         uuid.UUID
		CustomerUID                       string
		ExternalUserID, ExternalUserEmail string
		Action, Target                    string
		At                                time.Time
	}
	if err := s.db.WithContext(ctx).Raw(`SELECT id, session_id, customer_uid, external_user_id, external_user_email, action, target, at
		FROM portal_audit WHERE tenant_id = ? AND (? = '' OR customer_uid = ?) AND (? = 0 OR id < ?)
		ORDER BY id DESC LIMIT ?`, tenantID, customerUID, customerUID, cur.Seq, cur.Seq, pg.Size()+1).Scan(&rows).Error; err != nil {
		return nil, "", fmt.Errorf("list portal audit: %w", err)
	}
	out := make([]AuditEntry, len(rows))
	for i, r := range rows {
		out[i] = AuditEntry{ID: r.ID, SessionID: r.SessionID, Customer: r.CustomerUID,
			ExternalUser: ExternalUser{ID: r.ExternalUserID, Email: r.ExternalUserEmail}, Action: r.Action, Target: r.Target, At: r.At}
	}
	out, next := page.Trim(out, pg.Size(), func(e AuditEntry) page.Cursor { return page.Cursor{Seq: e.ID} })
	return out, next, nil
}
