package httpapi

import (
	"context"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ferry-dev/ferry"
	"github.com/ferry-dev/ferry/delivery"
)

// recordedRequests is a RequestObserver that keeps what it is told.
type recordedRequests struct {
	mu   sync.Mutex
	seen []observedRequest
}

type observedRequest struct {
	route, method string
	status        int
}

func (r *recordedRequests) ObserveRequest(route, method string, status int, elapsed time.Duration) {
	if elapsed < 0 {
		panic("negative duration")
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.seen = append(r.seen, observedRequest{route, method, status})
}

func (r *recordedRequests) last() observedRequest {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.seen[len(r.seen)-1]
}

// Every request is counted under its route template, never its path,
// with the status the client got, errors answered by middleware or the
// error handler included.
func TestRequestMetricsLabelRouteTemplates(t *testing.T) {
	b := setup(t)
	b.events.EventFunc = func(context.Context, uuid.UUID, uuid.UUID) (delivery.EventDetail, error) {
		return delivery.EventDetail{}, ferry.NotFound("event")
	}
	id := uuid.NewString()
	for _, tc := range []struct {
		method, path, cred string
		want               observedRequest
	}{
		{"GET", "/api/v1/events/" + id, adminKey, observedRequest{"/api/v1/events/:id", "GET", http.StatusNotFound}},
		{"GET", "/api/v1/events/" + id, "", observedRequest{"/api/v1/events/:id", "GET", http.StatusUnauthorized}},
		{"GET", "/api/v1/no-such-route/" + id, adminKey, observedRequest{unmatchedRoute, "GET", http.StatusNotFound}},
		{"GET", "/healthz", "", observedRequest{"/healthz", "GET", http.StatusOK}},
	} {
		res := b.do(t, tc.method, tc.path, tc.cred, "")
		require.Equal(t, tc.want.status, res.status, "%s %s", tc.method, tc.path)
		assert.Equal(t, tc.want, b.requests.last(), "%s %s", tc.method, tc.path)
	}
}
