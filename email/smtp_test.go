package email

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/ferry-dev/ferry/tests/testenv"
	"github.com/google/uuid"
)

// TestSMTPDeliversToTheCatcher sends through go-mail, with SMTP
// authentication, to the local mail catcher and reads the mail back.
func TestSMTPDeliversToTheCatcher(t *testing.T) {
	t.Parallel()
	smtpURL, api := os.Getenv("FERRY_TEST_SMTP_URL"), os.Getenv("FERRY_TEST_MAIL_API")
	if smtpURL == "" || api == "" {
		t.Fatal(`no mail catcher: start it with  eval "$(bash scripts/mail.sh start)"  (make test does), ` +
			"which sets FERRY_TEST_SMTP_URL and FERRY_TEST_MAIL_API")
	}
	u, err := url.Parse(smtpURL)
	if err != nil {
		t.Fatal(err)
	}
	u.User = url.UserPassword("ferry", "any password") // the catcher accepts any login
	cfg, err := ParseSMTPURL(u.String())
	if err != nil {
		t.Fatal(err)
	}
	cfg.From = "Ferry <no-reply@ferry.test>"
	s, err := NewSMTP(cfg)
	if err != nil {
		t.Fatal(err)
	}
	to := "smtp-" + uuid.NewString()[:8] + "@example.com"
	tpl, err := ParseTemplates()
	if err != nil {
		t.Fatal(err)
	}
	acc := &Accounts{Sender: s, Templates: tpl, ResetValidFor: time.Hour}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	link := "https://ferry.example/reset-password#token=t0k"
	if err := acc.PasswordReset(ctx, to, link); err != nil {
		t.Fatalf("send: %v", err)
	}
	var found struct {
		Messages []struct {
			ID      string `json:"ID"`
			Subject string `json:"Subject"`
		} `json:"messages"`
	}
	get := func(path string, out any) {
		res, err := http.Get(api + path)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		if err := json.NewDecoder(res.Body).Decode(out); err != nil {
			t.Fatal(err)
		}
	}
	testenv.Eventually(t, 10*time.Second, func() bool {
		get("/api/v1/search?query="+url.QueryEscape("to:"+to), &found)
		return len(found.Messages) > 0
	}, "no mail to %s at the catcher", to)
	var msg struct {
		Subject string
		Text    string
		HTML    string
	}
	get("/api/v1/message/"+found.Messages[0].ID, &msg)
	if msg.Subject != "Reset your Ferry password" || !strings.Contains(msg.Text, link) || !strings.Contains(msg.HTML, link) {
		t.Errorf("caught mail: %q\n%s\n%s", msg.Subject, msg.Text, msg.HTML)
	}
}
