package app

import (
	"log/slog"
	"time"

	"github.com/ferry-dev/ferry/email"
	"github.com/ferry-dev/ferry/tenants"
)

var _ tenants.Notifier = (*email.Accounts)(nil)

// newAccountMail builds the account mails' sender: SMTP when
// FERRY_SMTP_URL is set, otherwise a sender that logs each mail as not
// sent (production warns once at start).
func newAccountMail(cfg Config, log *slog.Logger) (*email.Accounts, error) {
	tpl, err := email.ParseTemplates()
	if err != nil {
		return nil, err
	}
	acc := &email.Accounts{Templates: tpl, ResetValidFor: time.Hour, InviteValidFor: 7 * 24 * time.Hour,
		VerifyValidFor: 48 * time.Hour}
	if cfg.SMTPURL == "" {
		log.Warn("FERRY_SMTP_URL is not set: password resets, invites and address verification mails are not sent")
		acc.Sender = email.LogSender{Log: log}
		return acc, nil
	}
	sc, err := email.ParseSMTPURL(cfg.SMTPURL)
	if err != nil {
		return nil, err
	}
	sc.From = cfg.MailFrom
	if acc.Sender, err = email.NewSMTP(sc); err != nil {
		return nil, err
	}
	return acc, nil
}
