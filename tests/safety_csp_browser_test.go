package tests

import (
	"context"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/ferry-dev/ferry/frontend"
)

// TestPortalRunsUnderCSP loads the built portal in headless Chromium with
// the Content-Security-Policy Ferry sends, and checks that the app
// renders (the sign-in page) and the browser reports no CSP violation.
// It needs a built portal (make frontend) and a chromium binary; without
// them it is skipped.
func TestPortalRunsUnderCSP(t *testing.T) {
	t.Parallel()
	if !frontend.Built() {
		t.Skip("portal not built (make frontend)")
	}
	browser := ""
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			browser = p
			break
		}
	}
	if browser == "" {
		t.Skip("no chromium to load the portal in")
	}
	f := startFerry(t, testConfig(t))
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, browser, "--headless=new", "--no-sandbox", "--disable-gpu",
		"--user-data-dir="+t.TempDir(), "--enable-logging=stderr", "--v=0", "--virtual-time-budget=5000",
		"--dump-dom", f.URL+"/login").CombinedOutput()
	if err != nil {
		t.Fatalf("chromium: %v\n%s", err, out)
	}
	text := string(out)
	if strings.Contains(text, "Content Security Policy") || strings.Contains(text, "Refused to") {
		t.Errorf("CSP violations while loading the portal:\n%s", text)
	}
	if !strings.Contains(text, "<form") {
		t.Errorf("the portal did not render a sign-in form:\n%.3000s", text)
	}
}
