// Package email sends Ferry's mail over SMTP (github.com/wneessen/go-mail)
// and renders its mails from text and HTML templates: the account mails
// (password reset, member invite, address verification) and the
// notification mails (endpoint failing, disabled and recovered, quota
// warning, invoice issued) that package notify sends.
//
// The SMTP server is named by one URL (FERRY_SMTP_URL):
//
//	smtp://user:pass@host:587            STARTTLS required (the default)
//	smtp://host:25?tls=opportunistic     STARTTLS when offered
//	smtp://127.0.0.1:19025?tls=none      plain (a local mail catcher)
//	smtps://user:pass@host:465           implicit TLS
//
// Loopback hosts default to tls=none, so the local mail catcher started
// by scripts/mail.sh works without options.
package email
