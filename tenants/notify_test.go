package tenants

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ferry-dev/ferry/tests/testenv"
)

// fakeNotifier records the links mailed to each address.
type fakeNotifier struct {
	mu    sync.Mutex
	links map[string][]string
}

var _ Notifier = (*fakeNotifier)(nil)

func (f *fakeNotifier) record(to, link string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.links == nil {
		f.links = map[string][]string{}
	}
	f.links[to] = append(f.links[to], link)
	return nil
}

func (f *fakeNotifier) PasswordReset(_ context.Context, to, link string) error {
	return f.record(to, link)
}
func (f *fakeNotifier) MemberInvite(_ context.Context, to, _, _, link string) error {
	return f.record(to, link)
}
func (f *fakeNotifier) VerifyAddress(_ context.Context, to, link string) error {
	return f.record(to, link)
}
func (f *fakeNotifier) FinishSignup(_ context.Context, to, _, link string) error {
	return f.record(to, link)
}
func (f *fakeNotifier) InvitedWithAccount(_ context.Context, to, _, _ string) error {
	return f.record(to, "invited-with-account#token=notice")
}
func (f *fakeNotifier) AccountExists(_ context.Context, to, signIn, _ string) error {
	return f.record(to, signIn+"#token=account-exists")
}

// token returns the token of the newest link to page (reset-password,
// accept-invite, verify-email) mailed to to, waiting briefly for the
// background send.
func (f *fakeNotifier) token(t *testing.T, to, page string) string {
	t.Helper()
	var token string
	testenv.Eventually(t, 5*time.Second, func() bool {
		f.mu.Lock()
		links := slices.Clone(f.links[to])
		f.mu.Unlock()
		for _, l := range slices.Backward(links) {
			if _, tok, ok := strings.Cut(l, "/"+page+"#token="); ok {
				token = tok
				return true
			}
		}
		return false
	}, "no %s mail to %s", page, to)
	return token
}

// count returns how many mails went to to.
func (f *fakeNotifier) count(to string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.links[to])
}
