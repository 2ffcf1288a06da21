package tenants

import (
	"context"
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"errors"
	"log/slog"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"
	"gorm.io/driver/postgres"
	"gorm.io/gorm"
	"gorm.io/gorm/logger"

	"github.com/ferry-dev/ferry"
	"github.com/ferry-dev/ferry/migrations"
	"github.com/ferry-dev/ferry/tests/testenv"
)

type serviceBundle struct {
	db   *gorm.DB
	svc  *Service
	now  time.Time
	mail *fakeNotifier
}

// setup returns a Service on a fresh, migrated database whose clock the
// test moves.
func setup(t *testing.T) *serviceBundle {
	t.Helper()
	db, err := gorm.Open(postgres.Open(testenv.Postgres(t)), &gorm.Config{Logger: logger.Discard, SkipDefaultTransaction: true})
	if err != nil {
		t.Fatal(err)
	}
	sqlDB, err := db.DB()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sqlDB.Close() })
	if err := migrations.Up(context.Background(), sqlDB); err != nil {
		t.Fatal(err)
	}
	b := &serviceBundle{db: db, now: time.Now().UTC(), mail: &fakeNotifier{}}
	b.svc, err = NewService(db, Config{BcryptCost: bcrypt.MinCost, MaxLoginFailures: 3, LoginWindow: 10 * time.Minute,
		PortalURL: "https://portal.example/", Notifier: b.mail, Sealer: newTestSealer(t)},
		slog.New(slog.DiscardHandler), func() time.Time { return b.now })
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func (b *serviceBundle) signup(t *testing.T, email string) Principal {
	t.Helper()
	ctx := context.Background()
	if err := b.svc.Signup(ctx, SignupInput{Email: email, Password: "correct horse battery", Organization: "Org"}, "192.0.2.1"); err != nil {
		t.Fatal(err)
	}
	p, err := b.svc.FinishSignup(ctx, b.mail.token(t, email, "finish-signup"), "correct horse battery")
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestLoginThrottling(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx := context.Background()
	b.signup(t, "ann@example.com")
	for i := range 3 {
		if _, err := b.svc.Login(ctx, LoginInput{Email: "ann@example.com", Password: "wrong password"}); ferry.ErrorCode(err) != ferry.EUNAUTHORIZED {
			t.Fatalf("failure %d: %v, want unauthorized", i+1, err)
		}
	}
	// Locked now, even with the right password, and the answer says when.
	_, err := b.svc.Login(ctx, LoginInput{Email: "ANN@example.com", Password: "correct horse battery"})
	var fe *ferry.Error
	if ferry.ErrorCode(err) != ferry.ERATELIMIT || !asError(err, &fe) || fe.RetryAfterSeconds <= 0 {
		t.Fatalf("login after 3 failures: %v, want rate_limited with Retry-After", err)
	}
	// Unknown emails are throttled alike (no account enumeration).
	for range 3 {
		_, _ = b.svc.Login(ctx, LoginInput{Email: "nobody@example.com", Password: "whatever"})
	}
	if _, err := b.svc.Login(ctx, LoginInput{Email: "nobody@example.com", Password: "whatever"}); ferry.ErrorCode(err) != ferry.ERATELIMIT {
		t.Errorf("unknown email not throttled: %v", err)
	}
	// The window passes: the right password works and clears the count.
	b.now = b.now.Add(11 * time.Minute)
	if _, err := b.svc.Login(ctx, LoginInput{Email: "ann@example.com", Password: "correct horse battery"}); err != nil {
		t.Fatalf("login after the window: %v", err)
	}
	if _, err := b.svc.Login(ctx, LoginInput{Email: "ann@example.com", Password: "wrong password"}); ferry.ErrorCode(err) != ferry.EUNAUTHORIZED {
		t.Errorf("after success the failure count restarts: %v", err)
	}
}

func asError(err error, target **ferry.Error) bool {
	e, ok := err.(*ferry.Error)
	if ok {
		*target = e
	}
	return ok
}

func TestAPIKeyRevocationAndLastUsed(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx := context.Background()
	owner := b.signup(t, "ann@example.com")
	k, secret, err := b.svc.CreateAPIKey(ctx, owner.TenantID, "backend")
	if err != nil {
		t.Fatal(err)
	}
	if len(k.Prefix) < 12 || secret[:len(k.Prefix)] != k.Prefix {
		t.Errorf("prefix %q is not the start of the key", k.Prefix)
	}
	var stored struct {
		KeyHash []byte
		Prefix  string
	}
	b.db.Raw(`SELECT key_hash, prefix FROM api_keys WHERE id = ?`, k.ID).Scan(&stored)
	if string(stored.KeyHash) == secret || len(stored.KeyHash) != 32 {
		t.Errorf("key stored as %x, want its sha256", stored.KeyHash)
	}

	p, err := b.svc.AuthenticateAPIKey(ctx, secret)
	if err != nil || p.TenantID != owner.TenantID || p.KeyPrefix != k.Prefix || p.Kind != KindAPIKey {
		t.Fatalf("authenticate: %+v, %v", p, err)
	}
	keys, _ := b.svc.ListAPIKeys(ctx, owner.TenantID)
	if len(keys) != 1 || keys[0].LastUsedAt == nil {
		t.Fatalf("last_used_at not recorded: %+v", keys)
	}
	first := *keys[0].LastUsedAt
	b.now = b.now.Add(2 * time.Minute)
	if _, err := b.svc.AuthenticateAPIKey(ctx, secret); err != nil {
		t.Fatal(err)
	}
	keys, _ = b.svc.ListAPIKeys(ctx, owner.TenantID)
	if !keys[0].LastUsedAt.After(first) {
		t.Errorf("last_used_at %s did not move after %s", keys[0].LastUsedAt, first)
	}

	other := b.signup(t, "bob@example.com")
	if err := b.svc.RevokeAPIKey(ctx, other.TenantID, k.ID); ferry.ErrorCode(err) != ferry.ENOTFOUND {
		t.Errorf("another tenant revoked the key: %v", err)
	}
	if err := b.svc.RevokeAPIKey(ctx, owner.TenantID, k.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := b.svc.AuthenticateAPIKey(ctx, secret); ferry.ErrorCode(err) != ferry.EUNAUTHORIZED {
		t.Errorf("revoked key authenticated: %v", err)
	}
	keys, _ = b.svc.ListAPIKeys(ctx, owner.TenantID)
	if keys[0].RevokedAt == nil {
		t.Error("revoked_at not shown")
	}
	for _, bad := range []string{"", "fry_live_", secret + "x", "fry_live_" + "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"} {
		if _, err := b.svc.AuthenticateAPIKey(ctx, bad); ferry.ErrorCode(err) != ferry.EUNAUTHORIZED {
			t.Errorf("key %q: %v, want unauthorized", bad, err)
		}
	}
}

func TestMembersKeepAnOwner(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx := context.Background()
	owner := b.signup(t, "ann@example.com")
	tid := owner.TenantID

	u, err := b.svc.InviteMember(ctx, owner, MemberInput{Email: "vic@example.com", Role: RoleViewer})
	if err != nil || !u.Invited {
		t.Fatalf("invite: %+v %v", u, err)
	}
	// No password exists until the invitee sets one through the link.
	if _, err := b.svc.Login(ctx, LoginInput{Email: "vic@example.com", Password: ""}); ferry.ErrorCode(err) == "" {
		t.Fatal("an invited member signed in without a password")
	}
	p, err := b.svc.AcceptInvite(ctx, b.mail.token(t, "vic@example.com", "accept-invite"), "vic's own password")
	if err != nil || p.Role != RoleViewer || p.TenantID != tid {
		t.Fatalf("accept invite: %+v, %v", p, err)
	}
	if p, err := b.svc.Login(ctx, LoginInput{Email: "vic@example.com", Password: "vic's own password"}); err != nil || p.UserID != u.ID {
		t.Fatalf("invited member login: %+v, %v", p, err)
	}
	if _, err := b.svc.InviteMember(ctx, owner, MemberInput{Email: "VIC@example.com", Role: RoleAdmin}); ferry.ErrorCode(err) != ferry.ECONFLICT {
		t.Errorf("duplicate email: %v", err)
	}
	if _, err := b.svc.InviteMember(ctx, owner, MemberInput{Email: "x@example.com", Role: "root"}); ferry.ErrorCode(err) != ferry.EINVALID {
		t.Errorf("bad role: %v", err)
	}

	// The only owner can be neither demoted nor removed.
	if _, err := b.svc.UpdateMember(ctx, tid, owner.UserID, MemberPatch{Role: RoleAdmin}); ferry.ErrorCode(err) != ferry.ECONFLICT {
		t.Errorf("demote last owner: %v", err)
	}
	if err := b.svc.RemoveMember(ctx, tid, owner.UserID); ferry.ErrorCode(err) != ferry.ECONFLICT {
		t.Errorf("remove last owner: %v", err)
	}
	// With a second owner it works.
	if _, err := b.svc.UpdateMember(ctx, tid, u.ID, MemberPatch{Role: RoleOwner}); err != nil {
		t.Fatal(err)
	}
	if _, err := b.svc.UpdateMember(ctx, tid, owner.UserID, MemberPatch{Role: RoleViewer}); err != nil {
		t.Fatalf("demote with another owner: %v", err)
	}
	// The demoted session sees its new role on the next request.
	if p, err := b.svc.Refresh(ctx, owner); err != nil || p.Role != RoleViewer {
		t.Errorf("refresh after demotion: %+v, %v", p, err)
	}
	if err := b.svc.RemoveMember(ctx, tid, owner.UserID); err != nil {
		t.Fatal(err)
	}
	if _, err := b.svc.Refresh(ctx, owner); ferry.ErrorCode(err) != ferry.EUNAUTHORIZED {
		t.Errorf("refresh of a removed member: %v", err)
	}
	// Another tenant's member is not found.
	other := b.signup(t, "bob@example.com")
	if _, err := b.svc.UpdateMember(ctx, other.TenantID, u.ID, MemberPatch{Role: RoleViewer}); ferry.ErrorCode(err) != ferry.ENOTFOUND {
		t.Errorf("cross-tenant update: %v", err)
	}
	if err := b.svc.RemoveMember(ctx, other.TenantID, u.ID); ferry.ErrorCode(err) != ferry.ENOTFOUND {
		t.Errorf("cross-tenant remove: %v", err)
	}
	members, err := b.svc.ListMembers(ctx, other.TenantID)
	if err != nil || len(members) != 1 || members[0].Email != "bob@example.com" {
		t.Errorf("other tenant's members = %+v, %v", members, err)
	}
}

func TestAuditAndTenantSearch(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx := context.Background()
	acme := b.signup(t, "ann@acme.example")
	b.signup(t, "bob@globex.example")
	st, err := b.svc.CreateStaff(ctx, StaffInput{Email: "sam@ferry.dev", Password: "staff password 1"})
	if err != nil {
		t.Fatal(err)
	}
	staff, err := b.svc.Login(ctx, LoginInput{Email: "sam@ferry.dev", Password: "staff password 1"})
	if err != nil || !staff.IsStaff() || staff.UserID != st.ID {
		t.Fatalf("staff login: %+v, %v", staff, err)
	}

	found, _, err := b.svc.SearchTenants(ctx, "acme", 0, "")
	if err != nil || len(found) != 1 || found[0].ID != acme.TenantID || found[0].OwnerEmail != "ann@acme.example" {
		t.Fatalf("search acme: %+v, %v", found, err)
	}
	if found, _, _ := b.svc.SearchTenants(ctx, acme.TenantID.String(), 0, ""); len(found) != 1 {
		t.Errorf("search by id found %d", len(found))
	}
	if found, _, _ := b.svc.SearchTenants(ctx, "%", 0, ""); len(found) != 0 {
		t.Errorf("a literal %% matched %d tenants", len(found))
	}
	if found, _, _ := b.svc.SearchTenants(ctx, "' OR 1=1 --", 0, ""); len(found) != 0 {
		t.Errorf("SQL-looking query matched %d tenants", len(found))
	}
	// Paging through everything: two tenants, one per page.
	p1, next, err := b.svc.SearchTenants(ctx, "", 1, "")
	if err != nil || len(p1) != 1 || next == "" {
		t.Fatalf("page 1: %+v %q %v", p1, next, err)
	}
	p2, next2, err := b.svc.SearchTenants(ctx, "", 1, next)
	if err != nil || len(p2) != 1 || p2[0].ID == p1[0].ID || next2 != "" {
		t.Errorf("page 2: %+v %q %v", p2, next2, err)
	}
	if _, _, err := b.svc.SearchTenants(ctx, "", 1, "bogus"); ferry.ErrorCode(err) != ferry.EINVALID {
		t.Errorf("bad cursor: %v", err)
	}

	if err := b.svc.Audit(ctx, acme, &acme.TenantID, AuditViewTenant, "", nil); err == nil {
		t.Error("a tenant user was audited as staff")
	}
	for i := range 3 {
		if err := b.svc.Audit(ctx, staff, &acme.TenantID, AuditReplay, "customer asked", map[string]int{"n": i}); err != nil {
			t.Fatal(err)
		}
	}
	if err := b.svc.Audit(ctx, staff, nil, AuditSearchTenants, "", map[string]string{"q": "acme"}); err != nil {
		t.Fatal(err)
	}
	page1, next, err := b.svc.ListAudit(ctx, AuditFilter{TenantID: &acme.TenantID, Limit: 2})
	if err != nil || len(page1) != 2 || next == "" {
		t.Fatalf("audit page 1: %d entries, next %q, %v", len(page1), next, err)
	}
	if e := page1[0]; e.ActorEmail != "sam@ferry.dev" || e.StaffID != st.ID || e.Action != AuditReplay ||
		e.Reason != "customer asked" || string(e.Detail) != `{"n": 2}` || e.CreatedAt.IsZero() {
		t.Errorf("newest entry = %+v (detail %s)", e, e.Detail)
	}
	page2, next, err := b.svc.ListAudit(ctx, AuditFilter{TenantID: &acme.TenantID, Limit: 2, Cursor: next})
	if err != nil || len(page2) != 1 || next != "" {
		t.Errorf("audit page 2: %d entries, next %q, %v", len(page2), next, err)
	}
	all, _, _ := b.svc.ListAudit(ctx, AuditFilter{})
	if len(all) != 4 {
		t.Errorf("whole audit log has %d entries, want 4", len(all))
	}
	if _, _, err := b.svc.ListAudit(ctx, AuditFilter{Cursor: "garbage!"}); ferry.ErrorCode(err) != ferry.EINVALID {
		t.Errorf("bad cursor: %v", err)
	}
	// Filters: three replays (writes) and a search (a read without a
	// tenant), one view of acme, and a lift by another staff member.
	if err := b.svc.Audit(ctx, staff, &acme.TenantID, AuditViewTenant, "", nil); err != nil {
		t.Fatal(err)
	}
	kim := staff
	kim.Email = "kim@ferry.dev"
	if err := b.svc.Audit(ctx, kim, &acme.TenantID, AuditLiftRestriction, "paid by wire", nil); err != nil {
		t.Fatal(err)
	}
	tenantID := acme.TenantID
	count := func(f AuditFilter) int {
		t.Helper()
		f.Limit = 100
		out, _, err := b.svc.ListAudit(ctx, f)
		if err != nil {
			t.Fatalf("ListAudit(%+v): %v", f, err)
		}
		for _, e := range out {
			if e.Write != IsAuditWrite(e.Action) {
				t.Errorf("entry %s marked write=%v", e.Action, e.Write)
			}
			if e.TenantID != nil && e.TenantName == "" {
				t.Errorf("entry %s names no tenant", e.Action)
			}
		}
		return len(out)
	}
	later, earlier := b.now.Add(time.Hour), b.now.Add(-time.Hour)
	for name, tc := range map[string]struct {
		f    AuditFilter
		want int
	}{
		"writes":          {AuditFilter{Kind: AuditKindWrite}, 4},
		"reads":           {AuditFilter{Kind: AuditKindRead}, 2},
		"acme reads":      {AuditFilter{Kind: AuditKindRead, TenantID: &tenantID}, 1},
		"by kim":          {AuditFilter{Actor: "KIM@"}, 1},
		"by sam, writes":  {AuditFilter{Actor: "sam", Kind: AuditKindWrite}, 3},
		"wildcard actor":  {AuditFilter{Actor: "%"}, 0},
		"replays":         {AuditFilter{Action: AuditReplay}, 3},
		"since the start": {AuditFilter{Since: &earlier}, 6},
		"from later on":   {AuditFilter{Since: &later}, 0},
		"until earlier":   {AuditFilter{Until: &earlier}, 0},
	} {
		if got := count(tc.f); got != tc.want {
			t.Errorf("%s: %d entries, want %d", name, got, tc.want)
		}
	}
	if lifts, _, _ := b.svc.ListAudit(ctx, AuditFilter{Action: AuditLiftRestriction}); len(lifts) != 1 || lifts[0].TenantName != "Org" || !lifts[0].Write {
		t.Errorf("lift entries = %+v", lifts)
	}
	for _, f := range []AuditFilter{{Kind: "everything"}, {Since: &later, Until: &earlier}} {
		if _, _, err := b.svc.ListAudit(ctx, f); ferry.ErrorCode(err) != ferry.EINVALID {
			t.Errorf("ListAudit(%+v): %v, want invalid", f, err)
		}
	}
	if _, err := ValidateReason("  "); ferry.ErrorCode(err) != ferry.EINVALID {
		t.Errorf("blank reason accepted: %v", err)
	}
}

// TestAPIKeyCache: an authenticated key is trusted for the cache TTL, so a
// revocation made by another replica (straight in the database here)
// applies within the TTL; one made through this service applies at once,
// and last_used_at keeps its minute resolution while the key is cached.
func TestAPIKeyCache(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx := context.Background()
	owner := b.signup(t, "cache@example.com")
	_, secret, err := b.svc.CreateAPIKey(ctx, owner.TenantID, "backend")
	if err != nil {
		t.Fatal(err)
	}
	lastUsed := func() time.Time {
		t.Helper()
		keys, err := b.svc.ListAPIKeys(ctx, owner.TenantID)
		if err != nil || len(keys) != 1 || keys[0].LastUsedAt == nil {
			t.Fatalf("list keys: %+v %v", keys, err)
		}
		return *keys[0].LastUsedAt
	}
	if _, err := b.svc.AuthenticateAPIKey(ctx, secret); err != nil {
		t.Fatal(err)
	}
	first := lastUsed()

	// Another replica revokes the key: this one still trusts it until
	// the TTL (5 s) has passed.
	if err := b.db.Exec(`UPDATE api_keys SET revoked_at = now() WHERE key_hash = ?`, hashOf(secret)).Error; err != nil {
		t.Fatal(err)
	}
	b.now = b.now.Add(4 * time.Second)
	if _, err := b.svc.AuthenticateAPIKey(ctx, secret); err != nil {
		t.Fatalf("cached key refused within the TTL: %v", err)
	}
	b.now = b.now.Add(2 * time.Second)
	if _, err := b.svc.AuthenticateAPIKey(ctx, secret); ferry.ErrorCode(err) != ferry.EUNAUTHORIZED {
		t.Fatalf("key revoked elsewhere still accepted after the TTL: %v", err)
	}

	// A second key, used every 20 s: last_used_at moves once a minute
	// although most uses are answered from the cache.
	k2, secret2, err := b.svc.CreateAPIKey(ctx, owner.TenantID, "second")
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 7; i++ {
		if _, err := b.svc.AuthenticateAPIKey(ctx, secret2); err != nil {
			t.Fatal(err)
		}
		b.now = b.now.Add(20 * time.Second)
	}
	var used time.Time
	if err := b.db.Raw(`SELECT last_used_at FROM api_keys WHERE id = ?`, k2.ID).Scan(&used).Error; err != nil {
		t.Fatal(err)
	}
	if !used.After(first.Add(time.Minute)) {
		t.Errorf("last_used_at %s did not follow use (first use %s)", used, first)
	}
	if err := b.svc.RevokeAPIKey(ctx, owner.TenantID, k2.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := b.svc.AuthenticateAPIKey(ctx, secret2); ferry.ErrorCode(err) != ferry.EUNAUTHORIZED {
		t.Errorf("key revoked through this service still accepted: %v", err)
	}
}

func hashOf(key string) []byte {
	h := hashAPIKey(key)
	return h[:]
}

// testSealer is AES-GCM under a random key, as the app's master-key
// cipher is.
type testSealer struct{ aead cipher.AEAD }

func newTestSealer(t *testing.T) testSealer {
	t.Helper()
	key := make([]byte, 32)
	rand.Read(key)
	block, err := aes.NewCipher(key)
	if err != nil {
		t.Fatal(err)
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		t.Fatal(err)
	}
	return testSealer{aead}
}

func (s testSealer) Seal(plaintext, aad []byte) []byte {
	nonce := make([]byte, s.aead.NonceSize())
	rand.Read(nonce)
	return s.aead.Seal(nonce, nonce, plaintext, aad)
}

func (s testSealer) Open(ciphertext, aad []byte) ([]byte, error) {
	n := s.aead.NonceSize()
	if len(ciphertext) < n {
		return nil, errors.New("short ciphertext")
	}
	return s.aead.Open(nil, ciphertext[:n], ciphertext[n:], aad)
}

// The sign-up form answers the same for a taken address as for a new
// one; the mail to the address says which, and only a followed link
// creates anything.
func TestSignupRevealsNoAccounts(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx := context.Background()
	owner := b.signup(t, "ann@example.com")
	if owner.Role != RoleOwner {
		t.Fatalf("finished sign-up: %+v", owner)
	}
	in := SignupInput{Email: "ANN@example.com", Password: "another password", Organization: "Copycat"}
	if err := b.svc.Signup(ctx, in, "192.0.2.9"); err != nil {
		t.Fatalf("sign-up with a taken address: %v (must answer as for a new one)", err)
	}
	if tok := b.mail.token(t, "ann@example.com", "login"); tok != "account-exists" {
		t.Errorf("the account holder was not told: %q", tok)
	}
	var pending int64
	if err := b.db.Model(&pendingSignupRow{}).Count(&pending).Error; err != nil || pending != 0 {
		t.Errorf("%d pending sign-ups for a taken address (%v)", pending, err)
	}
	if _, err := b.svc.Login(ctx, LoginInput{Email: "ann@example.com", Password: "another password"}); ferry.ErrorCode(err) != ferry.EUNAUTHORIZED {
		t.Errorf("the second sign-up's password works: %v", err)
	}

	// A link works once, and not after it expires.
	if err := b.svc.Signup(ctx, SignupInput{Email: "bob@example.com", Password: "correct horse battery", Organization: "Bob's"}, "192.0.2.9"); err != nil {
		t.Fatal(err)
	}
	tok := b.mail.token(t, "bob@example.com", "finish-signup")
	if _, err := b.svc.Login(ctx, LoginInput{Email: "bob@example.com", Password: "correct horse battery"}); ferry.ErrorCode(err) != ferry.EUNAUTHORIZED {
		t.Errorf("an unconfirmed sign-up signs in: %v", err)
	}
	// Someone else's link (a sign-up started with a password of theirs)
	// creates nothing for whoever follows it without that password.
	if _, err := b.svc.FinishSignup(ctx, tok, "the follower's own guess"); ferry.ErrorCode(err) != ferry.EINVALID {
		t.Errorf("finished with another password: %v", err)
	}
	if _, err := b.svc.FinishSignup(ctx, tok, "correct horse battery"); err != nil {
		t.Fatal(err)
	}
	if _, err := b.svc.FinishSignup(ctx, tok, "correct horse battery"); ferry.ErrorCode(err) != ferry.EINVALID {
		t.Errorf("a sign-up link used twice: %v", err)
	}
	if err := b.svc.Signup(ctx, SignupInput{Email: "cy@example.com", Password: "correct horse battery", Organization: "Cy"}, "192.0.2.9"); err != nil {
		t.Fatal(err)
	}
	late := b.mail.token(t, "cy@example.com", "finish-signup")
	b.now = b.now.Add(49 * time.Hour)
	if _, err := b.svc.FinishSignup(ctx, late, "correct horse battery"); ferry.ErrorCode(err) != ferry.EINVALID {
		t.Errorf("an expired sign-up link: %v", err)
	}
}
