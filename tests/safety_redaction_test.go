package tests

import (
	"net"
	"strings"
	"testing"
)

// closedPort returns a loopback port nothing listens on, so attempts to
// it fail with an error that quotes the endpoint URL.
func closedPort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	_, port, _ := net.SplitHostPort(l.Addr().String())
	l.Close()
	return port
}

// TestRedactionForViewersAndStaff: a receiver authenticates Ferry with an
// Authorization header and a ?token= in the URL; its delivery fails, so
// the attempt's error message quotes the URL. A viewer and support staff
// read every route that shows the endpoint or its attempts and never see
// either credential; the owner and the API key see both.
func TestRedactionForViewersAndStaff(t *testing.T) {
	t.Parallel()
	f := startFerry(t, testConfig(t))
	owner, key := signUp(t, f, "ann@redact.example")
	tid := tenantID(t, owner)
	viewer := addMember(t, f, tid, "vic@redact.example", "viewer")
	admin := addMember(t, f, tid, "ada@redact.example", "admin")
	staff := staffClient(t, f, "sam@ferry.example")

	const headerSecret, querySecret = "hdr-credential-8f2a", "qry-credential-7c1d"
	var ep idOnly
	key.must(201, "POST", "/endpoints", map[string]any{
		"url":     "http://127.0.0.1:" + closedPort(t) + "/hook?token=" + querySecret,
		"headers": map[string]string{"Authorization": "Bearer " + headerSecret}}, &ep)
	var ev idOnly
	key.must(202, "POST", "/events", map[string]any{"type": "redact.test", "data": map[string]int{"n": 1}}, &ev)
	attempts := waitAttempts(t, key, ev.ID, 1)
	// The attempt really failed with the URL in its message: otherwise
	// the test below would prove nothing about error messages.
	var full struct {
		Data []attemptOut `json:"data"`
	}
	key.must(200, "GET", "/events/"+ev.ID+"/attempts", nil, &full)
	if len(attempts) == 0 || !strings.Contains(full.Data[0].ErrorMessage, querySecret) {
		t.Fatalf("attempt error message does not quote the URL: %+v", full.Data)
	}

	routes := []string{"/endpoints", "/endpoints/" + ep.ID, "/endpoints/" + ep.ID + "/attempts",
		"/events/" + ev.ID, "/events/" + ev.ID + "/attempts"}
	for _, who := range []struct {
		name string
		c    *client
		sees bool
	}{{"owner", owner, true}, {"admin", admin, true}, {"api key", key, true}, {"viewer", viewer, false}} {
		for _, path := range routes {
			r := who.c.raw("GET", path, nil, nil)
			if r.Status != 200 {
				t.Fatalf("%s GET %s: %d %s", who.name, path, r.Status, r.Body)
			}
			body := string(r.Body)
			for _, secret := range []string{headerSecret, querySecret} {
				if strings.Contains(body, secret) && !who.sees {
					t.Errorf("%s GET %s shows %q: %s", who.name, path, secret, body)
				}
			}
			if !who.sees && path != "/events/"+ev.ID && !strings.Contains(body, "[redacted]") {
				t.Errorf("%s GET %s: no [redacted] marker: %s", who.name, path, body)
			}
			// People read the URL: the marker is literal, not percent-escaped.
			if !who.sees && strings.HasPrefix(path, "/endpoints") && !strings.HasSuffix(path, "/attempts") && !strings.Contains(body, "/hook?token=[redacted]") {
				t.Errorf("%s GET %s: URL token not shown as [redacted]: %s", who.name, path, body)
			}
			if strings.Contains(body, "%5Bredacted%5D") {
				t.Errorf("%s GET %s: escaped marker: %s", who.name, path, body)
			}
			if who.sees && strings.Contains(path, "endpoints") && !strings.Contains(body, querySecret) {
				t.Errorf("%s GET %s hides the URL token: %s", who.name, path, body)
			}
		}
	}

	for _, path := range []string{"/staff/tenants/" + tid, "/staff/tenants/" + tid + "/events/" + ev.ID} {
		r := staff.raw("GET", path, nil, nil)
		if r.Status != 200 {
			t.Fatalf("staff GET %s: %d %s", path, r.Status, r.Body)
		}
		for _, secret := range []string{headerSecret, querySecret} {
			if strings.Contains(string(r.Body), secret) {
				t.Errorf("staff GET %s shows %q: %s", path, secret, r.Body)
			}
		}
		if !strings.Contains(string(r.Body), "/hook?token=[redacted]") || strings.Contains(string(r.Body), "%5Bredacted%5D") {
			t.Errorf("staff GET %s: the URL token does not read [redacted]: %s", path, r.Body)
		}
	}
}

// TestCaptureRedactionForViewers: a provider authenticates itself to an
// ingest URL with a token header (GitLab's X-Gitlab-Token), a secret in
// the query and one in the path. A viewer reads the source's captures and
// sees none of them; an admin sees them all.
func TestCaptureRedactionForViewers(t *testing.T) {
	t.Parallel()
	f := startFerry(t, testConfig(t))
	owner, key := signUp(t, f, "ann@capture-redact.example")
	viewer := addMember(t, f, tenantID(t, owner), "vic@capture-redact.example", "viewer")
	src := createSource(t, key, map[string]any{"name": "gitlab", "verification": map[string]string{"type": "none"},
		"event_type": map[string]string{"value": "gitlab.push"}})
	const headerSecret, querySecret, pathSecret = "glpat-hdr-5e1f", "qry-secret-93ab", "path-secret-1c7d"
	res := postIngest(t, src.IngestURL+"/"+pathSecret+"?access_token="+querySecret+"&sig=x", []byte(`{"object_kind":"push"}`),
		map[string]string{"Content-Type": "application/json", "X-Gitlab-Token": headerSecret, "X-Gitlab-Event": "Push Hook"})
	if res.StatusCode != 200 {
		t.Fatalf("ingest: %d %s", res.StatusCode, res.Body)
	}
	caps := listCaptured(t, key, src.ID, "")
	if len(caps) != 1 {
		t.Fatalf("%d captures", len(caps))
	}
	paths := []string{"/sources/" + src.ID + "/requests", "/sources/" + src.ID + "/requests/" + caps[0].ID}
	for _, who := range []struct {
		name string
		c    *client
		sees bool
	}{{"owner", owner, true}, {"viewer", viewer, false}} {
		for _, p := range paths {
			r := who.c.raw("GET", p, nil, nil)
			if r.Status != 200 {
				t.Fatalf("%s GET %s: %d %s", who.name, p, r.Status, r.Body)
			}
			body := string(r.Body)
			secrets := []string{querySecret, pathSecret}
			if strings.HasSuffix(p, caps[0].ID) {
				secrets = append(secrets, headerSecret) // lists show no headers
			}
			for _, secret := range secrets {
				if strings.Contains(body, secret) != who.sees {
					t.Errorf("%s GET %s: shows %q = %v, want %v", who.name, p, secret, !who.sees, who.sees)
				}
			}
		}
	}
	// The viewer still sees what is no credential.
	d := capturedDetail(t, viewer, src.ID, caps[0].ID)
	if d.Headers["X-Gitlab-Event"] == nil || d.Headers["X-Gitlab-Event"][0] != "Push Hook" || !strings.HasPrefix(d.Query, "access_token=") {
		t.Errorf("viewer's capture lost what is no secret: %v %q", d.Headers, d.Query)
	}
}
