package tenants

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/ferry-dev/ferry"
	"github.com/ferry-dev/ferry/internal/ttlcache"
)

// sessionRow is a row of sessions: the server-side half of a session
// JWT, whose jti is ID. SubjectID is a user or staff id.
type sessionRow struct {
	ID        uuid.UUID `gorm:"primaryKey"`
	SubjectID uuid.UUID
	Kind      PrincipalKind
	CreatedAt time.Time
	ExpiresAt time.Time
	RevokedAt *time.Time
}

func (sessionRow) TableName() string { return "sessions" }

// sessionCache remembers sessions found live in Postgres for a short TTL,
// so a portal request does not cost a sessions lookup each time. Only
// live sessions are kept; revoking through this process forgets them at
// once, and a revocation through another replica takes effect here within
// the TTL.
type sessionCache struct {
	sessions *ttlcache.Cache[uuid.UUID, cachedSession]
}

type cachedSession struct {
	subject uuid.UUID
	expires time.Time
}

func newSessionCache(ttl time.Duration, max int) *sessionCache {
	return &sessionCache{sessions: ttlcache.New[uuid.UUID, cachedSession](ttl, max)}
}

// live reports whether session id was found live within the TTL and has
// not expired since.
func (c *sessionCache) live(id uuid.UUID, now time.Time) bool {
	e, ok := c.sessions.Get(id, now)
	if ok && !now.Before(e.expires) {
		c.sessions.Forget(id, nil)
		return false
	}
	return ok
}

func (c *sessionCache) put(id uuid.UUID, e cachedSession, loadedAt time.Time) {
	c.sessions.Put(id, e, loadedAt)
}

// forget drops one session, or with a subject every session of it but keep.
func (c *sessionCache) forget(id, subject, keep uuid.UUID) {
	var match func(uuid.UUID, cachedSession) bool
	if subject != uuid.Nil {
		match = func(k uuid.UUID, e cachedSession) bool { return e.subject == subject && k != keep }
	}
	c.sessions.Forget(id, match)
}

// StartSession records a new server-side session for p (a user or staff
// principal) lasting ttl, and returns p with its SessionID set; sign that
// principal with Sessions.Issue.
func (s *Service) StartSession(ctx context.Context, p Principal, ttl time.Duration) (Principal, error) {
	if p.Kind != KindUser && p.Kind != KindStaff {
		return Principal{}, fmt.Errorf("start session for %s principal", p.Kind)
	}
	now := s.now().UTC()
	row := sessionRow{ID: uuid.New(), SubjectID: p.UserID, Kind: p.Kind, CreatedAt: now, ExpiresAt: now.Add(ttl)}
	if err := s.db.WithContext(ctx).Create(&row).Error; err != nil {
		return Principal{}, fmt.Errorf("insert session: %w", err)
	}
	// Expired sessions and throttle hits older than any window are of no
	// use; each sign-in sweeps a few (hand-written: DELETE … LIMIT).
	if err := s.db.WithContext(ctx).Exec(`DELETE FROM sessions WHERE id IN
		(SELECT id FROM sessions WHERE expires_at < ? LIMIT 100)`, now.Add(-time.Hour)).Error; err != nil {
		s.log.WarnContext(ctx, "sweep expired sessions", "err", err)
	}
	if err := s.db.WithContext(ctx).Exec(`DELETE FROM auth_throttle WHERE ctid IN
		(SELECT ctid FROM auth_throttle WHERE at < ? LIMIT 100)`, now.Add(-24*time.Hour)).Error; err != nil {
		s.log.WarnContext(ctx, "sweep old throttle hits", "err", err)
	}
	s.sessions.put(row.ID, cachedSession{subject: p.UserID, expires: row.ExpiresAt}, now)
	p.SessionID = row.ID
	return p, nil
}

// checkSession fails with EUNAUTHORIZED unless p's session is live.
func (s *Service) checkSession(ctx context.Context, p Principal) error {
	now := s.now().UTC()
	if p.SessionID == uuid.Nil {
		return ferry.Errorf(ferry.EUNAUTHORIZED, "session is invalid; sign in again")
	}
	if s.sessions.live(p.SessionID, now) {
		return nil
	}
	var rows []sessionRow
	if err := s.db.WithContext(ctx).Select("subject_id", "expires_at").
		Where("id = ? AND subject_id = ? AND revoked_at IS NULL AND expires_at > ?", p.SessionID, p.UserID, now).
		Limit(1).Find(&rows).Error; err != nil {
		return fmt.Errorf("load session: %w", err)
	}
	if len(rows) == 0 {
		return ferry.Errorf(ferry.EUNAUTHORIZED, "session has ended; sign in again")
	}
	s.sessions.put(p.SessionID, cachedSession{subject: p.UserID, expires: rows[0].ExpiresAt}, now)
	return nil
}

// EndSession revokes p's session (logout): the token stops working at once
// on this replica and within the session cache TTL on the others.
func (s *Service) EndSession(ctx context.Context, p Principal) error {
	if p.SessionID == uuid.Nil {
		return nil
	}
	s.sessions.forget(p.SessionID, uuid.Nil, uuid.Nil)
	if err := s.db.WithContext(ctx).Model(&sessionRow{}).Where("id = ? AND revoked_at IS NULL", p.SessionID).
		Update("revoked_at", s.now().UTC()).Error; err != nil {
		return fmt.Errorf("revoke session: %w", err)
	}
	return nil
}

// endSessions revokes every session of subject except keep (uuid.Nil to
// keep none).
func (s *Service) endSessions(ctx context.Context, subject, keep uuid.UUID) error {
	s.sessions.forget(uuid.Nil, subject, keep)
	if err := s.db.WithContext(ctx).Model(&sessionRow{}).
		Where("subject_id = ? AND id <> ? AND revoked_at IS NULL", subject, keep).
		Update("revoked_at", s.now().UTC()).Error; err != nil {
		return fmt.Errorf("revoke sessions: %w", err)
	}
	return nil
}
