package email

import (
	"strings"
	"testing"
	"time"
)

func TestParseSMTPURL(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want SMTPConfig
		bad  bool
	}{
		{in: "smtp://127.0.0.1:19025", want: SMTPConfig{Host: "127.0.0.1", Port: 19025, TLS: TLSNone}},
		{in: "smtp://u:p%40ss@mail.example.com", want: SMTPConfig{Host: "mail.example.com", Port: 587, Username: "u", Password: "p@ss", TLS: TLSStartTLS}},
		{in: "smtp://mail.example.com:25?tls=opportunistic", want: SMTPConfig{Host: "mail.example.com", Port: 25, TLS: TLSOpportunistic}},
		{in: "smtps://u:p@mail.example.com", want: SMTPConfig{Host: "mail.example.com", Port: 465, Username: "u", Password: "p", TLS: TLSImplicit}},
		{in: "smtp://localhost:1025?tls=starttls", want: SMTPConfig{Host: "localhost", Port: 1025, TLS: TLSStartTLS}},
		{in: "http://mail.example.com", bad: true},
		{in: "smtp://:25", bad: true},
		{in: "smtp://mail.example.com:99999", bad: true},
		{in: "smtp://mail.example.com?tls=maybe", bad: true},
	}
	for _, tt := range tests {
		got, err := ParseSMTPURL(tt.in)
		if tt.bad {
			if err == nil {
				t.Errorf("%s: accepted as %+v", tt.in, got)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("%s: %+v, %v; want %+v", tt.in, got, err, tt.want)
		}
	}
}

func TestTemplatesCarryTheLink(t *testing.T) {
	t.Parallel()
	tpl, err := ParseTemplates()
	if err != nil {
		t.Fatal(err)
	}
	link := "https://ferry.example/accept-invite#token=abc&x=<y>"
	m, err := tpl.Render(MailMemberInvite, Data{To: "vic@example.com", Subject: "Join <Acme> on Ferry", Link: link,
		Action: "Accept", ValidFor: humanDuration(7 * 24 * time.Hour), Organization: "<Acme>", Inviter: "ann@example.com"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(m.Text, link) || !strings.Contains(m.Text, "7 days") || !strings.Contains(m.Text, "ann@example.com") {
		t.Errorf("text body:\n%s", m.Text)
	}
	if !strings.Contains(m.HTML, "&lt;Acme&gt;") || strings.Contains(m.HTML, "<Acme>") {
		t.Errorf("html body does not escape the organisation:\n%s", m.HTML)
	}
	if !strings.Contains(m.HTML, `href="https://ferry.example/accept-invite#token=abc&amp;x=%3cy%3e"`) {
		t.Errorf("html body lacks the link:\n%s", m.HTML)
	}
	for _, name := range []string{MailPasswordReset, MailVerifyAddress, MailFinishSignup, MailAccountExists} {
		if m, err := tpl.Render(name, Data{To: "a@example.com", Link: "https://x/y#token=t", ValidFor: "1 hour"}); err != nil ||
			!strings.Contains(m.Text, "https://x/y#token=t") || !strings.Contains(m.HTML, "https://x/y#token=t") {
			t.Errorf("%s: %v\n%s", name, err, m.Text)
		}
	}
}
