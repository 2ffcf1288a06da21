package httpapi

import (
	"errors"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/ferry-dev/ferry"
)

func TestTenantLimiter(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 22, 5, 0, 0, 0, time.UTC)
	l := newTenantLimiter(3)
	l.now = func() time.Time { return now }
	a, b := uuid.New(), uuid.New()
	for i := range 3 {
		if err := l.allow(a); err != nil {
			t.Fatalf("request %d refused: %v", i+1, err)
		}
	}
	err := l.allow(a)
	var fe *ferry.Error
	if !errors.As(err, &fe) || fe.Code != ferry.ERATELIMIT || fe.RetryAfterSeconds != 1 {
		t.Fatalf("4th request: %v, want rate_limited with Retry-After 1", err)
	}
	if err := l.allow(b); err != nil {
		t.Errorf("another tenant was limited: %v", err)
	}
	now = now.Add(400 * time.Millisecond) // one token back
	if err := l.allow(a); err != nil {
		t.Errorf("after a refill: %v", err)
	}
	if err := l.allow(a); err == nil {
		t.Error("refill gave more than one token")
	}
	if err := newTenantLimiter(0).allow(a); err != nil {
		t.Errorf("limit 0 must mean unlimited: %v", err)
	}
}
