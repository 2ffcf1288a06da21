package tenants

import (
	"bytes"
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pquerna/otp/totp"

	"github.com/ferry-dev/ferry"
)

func (b *serviceBundle) session(t *testing.T, p Principal) Principal {
	t.Helper()
	p, err := b.svc.StartSession(context.Background(), p, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestSessionsEndOnLogoutAndPasswordChange(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx := context.Background()
	owner := b.signup(t, "ann@example.com")
	s1, s2 := b.session(t, owner), b.session(t, owner)
	for _, s := range []Principal{s1, s2} {
		if _, err := b.svc.Refresh(ctx, s); err != nil {
			t.Fatalf("live session refused: %v", err)
		}
	}
	if err := b.svc.EndSession(ctx, s1); err != nil {
		t.Fatal(err)
	}
	if _, err := b.svc.Refresh(ctx, s1); ferry.ErrorCode(err) != ferry.EUNAUTHORIZED {
		t.Errorf("session after logout: %v, want unauthorized", err)
	}
	s3 := b.session(t, owner)
	if err := b.svc.ChangePassword(ctx, s2, "wrong current", "a new password!"); ferry.ErrorCode(err) != ferry.EUNAUTHORIZED {
		t.Errorf("change with a wrong current password: %v", err)
	}
	if err := b.svc.ChangePassword(ctx, s2, "correct horse battery", "short"); ferry.ErrorCode(err) != ferry.EINVALID {
		t.Errorf("change to a short password: %v", err)
	}
	if err := b.svc.ChangePassword(ctx, s2, "correct horse battery", "a new password!"); err != nil {
		t.Fatal(err)
	}
	if _, err := b.svc.Refresh(ctx, s2); err != nil {
		t.Errorf("the session that changed the password ended: %v", err)
	}
	if _, err := b.svc.Refresh(ctx, s3); ferry.ErrorCode(err) != ferry.EUNAUTHORIZED {
		t.Errorf("another session survived a password change: %v", err)
	}
	if _, err := b.svc.Login(ctx, LoginInput{Email: "ann@example.com", Password: "a new password!"}); err != nil {
		t.Errorf("login with the new password: %v", err)
	}
}

func TestLoginLimitIsAtomic(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx := context.Background()
	b.signup(t, "ann@example.com")
	var evaluated, limited atomic.Int32
	var wg sync.WaitGroup
	for range 20 {
		wg.Go(func() {
			_, err := b.svc.Login(ctx, LoginInput{Email: "ann@example.com", Password: "wrong guess 123"})
			switch ferry.ErrorCode(err) {
			case ferry.EUNAUTHORIZED:
				evaluated.Add(1)
			case ferry.ERATELIMIT:
				limited.Add(1)
			default:
				t.Errorf("login: %v", err)
			}
		})
	}
	wg.Wait()
	if evaluated.Load() != 3 || limited.Load() != 17 {
		t.Errorf("20 parallel guesses, limit 3: %d evaluated, %d limited", evaluated.Load(), limited.Load())
	}
}

func TestPasswordResetByEmail(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx := context.Background()
	owner := b.signup(t, "ann@example.com")
	live := b.session(t, owner)
	// Lock the account out.
	for range 4 {
		_, _ = b.svc.Login(ctx, LoginInput{Email: "ann@example.com", Password: "wrong guess 123"})
	}
	// Unknown addresses answer alike and get no mail.
	if err := b.svc.RequestPasswordReset(ctx, "nobody@example.com", "192.0.2.1"); err != nil {
		t.Fatal(err)
	}
	if err := b.svc.RequestPasswordReset(ctx, "ANN@example.com", "192.0.2.1"); err != nil {
		t.Fatal(err)
	}
	b.svc.WaitMail()
	tok := b.mail.token(t, "ann@example.com", "reset-password")
	if b.mail.count("nobody@example.com") != 0 {
		t.Error("a reset mail went to an unknown address")
	}
	if err := b.svc.ConfirmPasswordReset(ctx, "not-a-token", "brand new password"); ferry.ErrorCode(err) != ferry.EINVALID {
		t.Errorf("made-up token: %v", err)
	}
	if err := b.svc.ConfirmPasswordReset(ctx, tok, "brand new password"); err != nil {
		t.Fatalf("reset while locked out: %v", err)
	}
	if err := b.svc.ConfirmPasswordReset(ctx, tok, "another password!"); ferry.ErrorCode(err) != ferry.EINVALID {
		t.Errorf("token used twice: %v", err)
	}
	if _, err := b.svc.Refresh(ctx, live); ferry.ErrorCode(err) != ferry.EUNAUTHORIZED {
		t.Errorf("a session survived the reset: %v", err)
	}
	if _, err := b.svc.Login(ctx, LoginInput{Email: "ann@example.com", Password: "brand new password"}); err != nil {
		t.Errorf("login after reset (lockout lifted): %v", err)
	}
	// Links expire.
	if err := b.svc.RequestPasswordReset(ctx, "ann@example.com", "192.0.2.1"); err != nil {
		t.Fatal(err)
	}
	b.svc.WaitMail()
	old := b.mail.token(t, "ann@example.com", "reset-password")
	if old == tok {
		t.Fatal("no second reset mail")
	}
	b.now = b.now.Add(2 * time.Hour)
	if err := b.svc.ConfirmPasswordReset(ctx, old, "yet another password"); ferry.ErrorCode(err) != ferry.EINVALID {
		t.Errorf("expired token: %v", err)
	}
}

func TestStaffTOTPAndDisable(t *testing.T) {
	t.Parallel()
	b := setup(t)
	b.svc.cfg.RequireStaffTOTP = true
	ctx := context.Background()
	if _, err := b.svc.CreateStaff(ctx, StaffInput{Email: "sam@ferry.dev", Password: "staff password 1"}); err != nil {
		t.Fatal(err)
	}
	p, err := b.svc.Login(ctx, LoginInput{Email: "sam@ferry.dev", Password: "staff password 1"})
	if err != nil || p.Restriction != RestrictTOTPEnrolment {
		t.Fatalf("first staff login: %+v %v, want a session confined to enrolment", p, err)
	}
	p = b.session(t, p)
	enr, err := b.svc.StartTOTPEnrolment(ctx, p)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.svc.ConfirmTOTP(ctx, p, "000000"); ferry.ErrorCode(err) != ferry.EINVALID {
		t.Errorf("wrong confirmation code: %v", err)
	}
	var stored staffRow
	if err := b.db.Where("id = ?", p.UserID).Take(&stored).Error; err != nil {
		t.Fatal(err)
	}
	if stored.TOTPSecret != "" || stored.TOTPSealed == nil || bytes.Contains(stored.TOTPSealed, []byte(enr.Secret)) {
		t.Errorf("authenticator key stored in clear: totp_secret %q, sealed %q", stored.TOTPSecret, stored.TOTPSealed)
	}
	code, _ := totp.GenerateCode(enr.Secret, b.now)
	if err := b.svc.ConfirmTOTP(ctx, p, code); err != nil {
		t.Fatal(err)
	}
	if p, err := b.svc.Refresh(ctx, p); err != nil || p.Restriction != "" {
		t.Errorf("after enrolment: %+v %v", p, err)
	}
	if _, err := b.svc.Login(ctx, LoginInput{Email: "sam@ferry.dev", Password: "staff password 1"}); ferry.ErrorCode(err) != ferry.EUNAUTHORIZED {
		t.Errorf("staff login without a code: %v", err)
	}
	if _, err := b.svc.Login(ctx, LoginInput{Email: "sam@ferry.dev", Password: "staff password 1", TOTPCode: code}); ferry.ErrorCode(err) != ferry.EUNAUTHORIZED {
		t.Errorf("a code used twice: %v", err)
	}
	next, _ := totp.GenerateCode(enr.Secret, b.now.Add(30*time.Second))
	live, err := b.svc.Login(ctx, LoginInput{Email: "sam@ferry.dev", Password: "staff password 1", TOTPCode: next})
	if err != nil {
		t.Fatalf("staff login with a code: %v", err)
	}
	live = b.session(t, live)
	if _, err := b.svc.DisableStaff(ctx, "SAM@ferry.dev"); err != nil {
		t.Fatal(err)
	}
	if _, err := b.svc.Refresh(ctx, live); ferry.ErrorCode(err) != ferry.EUNAUTHORIZED {
		t.Errorf("disabled staff session: %v", err)
	}
	// Deleting the account keeps its audit rows, naming it by email.
	if err := b.svc.Audit(ctx, live, nil, AuditReplay, "ticket 1", map[string]string{}); err != nil {
		t.Fatal(err)
	}
	if err := b.svc.DeleteStaff(ctx, "sam@ferry.dev"); err != nil {
		t.Fatalf("delete staff with audit rows: %v", err)
	}
	var n int64
	if err := b.db.Table("audit_log").Where("actor_email = ? AND staff_id IS NULL", "sam@ferry.dev").Count(&n).Error; err != nil || n != 1 {
		t.Errorf("audit rows after deleting the staff account: %d, %v", n, err)
	}
}

func TestLoginLimitPerClientAddress(t *testing.T) {
	t.Parallel()
	b := setup(t)
	b.svc.cfg.MaxLoginFailuresPerAddr = 4
	ctx := context.Background()
	b.signup(t, "ann@example.com")
	// Spraying many accounts from one address hits the address limit.
	for i, email := range []string{"a@example.com", "b@example.com", "c@example.com", "d@example.com"} {
		if _, err := b.svc.Login(ctx, LoginInput{Email: email, Password: "guess guess", ClientAddr: "198.51.100.7"}); ferry.ErrorCode(err) != ferry.EUNAUTHORIZED {
			t.Fatalf("guess %d: %v", i+1, err)
		}
	}
	if _, err := b.svc.Login(ctx, LoginInput{Email: "ann@example.com", Password: "correct horse battery", ClientAddr: "198.51.100.7"}); ferry.ErrorCode(err) != ferry.ERATELIMIT {
		t.Errorf("fifth login from the address: %v, want rate_limited", err)
	}
	// Another address is not affected.
	if _, err := b.svc.Login(ctx, LoginInput{Email: "ann@example.com", Password: "correct horse battery", ClientAddr: "203.0.113.9"}); err != nil {
		t.Errorf("login from another address: %v", err)
	}
}

func TestClientKey(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"198.51.100.7":         "198.51.100.7",
		"::ffff:198.51.100.7":  "198.51.100.7",
		"2001:db8:1:2:3:4:5:6": "2001:db8:1:2::/64",
		"2001:db8:1:2:ffff::9": "2001:db8:1:2::/64",
		"not an address":       "not an address",
	} {
		if got := clientKey(in); got != want {
			t.Errorf("clientKey(%q) = %q, want %q", in, got, want)
		}
	}
}

// A key enrolled before keys were sealed keeps working and is sealed by
// the first sign-in that proves it.
func TestStaffTOTPClearKeyIsSealedAtSignIn(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx := context.Background()
	staff := staffWithClearKey(t, b, "old@ferry.dev", clearKey)
	const secret = clearKey
	code, _ := totp.GenerateCode(secret, b.now)
	if _, err := b.svc.Login(ctx, LoginInput{Email: "old@ferry.dev", Password: "staff password 1", TOTPCode: code}); err != nil {
		t.Fatalf("sign-in with a clear key: %v", err)
	}
	var stored staffRow
	if err := b.db.Where("id = ?", staff.ID).Take(&stored).Error; err != nil {
		t.Fatal(err)
	}
	if stored.TOTPSecret != "" || stored.TOTPSealed == nil {
		t.Fatalf("key not sealed after sign-in: totp_secret %q, sealed %x", stored.TOTPSecret, stored.TOTPSealed)
	}
	next, _ := totp.GenerateCode(secret, b.now.Add(30*time.Second))
	if _, err := b.svc.Login(ctx, LoginInput{Email: "old@ferry.dev", Password: "staff password 1", TOTPCode: next}); err != nil {
		t.Fatalf("sign-in with the sealed key: %v", err)
	}
}

// Keys enrolled before keys were sealed are sealed by the migration step,
// without waiting for their owner's next sign-in, and still work.
func TestSealClearTOTPSecrets(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx := context.Background()
	staff := staffWithClearKey(t, b, "dormant@ferry.dev", clearKey)
	const secret = clearKey
	n, err := SealClearTOTPSecrets(ctx, b.db, b.svc.cfg.Sealer)
	if err != nil || n != 1 {
		t.Fatalf("sealed %d, %v; want 1", n, err)
	}
	var stored staffRow
	if err := b.db.Where("id = ?", staff.ID).Take(&stored).Error; err != nil {
		t.Fatal(err)
	}
	if stored.TOTPSecret != "" || stored.TOTPSealed == nil {
		t.Fatalf("still in clear: totp_secret %q, sealed %x", stored.TOTPSecret, stored.TOTPSealed)
	}
	if n, err := SealClearTOTPSecrets(ctx, b.db, b.svc.cfg.Sealer); err != nil || n != 0 {
		t.Errorf("a second run sealed %d, %v", n, err)
	}
	code, _ := totp.GenerateCode(secret, b.now)
	if _, err := b.svc.Login(ctx, LoginInput{Email: "dormant@ferry.dev", Password: "staff password 1", TOTPCode: code}); err != nil {
		t.Fatalf("sign-in with the sealed key: %v", err)
	}
}

// clearKey is an authenticator key as stored before keys were sealed.
const clearKey = "JBSWY3DPEHPK3PXP"

// staffWithClearKey creates a staff member whose authenticator key key is
// stored in clear, as it was before keys were sealed.
func staffWithClearKey(t *testing.T, b *serviceBundle, email, key string) Staff {
	t.Helper()
	staff, err := b.svc.CreateStaff(context.Background(), StaffInput{Email: email, Password: "staff password 1"})
	if err != nil {
		t.Fatal(err)
	}
	if err := b.db.Model(&staffRow{}).Where("id = ?", staff.ID).
		Updates(map[string]any{"totp_secret": key, "totp_enabled_at": b.now}).Error; err != nil {
		t.Fatal(err)
	}
	return staff
}
