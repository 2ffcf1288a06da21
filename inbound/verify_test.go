package inbound

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"net/http"
	"strconv"
	"testing"
	"time"
)

// Providers' published examples.
const (
	// docs.github.com, "Validating webhook deliveries".
	githubDocSecret = "It's a Secret to Everybody"
	githubDocBody   = "Hello, World!"
	githubDocSig    = "sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17"

	// api.slack.com, "Verifying requests from Slack".
	slackDocSecret = "8f742231b10e8888abcd99yyyzzz85a5"
	slackDocTS     = "1531420618"
	slackDocBody   = "token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&team_domain=testteamnow&channel_id=G8PSS9T3V&channel_name=foobar&user_id=U2CERLKJA&user_name=roadrunner&command=%2Fwebhook-collect&text=&response_url=https%3A%2F%2Fhooks.slack.com%2Fcommands%2FT1DC2JH3J%2F397700885554%2F96rGlfmibIGlgcZRskXaIFfN&trigger_id=398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c"
	slackDocSig    = "v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503"

	// The Standard Webhooks specification's test vector.
	swDocSecret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
	swDocID     = "msg_p5jXN8AQM9LWM0D4loKWxJek"
	swDocTS     = "1614265330"
	swDocBody   = `{"test": 2432232314}`
	swDocSig    = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="
)

// Signers written from the providers' documentation, independently of
// verify.go, so the tests check the schemes rather than echo them.

func stripeHeader(secret string, ts int64, body string) string {
	mac := hmac.New(sha256.New, []byte(secret))
	fmt.Fprintf(mac, "%d.%s", ts, body)
	return fmt.Sprintf("t=%d,v1=%s,v0=%s", ts, hex.EncodeToString(mac.Sum(nil)), "6ffbb59b2300aae63f272406069a9788598b792a944a07aba816edb039989a39")
}

func shopifyHeader(secret, body string) string {
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(body))
	return base64.StdEncoding.EncodeToString(mac.Sum(nil))
}

func slackSig(secret string, ts int64, body string) string {
	mac := hmac.New(sha256.New, []byte(secret))
	fmt.Fprintf(mac, "v0:%d:%s", ts, body)
	return "v0=" + hex.EncodeToString(mac.Sum(nil))
}

func swSig(secret, id string, ts int64, body string) string {
	key, err := base64.StdEncoding.DecodeString(secret[len("whsec_"):])
	if err != nil {
		panic(err)
	}
	mac := hmac.New(sha256.New, key)
	fmt.Fprintf(mac, "%s.%d.%s", id, ts, body)
	return "v1," + base64.StdEncoding.EncodeToString(mac.Sum(nil))
}

func headers(kv ...string) http.Header {
	h := http.Header{}
	for i := 0; i+1 < len(kv); i += 2 {
		h.Set(kv[i], kv[i+1])
	}
	return h
}

func TestVerifySchemes(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	ts := now.Unix()
	old := now.Add(-6 * time.Minute).Unix()
	future := now.Add(6 * time.Minute).Unix()
	body := `{"id":"evt_1","type":"charge.succeeded"}`
	const stripeSecret = "whsec_stripe_test_secret"
	const shopSecret = "shopify-app-secret"
	swSecret := swDocSecret
	generic := Verification{Type: SchemeHMACSHA256, Header: "X-Signature", Encoding: EncodingBase64, Prefix: "hmac "}
	genericSig := func(b string) string {
		mac := hmac.New(sha256.New, []byte("generic-secret"))
		mac.Write([]byte(b))
		return "hmac " + base64.StdEncoding.EncodeToString(mac.Sum(nil))
	}
	basic := func(u, p string) string { return "Basic " + base64.StdEncoding.EncodeToString([]byte(u+":"+p)) }

	for _, tc := range []struct {
		name   string
		v      Verification
		secret string
		h      http.Header
		body   string
		now    time.Time
		ok     bool
	}{
		// GitHub: X-Hub-Signature-256, the published example.
		{"github/published example", Verification{Type: SchemeGitHub}, githubDocSecret, headers("X-Hub-Signature-256", githubDocSig), githubDocBody, now, true},
		{"github/tampered body", Verification{Type: SchemeGitHub}, githubDocSecret, headers("X-Hub-Signature-256", githubDocSig), "Hello, World?", now, false},
		{"github/wrong secret", Verification{Type: SchemeGitHub}, "another secret", headers("X-Hub-Signature-256", githubDocSig), githubDocBody, now, false},
		{"github/missing", Verification{Type: SchemeGitHub}, githubDocSecret, headers(), githubDocBody, now, false},
		{"github/sha1 header only", Verification{Type: SchemeGitHub}, githubDocSecret, headers("X-Hub-Signature", "sha1=0123"), githubDocBody, now, false},

		// Slack: the published example, at its own time and later.
		{"slack/published example", Verification{Type: SchemeSlack}, slackDocSecret,
			headers("X-Slack-Signature", slackDocSig, "X-Slack-Request-Timestamp", slackDocTS), slackDocBody, time.Unix(1531420618, 0).Add(time.Minute), true},
		{"slack/published example expired", Verification{Type: SchemeSlack}, slackDocSecret,
			headers("X-Slack-Signature", slackDocSig, "X-Slack-Request-Timestamp", slackDocTS), slackDocBody, now, false},
		{"slack/valid", Verification{Type: SchemeSlack}, "s", headers("X-Slack-Signature", slackSig("s", ts, body), "X-Slack-Request-Timestamp", strconv.FormatInt(ts, 10)), body, now, true},
		{"slack/tampered", Verification{Type: SchemeSlack}, "s", headers("X-Slack-Signature", slackSig("s", ts, body), "X-Slack-Request-Timestamp", strconv.FormatInt(ts, 10)), body + " ", now, false},
		{"slack/timestamp moved", Verification{Type: SchemeSlack}, "s", headers("X-Slack-Signature", slackSig("s", ts, body), "X-Slack-Request-Timestamp", strconv.FormatInt(ts+1, 10)), body, now, false},
		{"slack/expired", Verification{Type: SchemeSlack}, "s", headers("X-Slack-Signature", slackSig("s", old, body), "X-Slack-Request-Timestamp", strconv.FormatInt(old, 10)), body, now, false},
		{"slack/future", Verification{Type: SchemeSlack}, "s", headers("X-Slack-Signature", slackSig("s", future, body), "X-Slack-Request-Timestamp", strconv.FormatInt(future, 10)), body, now, false},
		{"slack/missing signature", Verification{Type: SchemeSlack}, "s", headers("X-Slack-Request-Timestamp", strconv.FormatInt(ts, 10)), body, now, false},
		{"slack/missing timestamp", Verification{Type: SchemeSlack}, "s", headers("X-Slack-Signature", slackSig("s", ts, body)), body, now, false},

		// Standard Webhooks: the specification's vector, then fresh ones.
		{"standard/published vector", Verification{Type: SchemeStandardWebhooks}, swSecret,
			headers("Webhook-Id", swDocID, "Webhook-Timestamp", swDocTS, "Webhook-Signature", swDocSig), swDocBody, time.Unix(1614265330, 0), true},
		{"standard/published vector expired", Verification{Type: SchemeStandardWebhooks}, swSecret,
			headers("Webhook-Id", swDocID, "Webhook-Timestamp", swDocTS, "Webhook-Signature", swDocSig), swDocBody, now, false},
		{"standard/valid among several", Verification{Type: SchemeStandardWebhooks}, swSecret,
			headers("Webhook-Id", "msg_1", "Webhook-Timestamp", strconv.FormatInt(ts, 10), "Webhook-Signature", "v1,bm9wZQ== "+swSig(swSecret, "msg_1", ts, body)), body, now, true},
		{"standard/tampered", Verification{Type: SchemeStandardWebhooks}, swSecret,
			headers("Webhook-Id", "msg_1", "Webhook-Timestamp", strconv.FormatInt(ts, 10), "Webhook-Signature", swSig(swSecret, "msg_1", ts, body)), body + "x", now, false},
		{"standard/other id", Verification{Type: SchemeStandardWebhooks}, swSecret,
			headers("Webhook-Id", "msg_2", "Webhook-Timestamp", strconv.FormatInt(ts, 10), "Webhook-Signature", swSig(swSecret, "msg_1", ts, body)), body, now, false},
		{"standard/expired", Verification{Type: SchemeStandardWebhooks}, swSecret,
			headers("Webhook-Id", "msg_1", "Webhook-Timestamp", strconv.FormatInt(old, 10), "Webhook-Signature", swSig(swSecret, "msg_1", old, body)), body, now, false},
		{"standard/missing", Verification{Type: SchemeStandardWebhooks}, swSecret,
			headers("Webhook-Id", "msg_1", "Webhook-Timestamp", strconv.FormatInt(ts, 10)), body, now, false},

		// Stripe: t and v1 (several allowed), HMAC of "t.body".
		{"stripe/valid", Verification{Type: SchemeStripe}, stripeSecret, headers("Stripe-Signature", stripeHeader(stripeSecret, ts, body)), body, now, true},
		{"stripe/second v1 matches", Verification{Type: SchemeStripe}, stripeSecret,
			headers("Stripe-Signature", fmt.Sprintf("t=%d,v1=%s,%s", ts, "00ff", stripeHeader(stripeSecret, ts, body)[len(fmt.Sprintf("t=%d,", ts)):])), body, now, true},
		{"stripe/tampered", Verification{Type: SchemeStripe}, stripeSecret, headers("Stripe-Signature", stripeHeader(stripeSecret, ts, body)), body[1:], now, false},
		{"stripe/wrong secret", Verification{Type: SchemeStripe}, "whsec_other", headers("Stripe-Signature", stripeHeader(stripeSecret, ts, body)), body, now, false},
		{"stripe/expired", Verification{Type: SchemeStripe}, stripeSecret, headers("Stripe-Signature", stripeHeader(stripeSecret, old, body)), body, now, false},
		{"stripe/no v1", Verification{Type: SchemeStripe}, stripeSecret, headers("Stripe-Signature", fmt.Sprintf("t=%d,v0=abcd", ts)), body, now, false},
		{"stripe/missing", Verification{Type: SchemeStripe}, stripeSecret, headers(), body, now, false},

		// Shopify: base64 HMAC of the body.
		{"shopify/valid", Verification{Type: SchemeShopify}, shopSecret, headers("X-Shopify-Hmac-Sha256", shopifyHeader(shopSecret, body)), body, now, true},
		{"shopify/tampered", Verification{Type: SchemeShopify}, shopSecret, headers("X-Shopify-Hmac-Sha256", shopifyHeader(shopSecret, body)), body + "\n", now, false},
		{"shopify/hex instead of base64", Verification{Type: SchemeShopify}, shopSecret, headers("X-Shopify-Hmac-Sha256", hex.EncodeToString([]byte("x"))), body, now, false},
		{"shopify/missing", Verification{Type: SchemeShopify}, shopSecret, headers(), body, now, false},

		// Generic HMAC-SHA256 with header, encoding and prefix.
		{"hmac/valid", generic, "generic-secret", headers("X-Signature", genericSig(body)), body, now, true},
		{"hmac/tampered", generic, "generic-secret", headers("X-Signature", genericSig(body)), body + "!", now, false},
		{"hmac/no prefix", generic, "generic-secret", headers("X-Signature", genericSig(body)[len("hmac "):]), body, now, false},
		{"hmac/missing", generic, "generic-secret", headers(), body, now, false},
		{"hmac/github as generic hex", Verification{Type: SchemeHMACSHA256, Header: "X-Hub-Signature-256", Encoding: EncodingHex, Prefix: "sha256="},
			githubDocSecret, headers("X-Hub-Signature-256", githubDocSig), githubDocBody, now, true},

		// Basic auth.
		{"basic/valid", Verification{Type: SchemeBasicAuth, Username: "ferry"}, "p4ss:word", headers("Authorization", basic("ferry", "p4ss:word")), body, now, true},
		{"basic/wrong password", Verification{Type: SchemeBasicAuth, Username: "ferry"}, "p4ss:word", headers("Authorization", basic("ferry", "p4ss:wore")), body, now, false},
		{"basic/wrong user", Verification{Type: SchemeBasicAuth, Username: "ferry"}, "p4ss:word", headers("Authorization", basic("ferryx", "p4ss:word")), body, now, false},
		{"basic/missing", Verification{Type: SchemeBasicAuth, Username: "ferry"}, "p4ss:word", headers(), body, now, false},
		{"basic/bearer", Verification{Type: SchemeBasicAuth, Username: "ferry"}, "p4ss:word", headers("Authorization", "Bearer x"), body, now, false},

		{"none", Verification{Type: SchemeNone}, "", headers(), body, now, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			reason := verifyRequest(tc.v, []byte(tc.secret), tc.h, []byte(tc.body), tc.now)
			if (reason == "") != tc.ok {
				t.Errorf("verified %v (reason %q), want %v", reason == "", reason, tc.ok)
			}
		})
	}
}

// TestVerifyReasons: a failure says which check failed.
func TestVerifyReasons(t *testing.T) {
	t.Parallel()
	now := time.Unix(1531420618, 0).Add(10 * time.Minute)
	got := verifyRequest(Verification{Type: SchemeSlack}, []byte(slackDocSecret),
		headers("X-Slack-Signature", slackDocSig, "X-Slack-Request-Timestamp", slackDocTS), []byte(slackDocBody), now)
	if got != "timestamp outside the 5 minute tolerance" {
		t.Errorf("expired: %q", got)
	}
	if got := verifyRequest(Verification{Type: SchemeGitHub}, []byte("x"), headers(), nil, now); got != "missing X-Hub-Signature-256 header" {
		t.Errorf("missing: %q", got)
	}
	if got := verifyRequest(Verification{Type: SchemeGitHub}, []byte("x"), headers("X-Hub-Signature-256", githubDocSig), nil, now); got != "signature does not match" {
		t.Errorf("tampered: %q", got)
	}
}
