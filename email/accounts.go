package email

import (
	"bytes"
	"context"
	"embed"
	"fmt"
	htmltemplate "html/template"
	"strings"
	texttemplate "text/template"
	"time"
)

//go:embed templates
var templateFS embed.FS

// Templates renders the account mails. Each mail has a text and an HTML
// template under templates/ (name.txt, name.html inside layout.html).
type Templates struct {
	text map[string]*texttemplate.Template
	html map[string]*htmltemplate.Template
}

// Mail names.
const (
	MailPasswordReset      = "password_reset"
	MailMemberInvite       = "member_invite"
	MailVerifyAddress      = "verify_address"
	MailFinishSignup       = "finish_signup"
	MailAccountExists      = "account_exists"
	MailInvitedWithAccount = "invited_with_account"

	MailEndpointFailing   = "endpoint_failing"
	MailEndpointDisabled  = "endpoint_disabled"
	MailEndpointRecovered = "endpoint_recovered"
	MailQuotaWarning      = "quota_warning"
	MailInvoiceIssued     = "invoice_issued"
)

// ParseTemplates parses the embedded templates.
func ParseTemplates() (*Templates, error) {
	t := &Templates{text: map[string]*texttemplate.Template{}, html: map[string]*htmltemplate.Template{}}
	for _, name := range []string{MailPasswordReset, MailMemberInvite, MailVerifyAddress, MailFinishSignup, MailAccountExists, MailInvitedWithAccount,
		MailEndpointFailing, MailEndpointDisabled, MailEndpointRecovered, MailQuotaWarning, MailInvoiceIssued} {
		txt, err := texttemplate.ParseFS(templateFS, "templates/"+name+".txt")
		if err != nil {
			return nil, fmt.Errorf("parse %s.txt: %w", name, err)
		}
		html, err := htmltemplate.ParseFS(templateFS, "templates/layout.html", "templates/"+name+".html")
		if err != nil {
			return nil, fmt.Errorf("parse %s.html: %w", name, err)
		}
		t.text[name], t.html[name] = txt, html
	}
	return t, nil
}

// Data is what the templates see.
type Data struct {
	To           string
	Subject      string
	Link         string
	Action       string // the HTML button's label
	SecondLink   string // a further link, plain (account_exists: password reset)
	ValidFor     string // e.g. "1 hour"
	Organization string
	Inviter      string

	// Notification mails.
	EndpointURL string
	Reason      string
	Since       string // when an endpoint started failing, formatted
	Percent     int    // quota threshold crossed: 80 or 100
	Used, Limit int64
	Period      string // "2026-11"
	Amount      string // an invoice's total, formatted with its currency
}

// Render builds the mail name for d.
func (t *Templates) Render(name string, d Data) (Message, error) {
	txt, html := t.text[name], t.html[name]
	if txt == nil || html == nil {
		return Message{}, fmt.Errorf("no mail template %q", name)
	}
	var tb, hb bytes.Buffer
	if err := txt.Execute(&tb, d); err != nil {
		return Message{}, fmt.Errorf("render %s text: %w", name, err)
	}
	if err := html.ExecuteTemplate(&hb, "layout", d); err != nil {
		return Message{}, fmt.Errorf("render %s html: %w", name, err)
	}
	return Message{To: d.To, Subject: d.Subject, Text: tb.String(), HTML: hb.String()}, nil
}

// Accounts sends the account mails through a Sender; it satisfies
// tenants.Notifier.
type Accounts struct {
	Sender    Sender
	Templates *Templates
	// ResetValidFor, InviteValidFor and VerifyValidFor are how long the
	// links work, as the mails state them.
	ResetValidFor, InviteValidFor, VerifyValidFor time.Duration
}

func (a *Accounts) send(ctx context.Context, name string, d Data) error {
	m, err := a.Templates.Render(name, d)
	if err != nil {
		return err
	}
	return a.Sender.Send(ctx, m)
}

// PasswordReset mails a password-reset link.
func (a *Accounts) PasswordReset(ctx context.Context, to, link string) error {
	return a.send(ctx, MailPasswordReset, Data{To: to, Subject: "Reset your Ferry password", Link: link,
		Action: "Choose a new password", ValidFor: humanDuration(a.ResetValidFor)})
}

// MemberInvite mails an invitation to join an organisation.
func (a *Accounts) MemberInvite(ctx context.Context, to, organization, inviter, link string) error {
	return a.send(ctx, MailMemberInvite, Data{To: to, Subject: "Join " + organization + " on Ferry", Link: link,
		Action: "Accept the invitation", ValidFor: humanDuration(a.InviteValidFor), Organization: organization,
		Inviter: inviter})
}

// VerifyAddress mails an address-verification link.
func (a *Accounts) VerifyAddress(ctx context.Context, to, link string) error {
	return a.send(ctx, MailVerifyAddress, Data{To: to, Subject: "Confirm your email address for Ferry", Link: link,
		Action: "Confirm my address", ValidFor: humanDuration(a.VerifyValidFor)})
}

// FinishSignup mails the link that finishes a sign-up.
func (a *Accounts) FinishSignup(ctx context.Context, to, organization, link string) error {
	return a.send(ctx, MailFinishSignup, Data{To: to, Subject: "Finish signing up for Ferry", Link: link,
		Action: "Create my account", ValidFor: humanDuration(a.VerifyValidFor), Organization: organization})
}

// AccountExists tells an account holder that their address was used to
// sign up again.
func (a *Accounts) AccountExists(ctx context.Context, to, signInLink, resetLink string) error {
	return a.send(ctx, MailAccountExists, Data{To: to, Subject: "You already have a Ferry account", Link: signInLink,
		Action: "Sign in to Ferry", SecondLink: resetLink})
}

// InvitedWithAccount tells an account holder that an organisation
// invited their address, which cannot join it.
func (a *Accounts) InvitedWithAccount(ctx context.Context, to, organization, inviter string) error {
	return a.send(ctx, MailInvitedWithAccount, Data{To: to, Subject: inviter + " invited you to " + organization + " on Ferry",
		Organization: organization, Inviter: inviter})
}

// humanDuration says d in whole days, hours or minutes.
func humanDuration(d time.Duration) string {
	unit := func(n int, what string) string {
		if n == 1 {
			return "1 " + what
		}
		return fmt.Sprintf("%d %ss", n, what)
	}
	switch {
	case d >= 48*time.Hour && d%(24*time.Hour) == 0:
		return unit(int(d/(24*time.Hour)), "day")
	case d >= time.Hour:
		return unit(int(d/time.Hour), "hour")
	default:
		return unit(max(1, int(d/time.Minute)), "minute")
	}
}

// LogSender does not send: it logs that a mail was dropped (no SMTP
// server configured). Bodies are never logged: they hold one-time links.
type LogSender struct {
	Log interface {
		WarnContext(ctx context.Context, msg string, args ...any)
	}
}

var _ Sender = LogSender{}

// Send logs the dropped mail's recipient domain and subject.
func (l LogSender) Send(ctx context.Context, m Message) error {
	_, domain, _ := strings.Cut(m.To, "@")
	l.Log.WarnContext(ctx, "mail not sent: FERRY_SMTP_URL is not set", "to_domain", domain, "subject", m.Subject)
	return nil
}
