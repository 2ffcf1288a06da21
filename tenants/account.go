package tenants

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"github.com/ferry-dev/ferry"
)

// Throttle key prefixes.
const (
	keyLoginAccount  = "login:"      // failed logins per email
	keyLoginAddr     = "login-addr:" // failed logins per client address
	keySignupAddr    = "signup-addr:"
	keySignupAccount = "signup-account:"
	keyVerifyAccount = "verify-account:"
	keyInviteTenant  = "invite-tenant:"
	keyResetAccount  = "reset:" // reset mails per email
	keyResetAddr     = "reset-addr:"
)

// onField moves a validation error to the request field that carried the
// value.
func onField(err error, field string) error {
	var fe *ferry.Error
	if errors.As(err, &fe) {
		return &ferry.Error{Code: fe.Code, Message: fe.Message, Field: field}
	}
	return err
}

// loadCredentials returns the password hash of a user or staff subject.
func (s *Service) loadCredentials(tx *gorm.DB, kind PrincipalKind, id uuid.UUID) (string, error) {
	var hashes []string
	q := tx.Model(&userRow{})
	if kind == KindStaff {
		q = tx.Model(&staffRow{})
	}
	if err := q.Where("id = ?", id).Limit(1).Pluck("password_hash", &hashes).Error; err != nil {
		return "", fmt.Errorf("load password: %w", err)
	}
	if len(hashes) == 0 {
		return "", ferry.Errorf(ferry.EUNAUTHORIZED, "session is no longer valid; sign in again")
	}
	return hashes[0], nil
}

// setPassword stores a new password for a user or staff subject and lifts
// a forced change.
func (s *Service) setPassword(tx *gorm.DB, kind PrincipalKind, id uuid.UUID, password string) error {
	hash, err := hashPassword(password, s.cfg.BcryptCost)
	if err != nil {
		return err
	}
	q := tx.Model(&userRow{})
	if kind == KindStaff {
		q = tx.Model(&staffRow{})
	}
	if err := q.Where("id = ?", id).Updates(map[string]any{"password_hash": hash, "must_change_password": false}).Error; err != nil {
		return fmt.Errorf("store password: %w", err)
	}
	return nil
}

// ChangePassword changes the password of a session principal after
// checking the current one, and ends every other session of theirs (the
// one making the change stays). A wrong current password counts as a
// failed login. Errors: EUNAUTHORIZED (wrong current password),
// EINVALID, ERATELIMIT.
func (s *Service) ChangePassword(ctx context.Context, p Principal, current, next string) error {
	if p.Kind != KindUser && p.Kind != KindStaff {
		return &ferry.Error{Code: ferry.EFORBIDDEN, Message: "only a portal session can change its password"}
	}
	if err := validatePassword(next); err != nil {
		return onField(err, "new_password")
	}
	if current == next {
		return ferry.Invalid("new_password", "the new password must differ from the current one")
	}
	key := keyLoginAccount + p.Email
	if err := s.reserve(ctx, s.loginLimit(key)); err != nil {
		return err
	}
	hash, err := s.loadCredentials(s.db.WithContext(ctx), p.Kind, p.UserID)
	if err != nil {
		return err
	}
	ok, err := checkPassword(hash, current)
	if err != nil || !ok {
		if err != nil {
			return err
		}
		return &ferry.Error{Code: ferry.EUNAUTHORIZED, Message: "the current password is incorrect", Field: "current_password"}
	}
	if err := s.release(ctx, key); err != nil {
		return err
	}
	if err := s.setPassword(s.db.WithContext(ctx), p.Kind, p.UserID, next); err != nil {
		return err
	}
	if err := s.endSessions(ctx, p.UserID, p.SessionID); err != nil {
		return err
	}
	s.log.InfoContext(ctx, "password changed", "tenant_id", p.TenantID, "user_id", p.UserID, "kind", p.Kind)
	return nil
}

// RequestPasswordReset mails a reset link if email belongs to a member or
// staff account, and silently does nothing otherwise: the caller always
// answers the same way, so nobody learns which addresses have accounts.
// A lockout after failed logins does not stop it. At most a few mails
// per address and hour are sent. Errors: EINVALID (malformed email),
// ERATELIMIT (too many requests from clientAddr).
func (s *Service) RequestPasswordReset(ctx context.Context, emailIn, clientAddr string) error {
	email, err := normalizeEmail("email", emailIn)
	if err != nil {
		return err
	}
	if err := s.reserve(ctx, throttleLimit{key: keyResetAddr + clientKey(clientAddr), max: s.cfg.SignupsPerAddr,
		window: s.cfg.SignupWindow, message: "too many requests from this address; try again later"}); err != nil {
		return err
	}
	p, hash, err := s.findCredentials(ctx, email)
	if err != nil || p.Kind == "" {
		return err
	}
	if hash == "" {
		// A pending invite sets its first password through its invite
		// link only (ResendInvite sends a new one).
		return nil
	}
	// Mail bombing one address is bounded; the answer does not change.
	if err := s.reserve(ctx, throttleLimit{key: keyResetAccount + email, max: 5, window: s.cfg.SignupWindow}); err != nil {
		s.log.WarnContext(ctx, "password reset mails for one account throttled", "user_id", p.UserID)
		return nil
	}
	tok, err := newAccountToken(s.db.WithContext(ctx), s.now().UTC(), purposeReset, p.Kind, p.UserID, s.cfg.ResetTokenTTL)
	if err != nil {
		return err
	}
	link := s.link("reset-password", tok)
	s.sendMail(ctx, "password_reset", func(ctx context.Context) error { return s.mail.PasswordReset(ctx, email, link) })
	s.log.InfoContext(ctx, "password reset requested", "user_id", p.UserID, "kind", p.Kind)
	return nil
}

// ConfirmPasswordReset sets a new password with an emailed token. The
// token works once and expires; every session of the account ends and
// its failed-login lockout is lifted (the link proves control of the
// address). Errors: EINVALID (bad token or password).
func (s *Service) ConfirmPasswordReset(ctx context.Context, token, password string) error {
	if err := validatePassword(password); err != nil {
		return onField(err, "new_password")
	}
	var row accountTokenRow
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var err error
		if row, err = useAccountToken(tx, s.now().UTC(), purposeReset, token); err != nil {
			return err
		}
		current, err := s.loadCredentials(tx, row.Kind, row.SubjectID)
		if err != nil || current == "" {
			// A reset never gives a pending invite its first password.
			return ferry.Invalid("token", "this link is invalid, used or expired; ask for a new one")
		}
		return s.setPassword(tx, row.Kind, row.SubjectID, password)
	})
	if err != nil {
		return err
	}
	if err := s.endSessions(ctx, row.SubjectID, uuid.Nil); err != nil {
		return err
	}
	email, err := s.subjectEmail(ctx, row.Kind, row.SubjectID)
	if err != nil {
		return err
	}
	if err := s.clearThrottle(ctx, keyLoginAccount+email); err != nil {
		return err
	}
	s.log.InfoContext(ctx, "password reset", "user_id", row.SubjectID, "kind", row.Kind)
	return nil
}

func (s *Service) subjectEmail(ctx context.Context, kind PrincipalKind, id uuid.UUID) (string, error) {
	var emails []string
	q := s.db.WithContext(ctx).Model(&userRow{})
	if kind == KindStaff {
		q = s.db.WithContext(ctx).Model(&staffRow{})
	}
	if err := q.Where("id = ?", id).Limit(1).Pluck("lower(email)", &emails).Error; err != nil {
		return "", fmt.Errorf("load email: %w", err)
	}
	if len(emails) == 0 {
		return "", ferry.Invalid("token", "this link is invalid, used or expired; ask for a new one")
	}
	return emails[0], nil
}

// AcceptInvite sets the invited member's own password with the emailed
// token and returns their principal (the caller starts a session). The
// address is verified by the same act. Errors: EINVALID (bad token or
// password).
func (s *Service) AcceptInvite(ctx context.Context, token, password string) (Principal, error) {
	if err := validatePassword(password); err != nil {
		return Principal{}, err
	}
	var u userRow
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		row, err := useAccountToken(tx, s.now().UTC(), purposeInvite, token)
		if err != nil {
			return err
		}
		hash, err := hashPassword(password, s.cfg.BcryptCost)
		if err != nil {
			return err
		}
		var rows []userRow
		if err := tx.Model(&rows).Clauses(clause.Returning{}).Where("id = ? AND password_hash = ''", row.SubjectID).
			Updates(map[string]any{"password_hash": hash, "must_change_password": false, "email_verified_at": s.now().UTC()}).Error; err != nil {
			return fmt.Errorf("accept invite: %w", err)
		}
		if len(rows) == 0 {
			return ferry.Invalid("token", "this link is invalid, used or expired; ask for a new one")
		}
		u = rows[0]
		return nil
	})
	if err != nil {
		return Principal{}, err
	}
	s.log.InfoContext(ctx, "invite accepted", "tenant_id", u.TenantID, "user_id", u.ID)
	return Principal{Kind: KindUser, TenantID: u.TenantID, UserID: u.ID, Email: u.Email, Role: u.Role}, nil
}

// EmailVerified reports whether a member's address is verified (staff:
// always). Errors: wrapped database errors.
func (s *Service) EmailVerified(ctx context.Context, p Principal) (bool, error) {
	if p.Kind != KindUser {
		return true, nil
	}
	var verified []bool
	if err := s.db.WithContext(ctx).Model(&userRow{}).Where("id = ?", p.UserID).Limit(1).
		Pluck("email_verified_at IS NOT NULL", &verified).Error; err != nil {
		return false, fmt.Errorf("load address verification: %w", err)
	}
	return len(verified) == 1 && verified[0], nil
}

// SendVerification mails an address-verification link to a member whose
// address is not verified yet (members who signed up or accepted an
// invite proved theirs by following the link; older accounts may not
// have). At most a few mails per hour go to one address. Errors:
// ERATELIMIT, wrapped database errors.
func (s *Service) SendVerification(ctx context.Context, p Principal) error {
	if p.Kind != KindUser {
		return nil
	}
	if ok, err := s.EmailVerified(ctx, p); err != nil || ok {
		return err
	}
	if err := s.reserve(ctx, throttleLimit{key: keyVerifyAccount + p.UserID.String(), max: 5, window: time.Hour,
		message: "a verification mail was sent several times this hour; check your inbox or try again later"}); err != nil {
		return err
	}
	tok, err := newAccountToken(s.db.WithContext(ctx), s.now().UTC(), purposeVerify, KindUser, p.UserID, s.cfg.VerifyTokenTTL)
	if err != nil {
		return err
	}
	link := s.link("verify-email", tok)
	to := p.Email
	s.sendMail(ctx, "verify_address", func(ctx context.Context) error { return s.mail.VerifyAddress(ctx, to, link) })
	return nil
}

// VerifyEmail marks a member's address verified with the emailed token.
// Errors: EINVALID (bad token).
func (s *Service) VerifyEmail(ctx context.Context, token string) error {
	return s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		row, err := useAccountToken(tx, s.now().UTC(), purposeVerify, token)
		if err != nil {
			return err
		}
		if err := tx.Model(&userRow{}).Where("id = ?", row.SubjectID).Update("email_verified_at", s.now().UTC()).Error; err != nil {
			return fmt.Errorf("verify email: %w", err)
		}
		return nil
	})
}
