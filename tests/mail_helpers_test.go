package tests

import (
	"encoding/json"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/ferry-dev/ferry/tests/testenv"
)

// The mail catcher (mailpit, started by scripts/mail.sh and `make test`)
// receives every mail Ferry sends in tests; tests read it through its HTTP
// API, as a user reads their inbox, and follow the links.

const mailCatcherHelp = `no mail catcher: tests that follow emailed links read them from mailpit.
Start it and export its addresses with
    eval "$(bash scripts/mail.sh start)"
(make test does this), which sets FERRY_TEST_SMTP_URL and FERRY_TEST_MAIL_API.`

// mailAPI returns the catcher's HTTP API base, failing the test with how
// to start it when there is none.
func mailAPI(t *testing.T) string {
	t.Helper()
	api := os.Getenv("FERRY_TEST_MAIL_API")
	if api == "" || os.Getenv("FERRY_TEST_SMTP_URL") == "" {
		t.Fatal(mailCatcherHelp)
	}
	res, err := http.Get(api + "/api/v1/info")
	if err != nil || res.StatusCode != 200 {
		t.Fatalf("mail catcher at %s does not answer (%v)\n%s", api, err, mailCatcherHelp)
	}
	res.Body.Close()
	return api
}

// caughtMail is one message as the catcher shows it.
type caughtMail struct {
	ID      string    `json:"ID"`
	Subject string    `json:"Subject"`
	Created time.Time `json:"Created"`
	Text    string    `json:"Text"`
	HTML    string    `json:"HTML"`
	From    struct {
		Address string `json:"Address"`
	} `json:"From"`
}

func getJSON(t *testing.T, u string, out any) {
	t.Helper()
	res, err := http.Get(u)
	if err != nil {
		t.Fatalf("GET %s: %v", u, err)
	}
	defer res.Body.Close()
	if res.StatusCode != 200 {
		t.Fatalf("GET %s: %d", u, res.StatusCode)
	}
	if err := json.NewDecoder(res.Body).Decode(out); err != nil {
		t.Fatalf("decode %s: %v", u, err)
	}
}

// mailsTo returns the mails to address, newest first, with their bodies.
func mailsTo(t *testing.T, address string) []caughtMail {
	t.Helper()
	api := mailAPI(t)
	var list struct {
		Messages []caughtMail `json:"messages"`
	}
	getJSON(t, api+"/api/v1/search?limit=50&query="+url.QueryEscape(`to:"`+address+`"`), &list)
	out := make([]caughtMail, 0, len(list.Messages))
	for _, m := range list.Messages {
		var full caughtMail
		getJSON(t, api+"/api/v1/message/"+m.ID, &full)
		out = append(out, full)
	}
	return out
}

// linkRE finds Ferry's emailed links.
var linkRE = regexp.MustCompile(`https?://[^\s"<>]+#token=[A-Za-z0-9_-]+`)

// mailedLinks waits for at least one mail to address carrying a link that
// starts with prefix (e.g. f.URL+"/reset-password#token=") and returns
// the links and their mails, newest first. The catcher keeps mail across
// runs and parallel tests, so links are told apart by the app's own URL.
func mailedLinks(t *testing.T, address, prefix string) ([]string, []caughtMail) {
	t.Helper()
	var links []string
	var mails []caughtMail
	testenv.Eventually(t, 15*time.Second, func() bool {
		links, mails = nil, nil
		for _, m := range mailsTo(t, address) {
			for _, l := range linkRE.FindAllString(m.Text, -1) {
				if strings.HasPrefix(l, prefix) {
					links = append(links, l)
					mails = append(mails, m)
					break
				}
			}
		}
		return len(links) > 0
	}, "no mail to %s with a link %s… arrived", address, prefix)
	return links, mails
}

// tokenOf returns the token in an emailed link.
func tokenOf(link string) string {
	_, tok, _ := strings.Cut(link, "#token=")
	return tok
}

// acceptInvite follows the newest invite link mailed to email and sets
// password, returning the signed-in client.
func acceptInvite(t *testing.T, f *ferry, email, password string) *client {
	t.Helper()
	links, _ := mailedLinks(t, email, f.URL+"/accept-invite#token=")
	c := newClient(t, f.URL+"/api/v1")
	for _, l := range links {
		if c.do("POST", "/auth/invites/accept", map[string]string{"token": tokenOf(l), "password": password}, nil) == 200 {
			return c
		}
	}
	t.Fatalf("no invite link mailed to %s worked", email)
	return nil
}
