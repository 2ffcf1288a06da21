package httpapi

import (
	"context"

	"github.com/gofiber/fiber/v2"

	"github.com/ferry-dev/ferry"
	"github.com/ferry-dev/ferry/tenants"
)

// AccountService changes what a member's account holds: passwords,
// invites, address verification and staff TOTP (account.go). It is
// satisfied by *tenants.Service.
type AccountService interface {
	// ChangePassword changes p's password and ends their other sessions.
	// Errors: EUNAUTHORIZED (wrong current password), EINVALID,
	// ERATELIMIT.
	ChangePassword(ctx context.Context, p tenants.Principal, current, next string) error
	// RequestPasswordReset mails a reset link if the address has an
	// account. Errors: EINVALID, ERATELIMIT.
	RequestPasswordReset(ctx context.Context, email, clientAddr string) error
	// ConfirmPasswordReset sets a new password with an emailed token.
	// Errors: EINVALID.
	ConfirmPasswordReset(ctx context.Context, token, password string) error
	// AcceptInvite sets an invited member's password and returns their
	// principal. Errors: EINVALID.
	AcceptInvite(ctx context.Context, token, password string) (tenants.Principal, error)
	// VerifyEmail marks an address verified with an emailed token.
	// Errors: EINVALID.
	VerifyEmail(ctx context.Context, token string) error
	// SendVerification mails p an address-verification link. Errors:
	// ERATELIMIT, wrapped database errors.
	SendVerification(ctx context.Context, p tenants.Principal) error
	// StartTOTPEnrolment gives a staff member a new authenticator
	// secret. Errors: EFORBIDDEN (not staff), ECONFLICT (enrolled).
	StartTOTPEnrolment(ctx context.Context, p tenants.Principal) (tenants.TOTPEnrolment, error)
	// ConfirmTOTP enables the pending authenticator. Errors: EINVALID.
	ConfirmTOTP(ctx context.Context, p tenants.Principal, code string) error
}

// changePasswordInput is the body of POST /me/password.
type changePasswordInput struct {
	CurrentPassword string `json:"current_password" required:"true"` // the password now
	NewPassword     string `json:"new_password" required:"true"`     // the new password, 10 to 72 characters
}

// passwordResetInput is the body of POST /auth/password-reset.
type passwordResetInput struct {
	Email string `json:"email" required:"true" format:"email"` // the account's address
}

// acceptedMessage answers a request whose work goes on by mail
// (POST /auth/password-reset: the same whether or not the address has an
// account; POST /me/verify-email).
type acceptedMessage struct {
	Message string `json:"message"` // what happens next, for people
}

// passwordResetConfirmInput is the body of POST /auth/password-reset/confirm.
type passwordResetConfirmInput struct {
	Token       string `json:"token" required:"true" description:"from the emailed link"`
	NewPassword string `json:"new_password" required:"true"` // the new password, 10 to 72 characters
}

// inviteAcceptInput is the body of POST /auth/invites/accept.
type inviteAcceptInput struct {
	Token    string `json:"token" required:"true" description:"from the emailed link"`
	Password string `json:"password" required:"true"` // the new member's password, 10 to 72 characters
}

// verifyEmailInput is the body of POST /auth/verify-email.
type verifyEmailInput struct {
	Token string `json:"token" required:"true" description:"from the emailed link"`
}

// totpConfirmInput is the body of POST /me/totp/confirm.
type totpConfirmInput struct {
	Code string `json:"code" required:"true" description:"6-digit code from the authenticator"`
}

// changePassword: POST /me/password. The session making the change stays
// signed in; every other session of the account ends.
func (s *server) changePassword(c *fiber.Ctx) error {
	var in changePasswordInput
	if err := decode(c, &in); err != nil {
		return err
	}
	if err := s.Account.ChangePassword(c.UserContext(), principal(c), in.CurrentPassword, in.NewPassword); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}

// requestPasswordReset: POST /auth/password-reset. The answer is 202
// whether or not the address has an account.
func (s *server) requestPasswordReset(c *fiber.Ctx) error {
	var in passwordResetInput
	if err := decode(c, &in); err != nil {
		return err
	}
	if err := s.Account.RequestPasswordReset(c.UserContext(), in.Email, c.IP()); err != nil {
		return err
	}
	return c.Status(fiber.StatusAccepted).JSON(acceptedMessage{
		Message: "if an account uses this address, a link to reset its password is on its way"})
}

// confirmPasswordReset: POST /auth/password-reset/confirm. Every session
// of the account ends; the user signs in with the new password.
func (s *server) confirmPasswordReset(c *fiber.Ctx) error {
	var in passwordResetConfirmInput
	if err := decode(c, &in); err != nil {
		return err
	}
	if err := s.Account.ConfirmPasswordReset(c.UserContext(), in.Token, in.NewPassword); err != nil {
		return err
	}
	s.clearCookies(c)
	return c.SendStatus(fiber.StatusNoContent)
}

// acceptInvite: POST /auth/invites/accept. The invitee sets their own
// password and is signed in.
func (s *server) acceptInvite(c *fiber.Ctx) error {
	var in inviteAcceptInput
	if err := decode(c, &in); err != nil {
		return err
	}
	p, err := s.Account.AcceptInvite(c.UserContext(), in.Token, in.Password)
	if err != nil {
		return err
	}
	if p, err = s.startSession(c, p); err != nil {
		return err
	}
	return s.writeMe(c, fiber.StatusOK, p)
}

// verifyEmail: POST /auth/verify-email.
func (s *server) verifyEmail(c *fiber.Ctx) error {
	var in verifyEmailInput
	if err := decode(c, &in); err != nil {
		return err
	}
	if err := s.Account.VerifyEmail(c.UserContext(), in.Token); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}

// startTOTP: POST /me/totp (staff). Returns a new authenticator secret.
func (s *server) startTOTP(c *fiber.Ctx) error {
	enr, err := s.Account.StartTOTPEnrolment(c.UserContext(), principal(c))
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(enr)
}

// confirmTOTP: POST /me/totp/confirm (staff) {code}.
func (s *server) confirmTOTP(c *fiber.Ctx) error {
	if !principal(c).IsStaff() {
		return &ferry.Error{Code: ferry.EFORBIDDEN, Message: "only staff use a TOTP second factor"}
	}
	var in totpConfirmInput
	if err := decode(c, &in); err != nil {
		return err
	}
	if err := s.Account.ConfirmTOTP(c.UserContext(), principal(c), in.Code); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}

// sendVerification: POST /me/verify-email mails the member a link that
// verifies their address (nothing when it is verified already).
func (s *server) sendVerification(c *fiber.Ctx) error {
	if err := s.Account.SendVerification(c.UserContext(), principal(c)); err != nil {
		return err
	}
	return c.Status(fiber.StatusAccepted).JSON(acceptedMessage{
		Message: "unless your address is verified already, a link to verify it is on its way"})
}
