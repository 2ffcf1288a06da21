package inbound

import (
	"crypto/hmac"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/ferry-dev/ferry/delivery/webhook"
)

// Each scheme follows the provider's published algorithm; tests check
// them against the providers' own examples (verify_test.go).

// verifyRequest checks a request with the source's scheme. It returns ""
// when the request is authentic, else why not (kept on the capture).
func verifyRequest(v Verification, secret []byte, h http.Header, body []byte, now time.Time) string {
	switch v.Type {
	case SchemeNone:
		return ""
	case SchemeStandardWebhooks:
		return verifyStandardWebhooks(secret, h, body, now)
	case SchemeStripe:
		return verifyStripe(secret, h.Get("Stripe-Signature"), body, now)
	case SchemeGitHub:
		return verifyHMACHeader(secret, h, "X-Hub-Signature-256", EncodingHex, "sha256=", body)
	case SchemeShopify:
		return verifyHMACHeader(secret, h, "X-Shopify-Hmac-Sha256", EncodingBase64, "", body)
	case SchemeSlack:
		return verifySlack(secret, h, body, now)
	case SchemeHMACSHA256:
		return verifyHMACHeader(secret, h, v.Header, v.Encoding, v.Prefix, body)
	case SchemeBasicAuth:
		return verifyBasicAuth(v.Username, secret, h.Get("Authorization"))
	}
	return "unknown verification scheme"
}

func hmacSHA256(key []byte, parts ...[]byte) []byte {
	mac := hmac.New(sha256.New, key)
	for _, p := range parts {
		mac.Write(p)
	}
	return mac.Sum(nil)
}

// withinTolerance reports whether unix seconds ts is within Tolerance of now.
func withinTolerance(ts int64, now time.Time) bool {
	d := now.Sub(time.Unix(ts, 0))
	return d <= Tolerance && d >= -Tolerance
}

// verifyHMACHeader checks header = prefix + encoding(HMAC-SHA256(secret, body)):
// GitHub (X-Hub-Signature-256: sha256=<hex>), Shopify
// (X-Shopify-Hmac-Sha256: <base64>) and the generic scheme.
func verifyHMACHeader(secret []byte, h http.Header, header string, enc Encoding, prefix string, body []byte) string {
	got := h.Get(header)
	if got == "" {
		return "missing " + header + " header"
	}
	sig, ok := strings.CutPrefix(got, prefix)
	if !ok {
		return header + " does not start with " + strconv.Quote(prefix)
	}
	var decoded []byte
	var err error
	if enc == EncodingBase64 {
		decoded, err = base64.StdEncoding.DecodeString(sig)
	} else {
		decoded, err = hex.DecodeString(sig)
	}
	if err != nil {
		return header + " is not " + string(enc)
	}
	if !hmac.Equal(decoded, hmacSHA256(secret, body)) {
		return "signature does not match"
	}
	return ""
}

// verifyStripe checks Stripe-Signature: t=<unix>,v1=<hex>[,v1=…][,v0=…],
// each v1 an HMAC-SHA256 of "<t>.<body>" with the endpoint secret; t must
// be within Tolerance.
func verifyStripe(secret []byte, header string, body []byte, now time.Time) string {
	if header == "" {
		return "missing Stripe-Signature header"
	}
	var ts int64 = -1
	var sigs [][]byte
	for _, item := range strings.Split(header, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(item), "=")
		if !ok {
			continue
		}
		switch k {
		case "t":
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				return "Stripe-Signature has a malformed timestamp"
			}
			ts = n
		case "v1":
			if b, err := hex.DecodeString(v); err == nil {
				sigs = append(sigs, b)
			}
		}
	}
	if ts < 0 {
		return "Stripe-Signature has no timestamp"
	}
	if len(sigs) == 0 {
		return "Stripe-Signature has no v1 signature"
	}
	want := hmacSHA256(secret, strconv.AppendInt(nil, ts, 10), []byte{'.'}, body)
	matched := false
	for _, s := range sigs {
		if hmac.Equal(s, want) {
			matched = true
		}
	}
	if !matched {
		return "signature does not match"
	}
	// Checked after the signature, so an old but authentic request says so.
	if !withinTolerance(ts, now) {
		return "timestamp outside the 5 minute tolerance"
	}
	return ""
}

// verifySlack checks X-Slack-Signature: v0=<hex HMAC-SHA256 of
// "v0:<X-Slack-Request-Timestamp>:<body>">, the timestamp within Tolerance.
func verifySlack(secret []byte, h http.Header, body []byte, now time.Time) string {
	sig, tsText := h.Get("X-Slack-Signature"), h.Get("X-Slack-Request-Timestamp")
	if sig == "" {
		return "missing X-Slack-Signature header"
	}
	if tsText == "" {
		return "missing X-Slack-Request-Timestamp header"
	}
	ts, err := strconv.ParseInt(tsText, 10, 64)
	if err != nil {
		return "X-Slack-Request-Timestamp is not a number"
	}
	hexSig, ok := strings.CutPrefix(sig, "v0=")
	if !ok {
		return "X-Slack-Signature is not a v0 signature"
	}
	got, err := hex.DecodeString(hexSig)
	if err != nil {
		return "X-Slack-Signature is not hex"
	}
	if !hmac.Equal(got, hmacSHA256(secret, []byte("v0:"+tsText+":"), body)) {
		return "signature does not match"
	}
	if !withinTolerance(ts, now) {
		return "timestamp outside the 5 minute tolerance"
	}
	return ""
}

// verifyStandardWebhooks checks webhook-id, webhook-timestamp and
// webhook-signature (space-separated v1,<base64>) with a whsec_ secret,
// as Ferry's own receivers do.
func verifyStandardWebhooks(secret []byte, h http.Header, body []byte, now time.Time) string {
	id, tsText, sig := h.Get("Webhook-Id"), h.Get("Webhook-Timestamp"), h.Get("Webhook-Signature")
	switch {
	case id == "":
		return "missing webhook-id header"
	case tsText == "":
		return "missing webhook-timestamp header"
	case sig == "":
		return "missing webhook-signature header"
	}
	ts, err := strconv.ParseInt(tsText, 10, 64)
	if err != nil {
		return "webhook-timestamp is not a number"
	}
	key, err := webhook.SecretKey(string(secret))
	if err != nil {
		return "the source's secret is not a whsec_ secret"
	}
	if !webhook.Verify(key, id, ts, body, sig) {
		return "signature does not match"
	}
	if !withinTolerance(ts, now) {
		return "timestamp outside the 5 minute tolerance"
	}
	return ""
}

// verifyBasicAuth compares credentials in constant time: both sides are
// hashed first, so neither the length nor a prefix of the secret leaks.
func verifyBasicAuth(username string, password []byte, header string) string {
	enc, ok := strings.CutPrefix(header, "Basic ")
	if !ok {
		return "missing basic Authorization header"
	}
	raw, err := base64.StdEncoding.DecodeString(strings.TrimSpace(enc))
	if err != nil {
		return "Authorization is not valid base64"
	}
	u, p, _ := strings.Cut(string(raw), ":")
	gotU, wantU := sha256.Sum256([]byte(u)), sha256.Sum256([]byte(username))
	gotP, wantP := sha256.Sum256([]byte(p)), sha256.Sum256(password)
	okU := subtle.ConstantTimeCompare(gotU[:], wantU[:])
	okP := subtle.ConstantTimeCompare(gotP[:], wantP[:])
	if okU&okP != 1 {
		return "wrong username or password"
	}
	return ""
}
