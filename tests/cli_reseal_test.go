package tests

import (
	"bytes"
	"encoding/base64"
	"regexp"
	"strings"
	"testing"

	"github.com/ferry-dev/ferry/app"
)

// ferry reseal moves every stored secret to a new master key, opening
// the old ones with FERRY_OTHER_MASTER_KEYS; a Ferry with only the new
// key then signs, verifies and reveals as before, and the old key alone
// no longer opens them.
func TestCLIResealRotatesTheMasterKey(t *testing.T) {
	t.Parallel()
	cfg := testConfig(t)
	f := startFerry(t, cfg)
	_, key := signUp(t, f, "rotate@example.com")
	var ep endpointCreated
	key.must(201, "POST", "/endpoints", map[string]any{"url": "http://127.0.0.1:1/hook"}, &ep)
	src := createSource(t, key, map[string]any{"name": "GitHub", "verification": map[string]string{"type": "github", "secret": "gh-secret"},
		"event_type": map[string]string{"value": "github.push"}})
	// An idempotent creation's answer is stored sealed, the new
	// endpoint's secret in it.
	idem := map[string]string{"Idempotency-Key": "rotate-1"}
	second := mustJSON(t, map[string]any{"url": "http://127.0.0.1:1/second"})
	first := key.raw("POST", "/endpoints", second, idem)
	if first.Status != 201 {
		t.Fatalf("idempotent creation: %d %s", first.Status, first.Body)
	}

	oldKey, newKey := cfg.MasterKey, bytes.Repeat([]byte{9}, 32)
	b64 := base64.StdEncoding.EncodeToString
	env := map[string]string{"FERRY_DATABASE_URL": cfg.DatabaseURL, "FERRY_MASTER_KEY": b64(newKey), "FERRY_OTHER_MASTER_KEYS": b64(oldKey)}
	out, errOut, code := runCLI(t, env, "reseal")
	if code != 0 {
		t.Fatalf("reseal: exit %d\n%s%s", code, out, errOut)
	}
	for _, want := range []string{`endpoint signing secrets +2 resealed`, `source tokens and secrets +2 resealed`,
		`idempotent answers +1 resealed`, `every stored secret is sealed with FERRY_MASTER_KEY`} {
		if !regexp.MustCompile(want).MatchString(out) {
			t.Errorf("reseal output lacks %q:\n%s", want, out)
		}
	}
	if out, _, code := runCLI(t, env, "reseal"); code != 0 || !regexp.MustCompile(`endpoint signing secrets +0 resealed`).MatchString(out) {
		t.Errorf("a second reseal: exit %d\n%s", code, out)
	}

	// A replica with the new key alone.
	rotated := cfg
	rotated.MasterKey, rotated.OtherMasterKeys = newKey, nil
	rotated.Roles = map[string]bool{app.RoleAPI: true}
	f2 := startFerry(t, rotated)
	key2 := newClient(t, f2.URL+"/api/v1")
	key2.apiKey = key.apiKey
	var sec struct {
		Secret string `json:"secret"`
	}
	key2.must(200, "GET", "/endpoints/"+ep.ID+"/secret", nil, &sec)
	if sec.Secret != ep.Secret {
		t.Errorf("the endpoint's secret under the new key is %q, want %q", sec.Secret, ep.Secret)
	}
	if again := key2.raw("POST", "/endpoints", second, idem); again.Status != 201 || !bytes.Equal(again.Body, first.Body) {
		t.Errorf("the idempotent creation retried under the new key: %d %s, want the first answer %s", again.Status, again.Body, first.Body)
	}
	// The ingest URL shows the token, sealed too; each replica names its
	// own address.
	var shown sourceView
	key2.must(200, "GET", "/sources/"+src.ID, nil, &shown)
	ingest := strings.Replace(src.IngestURL, f.URL, f2.URL, 1)
	if shown.IngestURL != ingest {
		t.Errorf("the source's ingest URL under the new key is %q, want %q", shown.IngestURL, ingest)
	}
	body := []byte(`{"ref":"refs/heads/main"}`)
	if res := signedGitHubPost(t, ingest, "gh-secret", body, nil); res.StatusCode != 200 {
		t.Errorf("a request signed with the source's secret, verified under the new key: %d %s", res.StatusCode, res.Body)
	}
	if res := signedGitHubPost(t, ingest, "another-secret", body, nil); res.StatusCode != 401 {
		t.Errorf("a request signed with another secret: %d %s", res.StatusCode, res.Body)
	}

	// The old key alone opens nothing now: reseal says so and fails.
	old := map[string]string{"FERRY_DATABASE_URL": cfg.DatabaseURL, "FERRY_MASTER_KEY": b64(oldKey)}
	out, errOut, code = runCLI(t, old, "reseal")
	if code != 1 || !strings.Contains(out, "opened with none of the keys") || !strings.Contains(errOut, "FERRY_OTHER_MASTER_KEYS") {
		t.Errorf("reseal with the old key alone: exit %d\n%s%s", code, out, errOut)
	}
	if _, errOut, code := runCLI(t, map[string]string{"FERRY_DATABASE_URL": cfg.DatabaseURL, "FERRY_MASTER_KEY": b64(newKey),
		"FERRY_OTHER_MASTER_KEYS": "not-a-key"}, "reseal"); code != 1 || !strings.Contains(errOut, "FERRY_OTHER_MASTER_KEYS (key 1)") {
		t.Errorf("reseal with a malformed other key: exit %d %s", code, errOut)
	}
}
