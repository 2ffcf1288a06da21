package tests

import (
	"bytes"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/ferry-dev/ferry/tests/testenv"
)

// TestInboundChecksSchemas: a source's events meet their type's schema
// in the tenant's catalog. In reject mode a request whose data does not
// match is answered as any capture (resending would not change it), kept
// as refused with the failing path, never forwarded, and its replay is
// refused with 422 until the schema allows it; matching data is
// forwarded. A hostile tenant's pathological schema costs its own
// requests a bounded check, and a bystander's source is served and
// forwarded as ever.
func TestInboundChecksSchemas(t *testing.T) {
	t.Parallel()
	f := startFerry(t, testConfig(t))
	_, key := signUp(t, f, "in-schema@example.com")
	_, hostile := signUp(t, f, "in-schema-hostile@example.com")
	_, bystander := signUp(t, f, "in-schema-bystander@example.com")

	got := newReceiver(t, nil)
	key.must(201, "POST", "/endpoints", map[string]any{"url": got.URL + "/hook", "format": "raw"}, nil)
	key.must(201, "POST", "/event-types", map[string]any{"name": "github.push", "validation": "reject",
		"schema": map[string]any{"type": "object", "required": []string{"ref"}, "properties": map[string]any{"ref": map[string]any{"type": "string"}}}}, nil)
	src := createSource(t, key, map[string]any{"name": "GitHub", "verification": map[string]string{"type": "github", "secret": "s3cret"},
		"event_type": map[string]string{"value": "github.push"}})

	bad, good := []byte(`{"ref":42}`), []byte(`{"ref":"refs/heads/main"}`)
	for _, body := range [][]byte{bad, good} {
		if res := signedGitHubPost(t, src.IngestURL, "s3cret", body, nil); res.StatusCode != 200 || string(res.Body) != "{}" {
			t.Fatalf("ingest of %s: %d %s", body, res.StatusCode, res.Body)
		}
	}
	testenv.Eventually(t, 30*time.Second, func() bool { return len(got.requests()) == 1 }, "the matching request was not forwarded")
	time.Sleep(300 * time.Millisecond) // nothing more arrives
	if reqs := got.requests(); len(reqs) != 1 || string(reqs[0].Body) != string(good) {
		t.Fatalf("forwarded %d requests, want only the matching one", len(reqs))
	}
	refused := listCaptured(t, key, src.ID, "refused")
	if len(refused) != 1 || refused[0].EventID != nil || !strings.Contains(refused[0].Reason, "schema at data/ref") {
		t.Fatalf("refused captures: %+v", refused)
	}
	res := key.raw("POST", "/sources/"+src.ID+"/requests/"+refused[0].ID+"/replay", nil, nil)
	if res.Status != 422 || res.apiError(t).Error.Field != "data/ref" {
		t.Fatalf("replay of the refused capture: %d %s", res.Status, res.Body)
	}
	// Once the type no longer rejects, the replay forwards it.
	key.must(200, "PATCH", "/event-types/github.push", map[string]any{"validation": "off"}, nil)
	testenv.Eventually(t, 30*time.Second, func() bool {
		return key.raw("POST", "/sources/"+src.ID+"/requests/"+refused[0].ID+"/replay", nil, nil).Status == 202
	}, "the replay was still refused after the type stopped rejecting")
	testenv.Eventually(t, 30*time.Second, func() bool { return len(got.requests()) == 2 }, "the replayed capture was not forwarded")

	// The hostile tenant's schema doubles its work at every level of
	// nesting; each of its requests stops at the check's budget.
	bomb := map[string]any{"type": "object", "required": []string{"a"}, "properties": map[string]any{
		"a": map[string]any{"anyOf": []any{map[string]any{"$ref": "#"}, map[string]any{"$ref": "#"}, map[string]any{"type": "string"}}}}}
	hostile.must(201, "POST", "/event-types", map[string]any{"name": "bomb.nested", "validation": "reject", "schema": bomb}, nil)
	hsrc := createSource(t, hostile, map[string]any{"name": "bomb", "verification": map[string]string{"type": "github", "secret": "h"},
		"event_type": map[string]string{"value": "bomb.nested"}})
	bystanderGot := newReceiver(t, nil)
	bystander.must(201, "POST", "/endpoints", map[string]any{"url": bystanderGot.URL + "/hook", "format": "raw"}, nil)
	bsrc := createSource(t, bystander, map[string]any{"name": "GitHub", "verification": map[string]string{"type": "github", "secret": "b"},
		"event_type": map[string]string{"value": "bomb.nested"}})

	deep := []byte(strings.Repeat(`{"a":`, 60) + `0` + strings.Repeat(`}`, 60))
	hostileDone := make(chan string, 1)
	go func() {
		var failed []string
		for range 5 {
			req, _ := http.NewRequest(http.MethodPost, hsrc.IngestURL, bytes.NewReader(deep))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("X-Hub-Signature-256", githubSignature("h", deep))
			start := time.Now()
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				failed = append(failed, err.Error())
				continue
			}
			res.Body.Close()
			if res.StatusCode != 200 || time.Since(start) > 5*time.Second {
				failed = append(failed, fmt.Sprintf("%d after %s", res.StatusCode, time.Since(start)))
			}
		}
		hostileDone <- strings.Join(failed, "; ")
	}()
	for i := range 20 {
		body := []byte(`{"n":` + strings.Repeat("1", i+1) + `}`)
		if res := signedGitHubPost(t, bsrc.IngestURL, "b", body, nil); res.StatusCode != 200 {
			t.Fatalf("the bystander's request %d: %d %s", i, res.StatusCode, res.Body)
		}
	}
	if failed := <-hostileDone; failed != "" {
		t.Errorf("the hostile tenant's requests: %s", failed)
	}
	testenv.Eventually(t, 30*time.Second, func() bool { return len(bystanderGot.requests()) == 20 },
		"the bystander's requests were not all forwarded")
	if r := listCaptured(t, hostile, hsrc.ID, "refused"); len(r) != 5 || !strings.Contains(r[0].Reason, "too costly") {
		t.Fatalf("the hostile tenant's captures: %+v", r)
	}
}
