package tests

import (
	"fmt"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"testing"

	"github.com/ferry-dev/ferry/tests/testenv"
)

// The attack on ingest URLs, as it was made: a tenant's source answered
// text/html on the portal's origin, so a page elsewhere could auto-post a
// signed-in user there and the tenant-written page could post them on to
// a second source whose capture kept their session cookie.

const ingestCSPWant = "sandbox; default-src 'none'"

// TestIngestURLsServeNoDocumentsAndKeepNoCookies: a source cannot answer
// HTML; every ingest answer is sandboxed and unsniffable; a capture keeps
// neither the visitor's cookies nor an Authorization its scheme does not
// read.
func TestIngestURLsServeNoDocumentsAndKeepNoCookies(t *testing.T) {
	t.Parallel()
	f := startFerry(t, testConfig(t))
	_, key := signUp(t, f, "in-html@example.com")

	for _, ct := range []string{"text/html", "text/html; charset=utf-8", "image/svg+xml", "application/xhtml+xml",
		"application/javascript", "text/plain\r\nSet-Cookie: x=1"} {
		r := key.raw("POST", "/sources", mustJSON(t, map[string]any{"name": "page", "verification": map[string]string{"type": "none"},
			"event_type": map[string]string{"value": "x.y"}, "response": map[string]any{"content_type": ct, "body": "<form action=/in/x>"}}), nil)
		if r.Status != 422 || !strings.Contains(string(r.Body), "response.content_type") {
			t.Errorf("source answering %q: %d %s", ct, r.Status, r.Body)
		}
	}
	src := createSource(t, key, map[string]any{"name": "xml", "verification": map[string]string{"type": "none"},
		"event_type": map[string]string{"value": "x.y"}, "response": map[string]any{"content_type": "text/xml; charset=utf-8", "body": "<ok/>"}})
	if r := key.raw("PATCH", "/sources/"+src.ID, mustJSON(t, map[string]any{"response": map[string]any{"content_type": "text/html", "body": "<p>"}}), nil); r.Status != 422 {
		t.Errorf("patching a source to answer HTML: %d %s", r.Status, r.Body)
	}

	// A signed-in portal user's browser posts there: it carries their
	// session and CSRF cookies.
	res := postIngest(t, src.IngestURL+"/hook?x=1", []byte(`{"n":1}`), map[string]string{
		"Content-Type":        "application/json",
		"Cookie":              "__Host-ferry_session=stolen-session; __Host-ferry_csrf=stolen-csrf",
		"Authorization":       "Bearer fry_live_not-for-a-capture",
		"Proxy-Authorization": "Basic cHJveHk6c2VjcmV0",
	})
	if res.StatusCode != 200 || string(res.Body) != "<ok/>" || res.Header.Get("Content-Type") != "text/xml; charset=utf-8" {
		t.Fatalf("ingest answer: %d %q %q", res.StatusCode, res.Header.Get("Content-Type"), res.Body)
	}
	caps := listCaptured(t, key, src.ID, "")
	if len(caps) != 1 {
		t.Fatalf("%d captures", len(caps))
	}
	d := capturedDetail(t, key, src.ID, caps[0].ID)
	for _, h := range []string{"Cookie", "Authorization", "Proxy-Authorization"} {
		if v, ok := d.Headers[h]; ok {
			t.Errorf("the capture kept %s: %q", h, v)
		}
	}
	if d.Headers["Content-Type"] == nil {
		t.Errorf("the capture lost its other headers: %v", d.Headers)
	}

	// Every answer of an ingest URL is sandboxed, whatever its status.
	answers := map[string]ingestResponse{
		"accepted":      res,
		"unknown token": postIngest(t, f.URL+"/in/src_unknown", []byte(`{}`), nil),
		"bad method":    doIngest(t, http.MethodDelete, src.IngestURL),
		"handshake":     doIngest(t, http.MethodGet, src.IngestURL+"?hub.challenge=%3Cscript%3E"),
	}
	for name, a := range answers {
		if got := a.Header.Get("Content-Security-Policy"); !strings.HasPrefix(got, ingestCSPWant) {
			t.Errorf("%s (%d): Content-Security-Policy %q", name, a.StatusCode, got)
		}
		if a.Header.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("%s: X-Content-Type-Options %q", name, a.Header.Get("X-Content-Type-Options"))
		}
		if strings.Contains(strings.ToLower(a.Header.Get("Content-Type")), "html") {
			t.Errorf("%s: served as %q", name, a.Header.Get("Content-Type"))
		}
	}
}

// TestIngestOnItsOwnOrigin: with FERRY_INGEST_URL, ingest URLs are served
// on that origin only, and nothing else is: no portal page, no API.
func TestIngestOnItsOwnOrigin(t *testing.T) {
	t.Parallel()
	port := freePort(t)
	cfg := testConfig(t)
	cfg.HTTPAddr = fmt.Sprintf("127.0.0.1:%d", port)
	cfg.PublicURL = fmt.Sprintf("http://127.0.0.1:%d", port)
	cfg.IngestURL = fmt.Sprintf("http://localhost:%d", port)
	f := startFerry(t, cfg)
	_, key := signUp(t, f, "in-origin@example.com")
	src := createSource(t, key, map[string]any{"name": "own origin", "verification": map[string]string{"type": "none"},
		"event_type": map[string]string{"value": "x.y"}})
	if !strings.HasPrefix(src.IngestURL, cfg.IngestURL+"/in/src_") {
		t.Fatalf("ingest URL %q is not on %s", src.IngestURL, cfg.IngestURL)
	}
	if res := postIngest(t, src.IngestURL, []byte(`{}`), map[string]string{"Content-Type": "application/json"}); res.StatusCode != 200 {
		t.Fatalf("ingest on its origin: %d %s", res.StatusCode, res.Body)
	}
	onPortal := strings.Replace(src.IngestURL, cfg.IngestURL, cfg.PublicURL, 1)
	if res := postIngest(t, onPortal, []byte(`{}`), nil); res.StatusCode != 404 {
		t.Errorf("ingest URL on the portal's origin: %d %s", res.StatusCode, res.Body)
	}
	jar, _ := cookiejar.New(nil)
	hc := &http.Client{Jar: jar}
	for _, p := range []string{"/", "/login", "/api/v1/me", "/api/v1/openapi.json"} {
		res, err := hc.Get(cfg.IngestURL + p)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != 404 || strings.Contains(res.Header.Get("Content-Type"), "html") {
			t.Errorf("GET %s on the ingest origin: %d %s", p, res.StatusCode, res.Header.Get("Content-Type"))
		}
	}
	u, _ := url.Parse(cfg.IngestURL)
	if cs := jar.Cookies(u); len(cs) != 0 {
		t.Errorf("the ingest origin set cookies: %v", cs)
	}
	if res, err := http.Get(cfg.IngestURL + "/healthz"); err != nil || res.StatusCode != 200 {
		t.Errorf("health probe on the ingest origin: %v %v", res, err)
	}
}

// doIngest sends a bodiless request to an ingest URL.
func doIngest(t *testing.T, method, u string) ingestResponse {
	t.Helper()
	req, err := http.NewRequest(method, u, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, u, err)
	}
	defer res.Body.Close()
	return ingestResponse{StatusCode: res.StatusCode, Header: res.Header}
}

// TestInboundDedupeOnByDefault: GitHub and Shopify sign no timestamp, so
// a request seen once could be sent again by anyone; their sources
// dedupe on the provider's delivery id unless told otherwise.
func TestInboundDedupeOnByDefault(t *testing.T) {
	t.Parallel()
	f := startFerry(t, testConfig(t))
	_, key := signUp(t, f, "in-dedupe-default@example.com")
	var src struct {
		sourceView
		Dedupe *struct {
			Header string `json:"header"`
		} `json:"dedupe"`
	}
	key.must(201, "POST", "/sources", map[string]any{"name": "gh", "verification": map[string]string{"type": "github", "secret": "gh-secret"},
		"event_type": map[string]string{"header": "X-GitHub-Event"}}, &src)
	if src.Dedupe == nil || src.Dedupe.Header != "X-GitHub-Delivery" {
		t.Fatalf("github source's dedupe: %+v", src.Dedupe)
	}
	body := []byte(`{"ref":"refs/heads/main"}`)
	for i := 0; i < 2; i++ {
		if res := signedGitHubPost(t, src.IngestURL, "gh-secret", body, map[string]string{"X-GitHub-Delivery": "d-1"}); res.StatusCode != 200 {
			t.Fatalf("post %d: %d %s", i, res.StatusCode, res.Body)
		}
	}
	caps := listCaptured(t, key, src.ID, "")
	statuses := map[string]int{}
	for _, c := range caps {
		statuses[c.Status]++
	}
	if statuses["verified"] != 1 || statuses["duplicate"] != 1 {
		t.Errorf("a resent GitHub delivery: %v", statuses)
	}
	var shop struct {
		Dedupe *struct {
			Header string `json:"header"`
		} `json:"dedupe"`
	}
	key.must(201, "POST", "/sources", map[string]any{"name": "shop", "verification": map[string]string{"type": "shopify", "secret": "s"},
		"event_type": map[string]string{"value": "shop.order"}}, &shop)
	if shop.Dedupe == nil || shop.Dedupe.Header != "X-Shopify-Webhook-Id" {
		t.Errorf("shopify source's dedupe: %+v", shop.Dedupe)
	}
}

// TestUnknownCredentialsBoundedPerAddress: every unknown ingest token or
// bearer credential costs a database read, so an address that keeps
// guessing is refused; a credential that worked before still works from
// it (a provider's shared addresses keep delivering to live sources).
func TestUnknownCredentialsBoundedPerAddress(t *testing.T) {
	t.Parallel()
	cfg := testConfig(t)
	cfg.TokenGuessesPerMinute = 5
	f := startFerry(t, cfg)
	_, key := signUp(t, f, "in-guess@example.com")
	src := createSource(t, key, map[string]any{"name": "live", "verification": map[string]string{"type": "none"},
		"event_type": map[string]string{"value": "x.y"}})
	if res := postIngest(t, src.IngestURL, []byte(`{}`), nil); res.StatusCode != 200 {
		t.Fatalf("live source: %d %s", res.StatusCode, res.Body)
	}
	for i := 0; i < 5; i++ {
		if res := postIngest(t, fmt.Sprintf("%s/in/src_guess%d", f.URL, i), []byte(`{}`), nil); res.StatusCode != 404 {
			t.Fatalf("guess %d: %d %s", i, res.StatusCode, res.Body)
		}
	}
	res := postIngest(t, f.URL+"/in/src_guess-next", []byte(`{}`), nil)
	if res.StatusCode != 429 || res.Header.Get("Retry-After") == "" {
		t.Errorf("guess past the budget: %d %q %s", res.StatusCode, res.Header.Get("Retry-After"), res.Body)
	}
	guesser := newClient(t, f.URL+"/api/v1")
	guesser.apiKey = "fry_live_" + strings.Repeat("x", 40)
	if r := guesser.raw("GET", "/endpoints", nil, nil); r.Status != 429 {
		t.Errorf("an API key guess past the budget: %d %s", r.Status, r.Body)
	}
	if res := postIngest(t, src.IngestURL, []byte(`{}`), nil); res.StatusCode != 200 {
		t.Errorf("a live source from the guessing address: %d %s", res.StatusCode, res.Body)
	}
	key.must(200, "GET", "/endpoints", nil, nil)
}

// TestSourcesAndCapturesBoundedByPlan: a tenant has as many sources as
// its plan allows, and its sources store requests only while the month's
// captured bytes last; past them a provider is answered 429 and nothing
// is stored (a flood of forged requests neither). A bystander's source
// keeps capturing.
func TestSourcesAndCapturesBoundedByPlan(t *testing.T) {
	t.Parallel()
	f := startFerry(t, testConfig(t))
	owner, key := signUpLimited(t, f, "in-quota@example.com") // free: 3 sources
	var srcs []sourceView
	for i := 0; i < 3; i++ {
		srcs = append(srcs, createSource(t, key, map[string]any{"name": fmt.Sprintf("s%d", i), "verification": map[string]string{"type": "none"},
			"event_type": map[string]string{"value": "x.y"}}))
	}
	r := key.raw("POST", "/sources", mustJSON(t, map[string]any{"name": "one too many", "verification": map[string]string{"type": "none"},
		"event_type": map[string]string{"value": "x.y"}}), nil)
	if r.Status != 422 || !strings.Contains(string(r.Body), "plan_limit") {
		t.Errorf("a fourth source on the free plan: %d %s", r.Status, r.Body)
	}
	key.must(204, "DELETE", "/sources/"+srcs[2].ID, nil, nil)
	srcs[2] = createSource(t, key, map[string]any{"name": "in its place", "verification": map[string]string{"type": "hmac_sha256", "secret": "s3cret", "header": "X-Signature"},
		"event_type": map[string]string{"value": "x.y"}})

	// 4 KiB of captures a month.
	db := testenv.DB(t, f.Cfg.DatabaseURL)
	if _, err := db.Exec(`INSERT INTO plan_overrides (tenant_id, plan, captured_bytes_per_month, events_per_second)
		SELECT id, plan, 4096, 1000 FROM tenants WHERE id = $1`, tenantID(t, owner)); err != nil {
		t.Fatal(err)
	}
	_, bystander := signUp(t, f, "in-quota-bystander@example.com")
	other := createSource(t, bystander, map[string]any{"name": "bystander", "verification": map[string]string{"type": "none"},
		"event_type": map[string]string{"value": "x.y"}})

	body := []byte(`{"pad":"` + strings.Repeat("p", 900) + `"}`)
	statuses := map[int]int{}
	for i := 0; i < 10; i++ {
		res := postIngest(t, srcs[i%2].IngestURL, body, map[string]string{"Content-Type": "application/json"})
		statuses[res.StatusCode]++
		if res.StatusCode == 429 && (res.Header.Get("Retry-After") == "" || !strings.Contains(string(res.Body), "quota")) {
			t.Errorf("refusal: %q %s", res.Header.Get("Retry-After"), res.Body)
		}
	}
	if statuses[200] < 3 || statuses[200] > 4 || statuses[429] != 10-statuses[200] {
		t.Errorf("10 requests of 1 KiB against 4 KiB a month: %v", statuses)
	}
	// Forged requests past the month's bytes are refused and not stored.
	for i := 0; i < 5; i++ {
		if res := postIngest(t, srcs[2].IngestURL, body, map[string]string{"X-Signature": "forged"}); res.StatusCode != 401 {
			t.Errorf("forged: %d", res.StatusCode)
		}
	}
	stored := 0
	for _, s := range srcs {
		stored += len(listCaptured(t, key, s.ID, ""))
	}
	if stored != statuses[200] {
		t.Errorf("%d captures stored for %d accepted requests", stored, statuses[200])
	}
	for i := 0; i < 10; i++ {
		if res := postIngest(t, other.IngestURL, body, map[string]string{"Content-Type": "application/json"}); res.StatusCode != 200 {
			t.Fatalf("bystander's source: %d %s", res.StatusCode, res.Body)
		}
	}
}

// TestRejectedBodiesAreCut: a forged request is stored to show why it
// failed, with the first 64 KiB of its body, not a whole MiB.
func TestRejectedBodiesAreCut(t *testing.T) {
	t.Parallel()
	f := startFerry(t, testConfig(t))
	_, key := signUp(t, f, "in-rejected-cut@example.com")
	src := createSource(t, key, map[string]any{"name": "signed", "verification": map[string]string{"type": "github", "secret": "gh"},
		"event_type": map[string]string{"value": "x.y"}})
	big := []byte(strings.Repeat("f", 1<<20))
	if res := postIngest(t, src.IngestURL, big, map[string]string{"X-Hub-Signature-256": "sha256=00"}); res.StatusCode != 401 {
		t.Fatalf("forged: %d %s", res.StatusCode, res.Body)
	}
	caps := listCaptured(t, key, src.ID, "rejected")
	if len(caps) != 1 || caps[0].BodySize != 64<<10 || !strings.Contains(caps[0].Reason, "cut to its first 64 KiB of 1 MiB") {
		t.Errorf("rejected capture: %+v", caps)
	}
}
