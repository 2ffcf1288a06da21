package portal_test

import (
	"context"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"
	"gorm.io/driver/postgres"
	"gorm.io/gorm"
	"gorm.io/gorm/logger"

	"github.com/ferry-dev/ferry"
	"github.com/ferry-dev/ferry/migrations"
	"github.com/ferry-dev/ferry/portal"
	"github.com/ferry-dev/ferry/tests/testenv"
)

// customers is a fake directory of one live customer.
type customers struct {
	mu   sync.Mutex
	id   uuid.UUID
	gone bool
}

func (c *customers) Lookup(_ context.Context, _ uuid.UUID, uid string) (uuid.UUID, string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if uid != "acme" || c.gone {
		return uuid.Nil, "", ferry.NotFound("customer")
	}
	return c.id, "Acme", nil
}

type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

func setup(t *testing.T) (*portal.Service, *customers, *clock, uuid.UUID) {
	t.Helper()
	db, err := gorm.Open(postgres.Open(testenv.Postgres(t)), &gorm.Config{Logger: logger.Discard})
	require.NoError(t, err)
	sqlDB, err := db.DB()
	require.NoError(t, err)
	t.Cleanup(func() { sqlDB.Close() })
	require.NoError(t, migrations.Up(context.Background(), sqlDB))
	tenant := uuid.New()
	require.NoError(t, db.Exec(`INSERT INTO tenants (id, name) VALUES (?, 't')`, tenant).Error)
	cs := &customers{id: uuid.New()}
	clk := &clock{t: time.Now().UTC().Truncate(time.Second)}
	return portal.New(db, cs, portal.Config{PublicURL: "https://ferry.example/"}, slog.New(slog.DiscardHandler), clk.now), cs, clk, tenant
}

func code(t *testing.T, m portal.Minted) string {
	t.Helper()
	_, c, ok := strings.Cut(m.URL, "#code=")
	require.True(t, ok, m.URL)
	return c
}

// TestCodeAndTokenLifetimes: a code works once and only within 120 s; a
// token lasts 10 minutes, never past its session, and renews while the
// session lives.
func TestCodeAndTokenLifetimes(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	svc, _, clk, tenant := setup(t)
	in := portal.SessionInput{TTLSeconds: 900, ExternalUser: portal.ExternalUserInput{ID: "u"}}

	late, err := svc.Mint(ctx, tenant, "acme", in)
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(late.URL, "https://ferry.example/embed/"+late.SessionID.String()+"#code="), late.URL)
	clk.advance(portal.CodeTTL + time.Second)
	_, err = svc.Exchange(ctx, late.SessionID, code(t, late))
	require.Equal(t, ferry.EUNAUTHORIZED, ferry.ErrorCode(err), "a code past 120 s")

	m, err := svc.Mint(ctx, tenant, "acme", in)
	require.NoError(t, err)
	_, err = svc.Exchange(ctx, late.SessionID, code(t, m))
	require.Equal(t, ferry.EUNAUTHORIZED, ferry.ErrorCode(err), "a code of another session")
	ex, err := svc.Exchange(ctx, m.SessionID, code(t, m))
	require.NoError(t, err)
	require.Equal(t, []string{portal.CapView}, ex.Session.Capabilities)
	require.Equal(t, "Acme", ex.Session.Customer.Name)
	require.WithinDuration(t, clk.now().Add(portal.TokenTTL), ex.ExpiresAt, time.Second)

	clk.advance(portal.TokenTTL - time.Minute)
	sess, err := svc.Authenticate(ctx, ex.Token.Token)
	require.NoError(t, err)
	renewed, err := svc.Renew(ctx, sess)
	require.NoError(t, err)
	clk.advance(2 * time.Minute)
	_, err = svc.Authenticate(ctx, ex.Token.Token)
	require.Equal(t, ferry.EUNAUTHORIZED, ferry.ErrorCode(err), "a token past 10 minutes")
	_, err = svc.Authenticate(ctx, renewed.Token)
	require.NoError(t, err)

	// 11 of the session's 15 minutes are gone: a renewal ends with it.
	last, err := svc.Renew(ctx, sess)
	require.NoError(t, err)
	require.WithinDuration(t, m.ExpiresAt, last.ExpiresAt, time.Second)
	clk.advance(5 * time.Minute)
	_, err = svc.Authenticate(ctx, last.Token)
	require.Equal(t, ferry.EUNAUTHORIZED, ferry.ErrorCode(err), "a token past its session")
	_, err = svc.Renew(ctx, sess)
	require.Equal(t, ferry.EUNAUTHORIZED, ferry.ErrorCode(err))

	_, err = svc.Authenticate(ctx, "not-a-token")
	require.Equal(t, ferry.EUNAUTHORIZED, ferry.ErrorCode(err))
}

// TestMintValidation: what a session may ask for.
func TestMintValidation(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	svc, cs, _, tenant := setup(t)
	user := portal.ExternalUserInput{ID: "u"}
	for name, tc := range map[string]struct {
		uid   string
		in    portal.SessionInput
		field string
	}{
		"unknown capability": {"acme", portal.SessionInput{Capabilities: []string{"admin"}, ExternalUser: user}, "capabilities"},
		"ttl too short":      {"acme", portal.SessionInput{TTLSeconds: 10, ExternalUser: user}, "ttl_seconds"},
		"ttl too long":       {"acme", portal.SessionInput{TTLSeconds: 100000, ExternalUser: user}, "ttl_seconds"},
		"no external user":   {"acme", portal.SessionInput{}, "external_user.id"},
		"http logo":          {"acme", portal.SessionInput{ExternalUser: user, Theme: &portal.ThemeInput{LogoURL: "http://x/l.png"}}, "theme.logo_url"},
		"bad colour":         {"acme", portal.SessionInput{ExternalUser: user, Theme: &portal.ThemeInput{PrimaryColor: "red"}}, "theme.primary_color"},
	} {
		_, err := svc.Mint(ctx, tenant, tc.uid, tc.in)
		var fe *ferry.Error
		require.ErrorAs(t, err, &fe, name)
		require.Equal(t, ferry.EINVALID, fe.Code, name)
		require.Equal(t, tc.field, fe.Field, name)
	}
	_, err := svc.Mint(ctx, tenant, "nobody", portal.SessionInput{ExternalUser: user})
	require.Equal(t, ferry.ENOTFOUND, ferry.ErrorCode(err))
	ro, err := svc.Mint(ctx, tenant, "acme", portal.SessionInput{ReadOnly: true, Capabilities: []string{portal.CapManageEndpoints}, ExternalUser: user})
	require.NoError(t, err)
	ex, err := svc.Exchange(ctx, ro.SessionID, code(t, ro))
	require.NoError(t, err)
	require.Equal(t, []string{portal.CapView}, ex.Session.Capabilities, "read_only drops every capability but view")
	cs.mu.Lock()
	cs.gone = true
	cs.mu.Unlock()
	_, err = svc.Authenticate(ctx, ex.Token.Token)
	require.Equal(t, ferry.EUNAUTHORIZED, ferry.ErrorCode(err), "a deleted customer's session ends")
}
