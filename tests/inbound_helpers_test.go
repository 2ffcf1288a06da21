package tests

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"net/http"
	"testing"
	"time"
)

// ingestResponse is a provider's view of an answer from an ingest URL.
type ingestResponse struct {
	StatusCode int
	Header     http.Header
	Body       []byte
}

// postIngest sends body to an ingest URL with headers, as a provider would.
func postIngest(t *testing.T, url string, body []byte, headers map[string]string) ingestResponse {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	res, err := (&http.Client{Timeout: 30 * time.Second}).Do(req)
	if err != nil {
		t.Fatalf("POST %s: %v", url, err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatalf("read answer of %s: %v", url, err)
	}
	return ingestResponse{StatusCode: res.StatusCode, Header: res.Header, Body: b}
}

// githubSignature is GitHub's X-Hub-Signature-256 of body.
func githubSignature(secret string, body []byte) string {
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write(body)
	return "sha256=" + hex.EncodeToString(mac.Sum(nil))
}

// signedGitHubPost sends body as GitHub does, signed with secret, plus
// headers.
func signedGitHubPost(t *testing.T, url, secret string, body []byte, headers map[string]string) ingestResponse {
	t.Helper()
	h := map[string]string{"Content-Type": "application/json", "X-Hub-Signature-256": githubSignature(secret, body),
		"X-GitHub-Event": "push"}
	for k, v := range headers {
		h[k] = v
	}
	return postIngest(t, url, body, h)
}
