package load

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"time"
)

// mailAPI is the local mail catcher's HTTP API (scripts/mail.sh prints
// FERRY_TEST_MAIL_API; this is its default).
func mailAPI() string {
	if v := os.Getenv("FERRY_TEST_MAIL_API"); v != "" {
		return v
	}
	return "http://127.0.0.1:19026"
}

// mailedToken waits up to 15 s for a mail to to with a link to page and
// returns the link's token.
func mailedToken(ctx context.Context, to, page string) (string, error) {
	re := regexp.MustCompile(`/` + regexp.QuoteMeta(page) + `#token=([A-Za-z0-9_-]+)`)
	api := mailAPI()
	deadline := time.Now().Add(15 * time.Second)
	for {
		var found struct {
			Messages []struct {
				ID string `json:"ID"`
			} `json:"messages"`
		}
		if err := getJSON(ctx, api+"/api/v1/search?query="+url.QueryEscape(`to:"`+to+`"`), &found); err != nil {
			return "", fmt.Errorf("read the mail catcher at %s (start it: eval \"$(bash scripts/mail.sh start)\"): %w", api, err)
		}
		for _, m := range found.Messages {
			var full struct {
				Text string `json:"Text"`
			}
			if err := getJSON(ctx, api+"/api/v1/message/"+m.ID, &full); err != nil {
				return "", err
			}
			if sub := re.FindStringSubmatch(full.Text); sub != nil {
				return sub[1], nil
			}
		}
		if time.Now().After(deadline) {
			return "", fmt.Errorf("no %s mail to %s within 15 s (is Ferry's FERRY_SMTP_URL the mail catcher's?)", page, to)
		}
		select {
		case <-ctx.Done():
			return "", ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// getJSON decodes the JSON answer of GET u into out (a 200 only).
func getJSON(ctx context.Context, u string, out any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return err
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("GET %s: %s", u, res.Status)
	}
	return json.NewDecoder(res.Body).Decode(out)
}
