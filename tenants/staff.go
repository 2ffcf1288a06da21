package tenants

import (
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/pquerna/otp"
	"github.com/pquerna/otp/totp"
	"gorm.io/gorm"

	"github.com/ferry-dev/ferry"
)

// StaffInput creates a staff account.
type StaffInput struct {
	Email    string
	Password string
	// MustChangePassword forces a change at the first sign-in: set it
	// when the password was generated and shown to an operator.
	MustChangePassword bool
}

// CreateStaff creates a support staff account (operator command).
// Errors: EINVALID, ECONFLICT (email taken).
func (s *Service) CreateStaff(ctx context.Context, in StaffInput) (Staff, error) {
	email, err := normalizeEmail("email", in.Email)
	if err != nil {
		return Staff{}, err
	}
	if err := validatePassword(in.Password); err != nil {
		return Staff{}, err
	}
	hash, err := hashPassword(in.Password, s.cfg.BcryptCost)
	if err != nil {
		return Staff{}, err
	}
	st := Staff{ID: uuid.New(), Email: email, CreatedAt: s.now().UTC()}
	err = s.db.WithContext(ctx).Create(&staffRow{ID: st.ID, Email: st.Email, PasswordHash: hash, CreatedAt: st.CreatedAt,
		MustChangePassword: in.MustChangePassword}).Error
	if isUniqueViolation(err) {
		return Staff{}, &ferry.Error{Code: ferry.ECONFLICT, Message: "staff with this email already exists", Field: "email"}
	}
	if err != nil {
		return Staff{}, fmt.Errorf("insert staff: %w", err)
	}
	return st, nil
}

// DisableStaff ends a staff account's access at once: it can no longer
// sign in or reset its password, and its sessions are revoked (every
// request re-reads the account, so replicas refuse it at once too). Its
// audit rows stay. Errors: ENOTFOUND.
func (s *Service) DisableStaff(ctx context.Context, emailIn string) (Staff, error) {
	email, err := normalizeEmail("email", emailIn)
	if err != nil {
		return Staff{}, err
	}
	var rows []staffRow
	if err := s.db.WithContext(ctx).Model(&rows).Clauses(returningStaff()).
		Where("lower(email) = ?", email).Update("disabled_at", gorm.Expr("coalesce(disabled_at, ?)", s.now().UTC())).Error; err != nil {
		return Staff{}, fmt.Errorf("disable staff: %w", err)
	}
	if len(rows) == 0 {
		return Staff{}, ferry.NotFound("staff")
	}
	if err := s.endSessions(ctx, rows[0].ID, uuid.Nil); err != nil {
		return Staff{}, err
	}
	s.log.InfoContext(ctx, "staff disabled", "staff_id", rows[0].ID)
	return Staff{ID: rows[0].ID, Email: rows[0].Email, CreatedAt: rows[0].CreatedAt}, nil
}

// DeleteStaff deletes a staff account; its audit rows stay, naming it by
// email. Errors: ENOTFOUND.
func (s *Service) DeleteStaff(ctx context.Context, emailIn string) error {
	st, err := s.DisableStaff(ctx, emailIn)
	if err != nil {
		return err
	}
	if err := s.db.WithContext(ctx).Where("id = ?", st.ID).Delete(&staffRow{}).Error; err != nil {
		return fmt.Errorf("delete staff: %w", err)
	}
	return nil
}

// TOTP parameters: RFC 6238 defaults that every authenticator app reads.
const (
	totpPeriod = 30
	totpDigits = otp.DigitsSix
	totpIssuer = "Ferry"
)

// TOTPEnrolment is a new, not yet confirmed authenticator secret.
type TOTPEnrolment struct {
	// Secret is the base32 key to type into an authenticator app.
	Secret string `json:"secret"`
	// URL is the otpauth:// URL (for a QR code).
	URL string `json:"otpauth_url"`
}

// StartTOTPEnrolment gives a staff member a new authenticator secret,
// which takes effect once ConfirmTOTP sees a code from it. Errors:
// EFORBIDDEN (not staff), ECONFLICT (already enrolled; an operator
// resets it with `ferry staff reset-totp`).
func (s *Service) StartTOTPEnrolment(ctx context.Context, p Principal) (TOTPEnrolment, error) {
	if !p.IsStaff() {
		return TOTPEnrolment{}, &ferry.Error{Code: ferry.EFORBIDDEN, Message: "only staff use a TOTP second factor"}
	}
	if s.cfg.Sealer == nil {
		return TOTPEnrolment{}, errors.New("enrol totp: no sealer configured for authenticator keys")
	}
	key, err := totp.Generate(totp.GenerateOpts{Issuer: totpIssuer, AccountName: p.Email, Period: totpPeriod, Digits: totpDigits})
	if err != nil {
		return TOTPEnrolment{}, fmt.Errorf("generate totp key: %w", err)
	}
	res := s.db.WithContext(ctx).Model(&staffRow{}).Where("id = ? AND totp_enabled_at IS NULL", p.UserID).
		Updates(map[string]any{"totp_secret_sealed": s.cfg.Sealer.Seal([]byte(key.Secret()), totpAAD(p.UserID)), "totp_secret": ""})
	if res.Error != nil {
		return TOTPEnrolment{}, fmt.Errorf("store totp secret: %w", res.Error)
	}
	if res.RowsAffected == 0 {
		return TOTPEnrolment{}, &ferry.Error{Code: ferry.ECONFLICT, Message: "an authenticator is already enrolled"}
	}
	return TOTPEnrolment{Secret: key.Secret(), URL: key.URL()}, nil
}

// ConfirmTOTP enables the pending authenticator once code matches it, and
// ends the staff member's other sessions (those were opened with the
// password alone). Errors: EINVALID (wrong code or nothing pending).
func (s *Service) ConfirmTOTP(ctx context.Context, p Principal, code string) error {
	var rows []staffRow
	if err := s.db.WithContext(ctx).Select("id", "totp_secret_sealed", "totp_secret", "totp_enabled_at").Where("id = ?", p.UserID).
		Limit(1).Find(&rows).Error; err != nil {
		return fmt.Errorf("load totp: %w", err)
	}
	if !p.IsStaff() || len(rows) == 0 || (rows[0].TOTPSealed == nil && rows[0].TOTPSecret == "") || rows[0].TOTPEnabledAt != nil {
		return ferry.Invalid("code", "no authenticator enrolment is pending")
	}
	secret, err := s.totpSecret(rows[0])
	if err != nil {
		return err
	}
	step, ok := matchTOTP(secret, code, s.now())
	if !ok {
		return ferry.Invalid("code", "the code is wrong; check the authenticator's clock and try the current code")
	}
	if err := s.db.WithContext(ctx).Model(&staffRow{}).Where("id = ?", p.UserID).
		Updates(map[string]any{"totp_enabled_at": s.now().UTC(), "totp_last_step": step}).Error; err != nil {
		return fmt.Errorf("enable totp: %w", err)
	}
	return s.endSessions(ctx, p.UserID, p.SessionID)
}

// TOTPEnrolled reports whether a staff member has a confirmed
// authenticator (false for anyone else), so the account page can say
// whether sign-in asks for a code. Errors: wrapped database errors.
func (s *Service) TOTPEnrolled(ctx context.Context, p Principal) (bool, error) {
	if !p.IsStaff() {
		return false, nil
	}
	var enabled []bool
	if err := s.db.WithContext(ctx).Model(&staffRow{}).Where("id = ?", p.UserID).Limit(1).
		Pluck("totp_enabled_at IS NOT NULL", &enabled).Error; err != nil {
		return false, fmt.Errorf("load totp state: %w", err)
	}
	return len(enabled) == 1 && enabled[0], nil
}

// ResetStaffTOTP removes a staff member's authenticator (lost phone) and
// ends their sessions; they enrol again at the next sign-in. Errors:
// ENOTFOUND.
func (s *Service) ResetStaffTOTP(ctx context.Context, emailIn string) error {
	email, err := normalizeEmail("email", emailIn)
	if err != nil {
		return err
	}
	var rows []staffRow
	if err := s.db.WithContext(ctx).Model(&rows).Clauses(returningStaff()).Where("lower(email) = ?", email).
		Updates(map[string]any{"totp_secret": "", "totp_secret_sealed": nil, "totp_enabled_at": nil, "totp_last_step": 0}).Error; err != nil {
		return fmt.Errorf("reset totp: %w", err)
	}
	if len(rows) == 0 {
		return ferry.NotFound("staff")
	}
	return s.endSessions(ctx, rows[0].ID, uuid.Nil)
}

// checkStaffTOTP checks a sign-in code when the staff member has an
// authenticator. Each code works once (its time step must be newer than
// the last one used). Without an authenticator it passes: Refresh then
// confines the session to enrolment where TOTP is required.
func (s *Service) checkStaffTOTP(ctx context.Context, staffID uuid.UUID, code string) error {
	var rows []staffRow
	if err := s.db.WithContext(ctx).Select("id", "totp_secret_sealed", "totp_secret", "totp_enabled_at", "totp_last_step").Where("id = ?", staffID).
		Limit(1).Find(&rows).Error; err != nil {
		return fmt.Errorf("load totp: %w", err)
	}
	if len(rows) == 0 || rows[0].TOTPEnabledAt == nil {
		return nil
	}
	if code == "" {
		return &ferry.Error{Code: ferry.EUNAUTHORIZED, Message: "enter the code from your authenticator app", Field: "totp_code"}
	}
	wrong := &ferry.Error{Code: ferry.EUNAUTHORIZED, Message: "the authenticator code is wrong or already used", Field: "totp_code"}
	secret, err := s.totpSecret(rows[0])
	if err != nil {
		return err
	}
	step, ok := matchTOTP(secret, code, s.now())
	if !ok || step <= rows[0].TOTPLastStep {
		return wrong
	}
	update := map[string]any{"totp_last_step": step}
	if rows[0].TOTPSealed == nil && s.cfg.Sealer != nil {
		// A key enrolled before sealing: seal it now that it proved good.
		update["totp_secret_sealed"], update["totp_secret"] = s.cfg.Sealer.Seal([]byte(secret), totpAAD(staffID)), ""
	}
	res := s.db.WithContext(ctx).Model(&staffRow{}).Where("id = ? AND totp_last_step < ?", staffID, step).
		Updates(update)
	if res.Error != nil {
		return fmt.Errorf("record totp step: %w", res.Error)
	}
	if res.RowsAffected == 0 {
		return wrong // the same code raced in twice
	}
	return nil
}

// matchTOTP reports whether code is the secret's code for the time step
// of now or one step either side (clock drift), and which step matched.
func matchTOTP(secret, code string, now time.Time) (int64, bool) {
	if len(code) != 6 {
		return 0, false
	}
	opts := totp.ValidateOpts{Period: totpPeriod, Digits: totpDigits, Algorithm: otp.AlgorithmSHA1}
	for _, skew := range []int64{-1, 0, 1} {
		t := now.Add(time.Duration(skew*totpPeriod) * time.Second)
		want, err := totp.GenerateCodeCustom(secret, t, opts)
		if err != nil {
			return 0, false
		}
		if subtle.ConstantTimeCompare([]byte(want), []byte(code)) == 1 {
			return t.Unix() / totpPeriod, true
		}
	}
	return 0, false
}

// totpSecret returns row's authenticator key, unsealing it; a key still in
// clear (enrolled before sealing) is returned as it is.
func (s *Service) totpSecret(row staffRow) (string, error) {
	if row.TOTPSealed == nil {
		return row.TOTPSecret, nil
	}
	if s.cfg.Sealer == nil {
		return "", errors.New("unseal totp key: no sealer configured")
	}
	secret, err := s.cfg.Sealer.Open(row.TOTPSealed, totpAAD(row.ID))
	if err != nil {
		return "", fmt.Errorf("unseal totp key of staff %s: %w", row.ID, err)
	}
	return string(secret), nil
}

// totpAAD binds a sealed authenticator key to its staff member.
func totpAAD(staffID uuid.UUID) []byte {
	return []byte("staff-totp:" + staffID.String())
}

// SealClearTOTPSecrets seals every staff authenticator key still stored
// in clear (enrolled before keys were sealed) and clears the clear copy,
// so a database dump holds no usable second factor. It runs with the
// migrations and is a no-op once nothing is left in clear. Errors:
// wrapped database errors.
func SealClearTOTPSecrets(ctx context.Context, db *gorm.DB, sealer Sealer) (int, error) {
	var rows []staffRow
	if err := db.WithContext(ctx).Select("id", "totp_secret").
		Where("totp_secret <> '' AND totp_secret_sealed IS NULL").Find(&rows).Error; err != nil {
		return 0, fmt.Errorf("find clear totp keys: %w", err)
	}
	for _, r := range rows {
		sealed := sealer.Seal([]byte(r.TOTPSecret), totpAAD(r.ID))
		// The guard leaves a row another replica sealed meanwhile alone.
		if err := db.WithContext(ctx).Model(&staffRow{}).Where("id = ? AND totp_secret_sealed IS NULL", r.ID).
			Updates(map[string]any{"totp_secret_sealed": sealed, "totp_secret": ""}).Error; err != nil {
			return 0, fmt.Errorf("seal totp key of staff %s: %w", r.ID, err)
		}
	}
	return len(rows), nil
}
