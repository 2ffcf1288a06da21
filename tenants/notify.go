package tenants

import (
	"context"
	"log/slog"
)

// Notifier sends the account emails. Each method is handed the complete
// link to put in the mail; the link carries a one-time token and must
// not be logged. email.Accounts satisfies it (wired in app). Errors are
// delivery failures of the mail system.
type Notifier interface {
	// PasswordReset mails a password-reset link to to.
	PasswordReset(ctx context.Context, to, link string) error
	// MemberInvite mails an invitation to join organization to to.
	MemberInvite(ctx context.Context, to, organization, inviter, link string) error
	// VerifyAddress mails an address-verification link to to.
	VerifyAddress(ctx context.Context, to, link string) error
	// FinishSignup mails the link that finishes signing organization up.
	FinishSignup(ctx context.Context, to, organization, link string) error
	// AccountExists tells to that someone tried to sign up with their
	// address, which already has an account, with links to sign in and
	// to reset the password.
	AccountExists(ctx context.Context, to, signInLink, resetLink string) error
	// InvitedWithAccount tells to that inviter invited them to
	// organization, which their address cannot join: it has an account
	// in another organisation.
	InvitedWithAccount(ctx context.Context, to, organization, inviter string) error
}

// discardNotifier drops every mail; Service uses it when given none.
type discardNotifier struct{ log *slog.Logger }

var _ Notifier = discardNotifier{}

func (d discardNotifier) PasswordReset(ctx context.Context, to, _ string) error {
	d.log.WarnContext(ctx, "no mail configured: password reset not sent")
	return nil
}

func (d discardNotifier) MemberInvite(ctx context.Context, to, _, _, _ string) error {
	d.log.WarnContext(ctx, "no mail configured: member invite not sent")
	return nil
}

func (d discardNotifier) VerifyAddress(ctx context.Context, to, _ string) error {
	d.log.WarnContext(ctx, "no mail configured: address verification not sent")
	return nil
}

func (d discardNotifier) FinishSignup(ctx context.Context, to, _, _ string) error {
	d.log.WarnContext(ctx, "no mail configured: sign-up link not sent")
	return nil
}

func (d discardNotifier) AccountExists(ctx context.Context, to, _, _ string) error {
	d.log.WarnContext(ctx, "no mail configured: existing-account notice not sent")
	return nil
}

func (d discardNotifier) InvitedWithAccount(ctx context.Context, to, _, _ string) error {
	d.log.WarnContext(ctx, "no mail configured: invite notice not sent")
	return nil
}
