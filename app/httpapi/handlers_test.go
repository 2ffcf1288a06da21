package httpapi

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/ferry-dev/ferry"
	"github.com/ferry-dev/ferry/delivery"
	"github.com/ferry-dev/ferry/delivery/queue"
	"github.com/ferry-dev/ferry/delivery/replay"
	"github.com/ferry-dev/ferry/tenants"
)

// Handler tests on fakes of the route groups' services: no PostgreSQL, no
// Kafka. They check what the HTTP layer itself decides: who may call a
// route, what reaches the service, and how errors become status + body.

var (
	testTenant = uuid.MustParse("0196a6c2-5b1f-7d3e-9a4b-000000000001")
	testQueue  = uuid.MustParse("0196a6c2-5b1f-7d3e-9a4b-0000000000a1")
	otherQueue = uuid.MustParse("0196a6c2-5b1f-7d3e-9a4b-0000000000a2")
)

// Credentials the fakes know. API keys act as admin; sessions carry the
// member's role.
const (
	adminKey      = "fry_live_admin"
	adminSession  = "session-admin"
	viewerSession = "session-viewer"
	staffSession  = "session-staff"
	queueToken    = "fqc_consumer"
	testCSRF      = "csrf-token"
)

// testBundle is a server on fakes.
type testBundle struct {
	app       *fiber.App
	endpoints *fakeEndpoints
	events    *fakeEvents
	accepted  *fakeCounter
	replays   *fakeReplays
	queues    *fakeQueues
	requests  *recordedRequests
}

func setup(t *testing.T) *testBundle {
	t.Helper()
	principals := map[string]tenants.Principal{
		adminKey:      {Kind: tenants.KindAPIKey, TenantID: testTenant, KeyID: uuid.New(), KeyPrefix: "fry_live_adm", Role: tenants.RoleAdmin},
		adminSession:  {Kind: tenants.KindUser, TenantID: testTenant, UserID: uuid.New(), Email: "admin@example.com", Role: tenants.RoleAdmin},
		viewerSession: {Kind: tenants.KindUser, TenantID: testTenant, UserID: uuid.New(), Email: "viewer@example.com", Role: tenants.RoleViewer},
		staffSession:  {Kind: tenants.KindStaff, UserID: uuid.New(), Email: "staff@ferry.example"},
	}
	lookup := func(cred string) (tenants.Principal, error) {
		p, ok := principals[cred]
		if !ok {
			return tenants.Principal{}, ferry.Errorf(ferry.EUNAUTHORIZED, "unknown credential")
		}
		return p, nil
	}
	auth := &fakeAuth{
		AuthenticateAPIKeyFunc: func(_ context.Context, key string) (tenants.Principal, error) { return lookup(key) },
		RefreshFunc:            func(_ context.Context, p tenants.Principal) (tenants.Principal, error) { return p, nil },
	}
	sessions := &fakeSessions{VerifyFunc: lookup}
	b := &testBundle{endpoints: &fakeEndpoints{}, events: &fakeEvents{}, accepted: &fakeCounter{}, replays: &fakeReplays{},
		queues: &fakeQueues{AuthenticateFunc: func(_ context.Context, tok string) (queue.Scope, error) {
			if tok != queueToken {
				return queue.Scope{}, ferry.Errorf(ferry.EUNAUTHORIZED, "unknown consumer token")
			}
			return queue.Scope{TenantID: testTenant, EndpointID: testQueue, TokenID: uuid.New()}, nil
		}}, requests: &recordedRequests{}}
	b.app = New(Deps{Auth: auth, Sessions: sessions, Endpoints: b.endpoints, Events: b.events, EventsAccepted: b.accepted,
		Replays: b.replays, Queues: b.queues, Requests: b.requests, Log: slog.New(slog.DiscardHandler)})
	return b
}

// response is what a test reads of an answer.
type response struct {
	status int
	header http.Header
	body   []byte
}

// errorOf decodes an error body.
func (r response) errorOf(t *testing.T) errorDetail {
	t.Helper()
	var e errorBody
	require.NoError(t, json.Unmarshal(r.body, &e), "not an error body: %s", r.body)
	return e.Error
}

// do sends a request with the credential cred: an API key or consumer
// token (Bearer), a session (cookie, with the CSRF token), or none ("").
func (b *testBundle) do(t *testing.T, method, path, cred, body string, header ...string) response {
	t.Helper()
	var r io.Reader
	if body != "" {
		r = strings.NewReader(body)
	}
	req := httptest.NewRequest(method, path, r)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	switch {
	case strings.HasPrefix(cred, "session-"):
		req.AddCookie(&http.Cookie{Name: sessionCookie, Value: cred})
		req.AddCookie(&http.Cookie{Name: csrfCookie, Value: testCSRF})
		req.Header.Set(csrfHeader, testCSRF)
	case cred != "":
		req.Header.Set("Authorization", "Bearer "+cred)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	res, err := b.app.Test(req, -1)
	require.NoError(t, err)
	defer res.Body.Close()
	out, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	return response{status: res.StatusCode, header: res.Header, body: out}
}

func TestEndpointRoutesMapServiceErrors(t *testing.T) {
	t.Parallel()
	id := uuid.New()
	for _, tc := range []struct {
		name         string
		method, path string
		body         string
		setup        func(f *fakeEndpoints, calls *int)
		wantStatus   int
		wantCode     string
		wantField    string
		wantCalls    int
	}{
		{name: "get: service not found", method: "GET", path: "/api/v1/endpoints/" + id.String(),
			setup: func(f *fakeEndpoints, calls *int) {
				f.EndpointFunc = func(_ context.Context, tenantID, got uuid.UUID) (delivery.Endpoint, error) {
					*calls++
					if tenantID != testTenant || got != id {
						return delivery.Endpoint{}, fmt.Errorf("called with tenant %s id %s", tenantID, got)
					}
					return delivery.Endpoint{}, ferry.NotFound("endpoint")
				}
			},
			wantStatus: 404, wantCode: ferry.ENOTFOUND, wantCalls: 1},
		{name: "get: malformed id is not found without asking", method: "GET", path: "/api/v1/endpoints/not-a-uuid",
			setup: func(*fakeEndpoints, *int) {}, wantStatus: 404, wantCode: ferry.ENOTFOUND},
		{name: "create: invalid field", method: "POST", path: "/api/v1/endpoints", body: `{"url":"ftp://x"}`,
			setup: func(f *fakeEndpoints, calls *int) {
				f.CreateEndpointFunc = func(_ context.Context, tenantID uuid.UUID, in delivery.EndpointInput) (delivery.Endpoint, string, error) {
					*calls++
					if tenantID != testTenant || in.URL != "ftp://x" {
						return delivery.Endpoint{}, "", fmt.Errorf("called with tenant %s url %q", tenantID, in.URL)
					}
					return delivery.Endpoint{}, "", ferry.Invalid("url", "url must be http or https")
				}
			},
			wantStatus: 422, wantCode: ferry.EINVALID, wantField: "url", wantCalls: 1},
		{name: "create: plan limit", method: "POST", path: "/api/v1/endpoints", body: `{"url":"https://example.com"}`,
			setup: func(f *fakeEndpoints, calls *int) {
				f.CreateEndpointFunc = func(context.Context, uuid.UUID, delivery.EndpointInput) (delivery.Endpoint, string, error) {
					*calls++
					return delivery.Endpoint{}, "", ferry.Errorf(ferry.EPLANLIMIT, "your plan allows 3 endpoints")
				}
			},
			wantStatus: 422, wantCode: ferry.EPLANLIMIT, wantCalls: 1},
		{name: "create: wrong JSON type never reaches the service", method: "POST", path: "/api/v1/endpoints", body: `{"url":5}`,
			setup: func(*fakeEndpoints, *int) {}, wantStatus: 422, wantCode: ferry.EINVALID, wantField: "url"},
		{name: "create: malformed JSON", method: "POST", path: "/api/v1/endpoints", body: `{"url":`,
			setup: func(*fakeEndpoints, *int) {}, wantStatus: 400, wantCode: ferry.EBADREQUEST},
		{name: "update: database unreachable is 503", method: "PATCH", path: "/api/v1/endpoints/" + id.String(), body: `{"enabled":false}`,
			setup: func(f *fakeEndpoints, calls *int) {
				f.UpdateEndpointFunc = func(context.Context, uuid.UUID, uuid.UUID, delivery.EndpointPatch) (delivery.Endpoint, error) {
					*calls++
					return delivery.Endpoint{}, fmt.Errorf("update endpoint: %w", context.DeadlineExceeded)
				}
			},
			wantStatus: 503, wantCode: ferry.EUNAVAILABLE, wantCalls: 1},
		{name: "delete: another error is 500 and hides its cause", method: "DELETE", path: "/api/v1/endpoints/" + id.String(),
			setup: func(f *fakeEndpoints, calls *int) {
				f.DeleteEndpointFunc = func(context.Context, uuid.UUID, uuid.UUID) error {
					*calls++
					return errors.New("pq: relation endpoints_secret does not exist")
				}
			},
			wantStatus: 500, wantCode: ferry.EINTERNAL, wantCalls: 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			b := setup(t)
			calls := 0
			tc.setup(b.endpoints, &calls)
			res := b.do(t, tc.method, tc.path, adminKey, tc.body)
			require.Equal(t, tc.wantStatus, res.status, "body %s", res.body)
			e := res.errorOf(t)
			require.Equal(t, tc.wantCode, e.Code)
			require.Equal(t, tc.wantField, e.Field)
			require.Equal(t, tc.wantCalls, calls, "service calls")
			require.NotContains(t, string(res.body), "endpoints_secret", "an internal error leaks its cause")
			if tc.wantStatus == 503 {
				require.Equal(t, "1", res.header.Get("Retry-After"))
			}
		})
	}
}

func TestEndpointGetAnswersTheServicesEndpoint(t *testing.T) {
	t.Parallel()
	b := setup(t)
	id := uuid.New()
	b.endpoints.EndpointFunc = func(_ context.Context, tenantID, got uuid.UUID) (delivery.Endpoint, error) {
		require.Equal(t, testTenant, tenantID)
		require.Equal(t, id, got)
		return delivery.Endpoint{ID: id, URL: "https://example.com/hooks", Enabled: true}, nil
	}
	res := b.do(t, "GET", "/api/v1/endpoints/"+id.String(), adminKey, "")
	require.Equal(t, 200, res.status, "body %s", res.body)
	var ep struct {
		ID  string `json:"id"`
		URL string `json:"url"`
	}
	require.NoError(t, json.Unmarshal(res.body, &ep))
	require.Equal(t, id.String(), ep.ID)
	require.Equal(t, "https://example.com/hooks", ep.URL)
}

func TestCreateEventValidation(t *testing.T) {
	t.Parallel()
	accepted := delivery.Event{ID: uuid.New(), Type: "invoice.paid", CreatedAt: time.Date(2026, 11, 23, 14, 5, 6, 0, time.UTC)}
	for _, tc := range []struct {
		name   string
		body   string
		header []string
		// ingest answers Ingest; nil: Ingest must not be called.
		ingest       func(in delivery.EventInput) (delivery.Event, bool, error)
		wantStatus   int
		wantCode     string
		wantField    string
		wantKey      string // the idempotency key Ingest must receive
		wantCounted  int
		wantReplayed bool
	}{
		{name: "malformed JSON", body: `{"type":"x",`, wantStatus: 400, wantCode: ferry.EBADREQUEST},
		{name: "empty body", body: ` `, wantStatus: 400, wantCode: ferry.EBADREQUEST},
		{name: "not JSON content", body: `{"type":"x","data":1}`, header: []string{"Content-Type", "text/plain"},
			wantStatus: 400, wantCode: ferry.EBADREQUEST},
		{name: "type of the wrong JSON type", body: `{"type":7,"data":{}}`, wantStatus: 422, wantCode: ferry.EINVALID, wantField: "type"},
		{name: "header and body keys differ", body: `{"type":"x","data":{},"idempotency_key":"a"}`, header: []string{"Idempotency-Key", "b"},
			wantStatus: 422, wantCode: ferry.EINVALID, wantField: "idempotency_key"},
		{name: "the service refuses a field", body: `{"type":"","data":{}}`,
			ingest: func(delivery.EventInput) (delivery.Event, bool, error) {
				return delivery.Event{}, false, ferry.Invalid("type", "type is required")
			},
			wantStatus: 422, wantCode: ferry.EINVALID, wantField: "type"},
		{name: "quota used up", body: `{"type":"x","data":{}}`,
			ingest: func(delivery.EventInput) (delivery.Event, bool, error) {
				return delivery.Event{}, false, &ferry.Error{Code: ferry.EQUOTA, Message: "monthly quota used up", RetryAfterSeconds: 3600}
			},
			wantStatus: 429, wantCode: ferry.EQUOTA},
		{name: "accepted, key from the header", body: `{"type":"invoice.paid","data":{"amount":42}}`, header: []string{"Idempotency-Key", "k-1"},
			ingest:     func(delivery.EventInput) (delivery.Event, bool, error) { return accepted, true, nil },
			wantStatus: 202, wantKey: "k-1", wantCounted: 1},
		{name: "idempotent replay is not counted again", body: `{"type":"invoice.paid","data":{},"idempotency_key":"k-2"}`,
			ingest:     func(delivery.EventInput) (delivery.Event, bool, error) { return accepted, false, nil },
			wantStatus: 202, wantKey: "k-2", wantReplayed: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			b := setup(t)
			var got []delivery.EventInput
			b.events.IngestFunc = func(_ context.Context, tenantID uuid.UUID, in delivery.EventInput) (delivery.Event, bool, error) {
				require.Equal(t, testTenant, tenantID)
				got = append(got, in)
				if tc.ingest == nil {
					return delivery.Event{}, false, errors.New("Ingest called")
				}
				return tc.ingest(in)
			}
			res := b.do(t, "POST", "/api/v1/events", adminKey, tc.body, tc.header...)
			require.Equal(t, tc.wantStatus, res.status, "body %s", res.body)
			require.Equal(t, tc.wantCounted, b.accepted.n, "events counted as accepted")
			require.Equal(t, tc.wantReplayed, res.header.Get("Idempotent-Replayed") == "true")
			if tc.ingest == nil {
				require.Empty(t, got, "Ingest was called")
			} else {
				require.Len(t, got, 1)
				require.Equal(t, tc.wantKey, got[0].IdempotencyKey)
			}
			if tc.wantCode != "" {
				e := res.errorOf(t)
				require.Equal(t, tc.wantCode, e.Code)
				require.Equal(t, tc.wantField, e.Field)
				return
			}
			var out eventAccepted
			require.NoError(t, json.Unmarshal(res.body, &out))
			require.Equal(t, eventAccepted{ID: accepted.ID.String(), Type: "invoice.paid", CreatedAt: "2026-11-23T14:05:06.000Z"}, out)
		})
	}
	t.Run("the quota's Retry-After is sent", func(t *testing.T) {
		t.Parallel()
		b := setup(t)
		b.events.IngestFunc = func(context.Context, uuid.UUID, delivery.EventInput) (delivery.Event, bool, error) {
			return delivery.Event{}, false, &ferry.Error{Code: ferry.EQUOTA, Message: "monthly quota used up", RetryAfterSeconds: 3600}
		}
		res := b.do(t, "POST", "/api/v1/events", adminKey, `{"type":"x","data":{}}`)
		require.Equal(t, "3600", res.header.Get("Retry-After"))
	})
}

func TestReplayEventAuthorization(t *testing.T) {
	t.Parallel()
	eventID, endpointID := uuid.New(), uuid.New()
	path := "/api/v1/events/" + eventID.String() + "/replay"
	for _, tc := range []struct {
		name       string
		cred       string
		body       string
		noCSRF     bool
		wantStatus int
		wantCode   string
		wantActor  string
		wantTarget *uuid.UUID
	}{
		{name: "no credentials", cred: "", wantStatus: 401, wantCode: ferry.EUNAUTHORIZED},
		{name: "unknown API key", cred: "fry_live_nobody", wantStatus: 401, wantCode: ferry.EUNAUTHORIZED},
		{name: "viewer session", cred: viewerSession, wantStatus: 403, wantCode: ferry.EFORBIDDEN},
		{name: "staff session", cred: staffSession, wantStatus: 403, wantCode: ferry.EFORBIDDEN},
		{name: "admin session without the CSRF header", cred: adminSession, noCSRF: true, wantStatus: 403, wantCode: ferry.EFORBIDDEN},
		{name: "admin session", cred: adminSession, wantStatus: 202, wantActor: "admin@example.com"},
		{name: "API key, one endpoint", cred: adminKey, body: `{"endpoint_id":"` + endpointID.String() + `"}`,
			wantStatus: 202, wantActor: "fry_live_adm", wantTarget: &endpointID},
		{name: "API key, malformed endpoint id", cred: adminKey, body: `{"endpoint_id":"nope"}`,
			wantStatus: 422, wantCode: ferry.EINVALID},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			b := setup(t)
			type call struct {
				tenantID, eventID uuid.UUID
				endpointID        *uuid.UUID
				actor             string
			}
			var calls []call
			b.replays.ReplayEventFunc = func(_ context.Context, tenantID, eventID uuid.UUID, endpointID *uuid.UUID, actor string) (replay.ReplayResult, error) {
				calls = append(calls, call{tenantID, eventID, endpointID, actor})
				return replay.ReplayResult{}, nil
			}
			var header []string
			if tc.noCSRF {
				header = []string{csrfHeader, ""}
			}
			res := b.do(t, "POST", path, tc.cred, tc.body, header...)
			require.Equal(t, tc.wantStatus, res.status, "body %s", res.body)
			if tc.wantCode != "" {
				require.Equal(t, tc.wantCode, res.errorOf(t).Code)
				require.Empty(t, calls, "a refused caller reached the service")
				return
			}
			require.Equal(t, []call{{testTenant, eventID, tc.wantTarget, tc.wantActor}}, calls)
		})
	}
}

func TestQueueAckAuthorization(t *testing.T) {
	t.Parallel()
	receipt := "r-1"
	for _, tc := range []struct {
		name       string
		cred       string
		queue      uuid.UUID
		body       string
		ack        func() ([]queue.ReceiptResult, error)
		wantStatus int
		wantCode   string
	}{
		{name: "consumer token of this queue", cred: queueToken, queue: testQueue, body: `{"receipts":["r-1"]}`,
			ack: func() ([]queue.ReceiptResult, error) {
				return []queue.ReceiptResult{{Receipt: receipt, Status: queue.ReceiptAcked}}, nil
			},
			wantStatus: 200},
		{name: "consumer token of another queue", cred: queueToken, queue: otherQueue, body: `{"receipts":["r-1"]}`,
			wantStatus: 404, wantCode: ferry.ENOTFOUND},
		{name: "revoked consumer token", cred: "fqc_revoked", queue: testQueue, body: `{"receipts":["r-1"]}`,
			wantStatus: 401, wantCode: ferry.EUNAUTHORIZED},
		{name: "viewer session", cred: viewerSession, queue: testQueue, body: `{"receipts":["r-1"]}`,
			wantStatus: 403, wantCode: ferry.EFORBIDDEN},
		{name: "API key, the service refuses a receipt", cred: adminKey, queue: testQueue, body: `{"receipts":["r-1"]}`,
			ack: func() ([]queue.ReceiptResult, error) {
				return nil, ferry.Invalid("receipts", "receipt r-1 was not issued by this queue")
			},
			wantStatus: 422, wantCode: ferry.EINVALID},
		{name: "malformed queue id", cred: adminKey, body: `{"receipts":["r-1"]}`, wantStatus: 404, wantCode: ferry.ENOTFOUND},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			b := setup(t)
			var got []queue.AckInput
			b.queues.AckFunc = func(_ context.Context, tenantID, endpointID uuid.UUID, in queue.AckInput) ([]queue.ReceiptResult, error) {
				require.Equal(t, testTenant, tenantID)
				require.Equal(t, tc.queue, endpointID)
				got = append(got, in)
				if tc.ack == nil {
					return nil, errors.New("Ack called")
				}
				return tc.ack()
			}
			q := "not-a-uuid"
			if tc.queue != uuid.Nil {
				q = tc.queue.String()
			}
			res := b.do(t, "POST", "/api/v1/queues/"+q+"/ack", tc.cred, tc.body)
			require.Equal(t, tc.wantStatus, res.status, "body %s", res.body)
			if tc.ack == nil {
				require.Empty(t, got, "a refused caller reached the service")
			} else {
				require.Equal(t, []queue.AckInput{{Receipts: []string{receipt}}}, got)
			}
			if tc.wantCode != "" {
				require.Equal(t, tc.wantCode, res.errorOf(t).Code)
				return
			}
			var out settled
			require.NoError(t, json.Unmarshal(res.body, &out))
			require.Equal(t, settled{Data: []queue.ReceiptResult{{Receipt: receipt, Status: queue.ReceiptAcked}}}, out)
		})
	}
}
