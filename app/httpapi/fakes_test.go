package httpapi

import (
	"context"
	"time"

	"github.com/google/uuid"

	"github.com/ferry-dev/ferry/delivery"
	"github.com/ferry-dev/ferry/delivery/model"
	"github.com/ferry-dev/ferry/delivery/queue"
	"github.com/ferry-dev/ferry/delivery/replay"
	"github.com/ferry-dev/ferry/page"
	"github.com/ferry-dev/ferry/tenants"
)

// Fakes of the services the route groups call, for handler tests without
// PostgreSQL. Each method calls its …Func field; a test sets the ones it
// expects to be called (any other call panics on the nil func).

var (
	_ AuthService     = (*fakeAuth)(nil)
	_ SessionTokens   = (*fakeSessions)(nil)
	_ EndpointService = (*fakeEndpoints)(nil)
	_ EventService    = (*fakeEvents)(nil)
	_ EventCounter    = (*fakeCounter)(nil)
	_ ReplayService   = (*fakeReplays)(nil)
	_ QueueService    = (*fakeQueues)(nil)
)

type fakeAuth struct {
	SignupFunc             func(ctx context.Context, in tenants.SignupInput, clientAddr string) error
	FinishSignupFunc       func(ctx context.Context, token, password string) (tenants.Principal, error)
	LoginFunc              func(ctx context.Context, in tenants.LoginInput) (tenants.Principal, error)
	StartSessionFunc       func(ctx context.Context, p tenants.Principal, ttl time.Duration) (tenants.Principal, error)
	EndSessionFunc         func(ctx context.Context, p tenants.Principal) error
	RefreshFunc            func(ctx context.Context, p tenants.Principal) (tenants.Principal, error)
	AuthenticateAPIKeyFunc func(ctx context.Context, key string) (tenants.Principal, error)
	EmailVerifiedFunc      func(ctx context.Context, p tenants.Principal) (bool, error)
	TOTPEnrolledFunc       func(ctx context.Context, p tenants.Principal) (bool, error)
	TenantFunc             func(ctx context.Context, id uuid.UUID) (tenants.Tenant, error)
}

func (f *fakeAuth) Signup(ctx context.Context, in tenants.SignupInput, clientAddr string) error {
	return f.SignupFunc(ctx, in, clientAddr)
}

func (f *fakeAuth) FinishSignup(ctx context.Context, token, password string) (tenants.Principal, error) {
	return f.FinishSignupFunc(ctx, token, password)
}

func (f *fakeAuth) Login(ctx context.Context, in tenants.LoginInput) (tenants.Principal, error) {
	return f.LoginFunc(ctx, in)
}

func (f *fakeAuth) StartSession(ctx context.Context, p tenants.Principal, ttl time.Duration) (tenants.Principal, error) {
	return f.StartSessionFunc(ctx, p, ttl)
}

func (f *fakeAuth) EndSession(ctx context.Context, p tenants.Principal) error {
	return f.EndSessionFunc(ctx, p)
}

func (f *fakeAuth) Refresh(ctx context.Context, p tenants.Principal) (tenants.Principal, error) {
	return f.RefreshFunc(ctx, p)
}

func (f *fakeAuth) AuthenticateAPIKey(ctx context.Context, key string) (tenants.Principal, error) {
	return f.AuthenticateAPIKeyFunc(ctx, key)
}

func (f *fakeAuth) EmailVerified(ctx context.Context, p tenants.Principal) (bool, error) {
	return f.EmailVerifiedFunc(ctx, p)
}

func (f *fakeAuth) TOTPEnrolled(ctx context.Context, p tenants.Principal) (bool, error) {
	return f.TOTPEnrolledFunc(ctx, p)
}

func (f *fakeAuth) Tenant(ctx context.Context, id uuid.UUID) (tenants.Tenant, error) {
	return f.TenantFunc(ctx, id)
}

type fakeSessions struct {
	IssueFunc  func(p tenants.Principal) (string, error)
	TTLFunc    func() time.Duration
	VerifyFunc func(token string) (tenants.Principal, error)
}

func (f *fakeSessions) Issue(p tenants.Principal) (string, error) { return f.IssueFunc(p) }

func (f *fakeSessions) TTL() time.Duration { return f.TTLFunc() }

func (f *fakeSessions) Verify(token string) (tenants.Principal, error) { return f.VerifyFunc(token) }

type fakeEndpoints struct {
	CreateEndpointFunc   func(ctx context.Context, tenantID uuid.UUID, in delivery.EndpointInput) (delivery.Endpoint, string, error)
	ListEndpointsFunc    func(ctx context.Context, tenantID uuid.UUID, f delivery.EndpointFilter, pg page.Request) ([]delivery.Endpoint, string, error)
	EndpointFunc         func(ctx context.Context, tenantID, id uuid.UUID) (delivery.Endpoint, error)
	UpdateEndpointFunc   func(ctx context.Context, tenantID, id uuid.UUID, patch delivery.EndpointPatch) (delivery.Endpoint, error)
	DeleteEndpointFunc   func(ctx context.Context, tenantID, id uuid.UUID) error
	SecretFunc           func(ctx context.Context, tenantID, id uuid.UUID) (delivery.SecretInfo, error)
	RotateSecretFunc     func(ctx context.Context, tenantID, id uuid.UUID) (delivery.SecretInfo, error)
	EndpointAttemptsFunc func(ctx context.Context, tenantID, endpointID uuid.UUID, outcome string, pg page.Request) ([]model.Attempt, string, error)
	TestRoutingFunc      func(ctx context.Context, tenantID, endpointID uuid.UUID, in delivery.RoutingTestInput, vis delivery.Visibility) (delivery.RoutingTestResult, error)
	SendTestEventFunc    func(ctx context.Context, tenantID, id uuid.UUID, sample *delivery.TestSample) (delivery.Event, error)
	CustomerHealthFunc   func(ctx context.Context, tenantID uuid.UUID, uids []string) (map[string]delivery.EndpointHealth, error)
}

func (f *fakeEndpoints) CreateEndpoint(ctx context.Context, tenantID uuid.UUID, in delivery.EndpointInput) (delivery.Endpoint, string, error) {
	return f.CreateEndpointFunc(ctx, tenantID, in)
}

func (f *fakeEndpoints) ListEndpoints(ctx context.Context, tenantID uuid.UUID, ef delivery.EndpointFilter, pg page.Request) ([]delivery.Endpoint, string, error) {
	return f.ListEndpointsFunc(ctx, tenantID, ef, pg)
}

func (f *fakeEndpoints) Endpoint(ctx context.Context, tenantID, id uuid.UUID) (delivery.Endpoint, error) {
	return f.EndpointFunc(ctx, tenantID, id)
}

func (f *fakeEndpoints) UpdateEndpoint(ctx context.Context, tenantID, id uuid.UUID, patch delivery.EndpointPatch) (delivery.Endpoint, error) {
	return f.UpdateEndpointFunc(ctx, tenantID, id, patch)
}

func (f *fakeEndpoints) DeleteEndpoint(ctx context.Context, tenantID, id uuid.UUID) error {
	return f.DeleteEndpointFunc(ctx, tenantID, id)
}

func (f *fakeEndpoints) Secret(ctx context.Context, tenantID, id uuid.UUID) (delivery.SecretInfo, error) {
	return f.SecretFunc(ctx, tenantID, id)
}

func (f *fakeEndpoints) RotateSecret(ctx context.Context, tenantID, id uuid.UUID) (delivery.SecretInfo, error) {
	return f.RotateSecretFunc(ctx, tenantID, id)
}

func (f *fakeEndpoints) EndpointAttempts(ctx context.Context, tenantID, endpointID uuid.UUID, outcome string, pg page.Request) ([]model.Attempt, string, error) {
	return f.EndpointAttemptsFunc(ctx, tenantID, endpointID, outcome, pg)
}

func (f *fakeEndpoints) TestRouting(ctx context.Context, tenantID, endpointID uuid.UUID, in delivery.RoutingTestInput, vis delivery.Visibility) (delivery.RoutingTestResult, error) {
	return f.TestRoutingFunc(ctx, tenantID, endpointID, in, vis)
}

func (f *fakeEndpoints) SendTestEvent(ctx context.Context, tenantID, id uuid.UUID, sample *delivery.TestSample) (delivery.Event, error) {
	return f.SendTestEventFunc(ctx, tenantID, id, sample)
}

func (f *fakeEndpoints) CustomerEndpointHealth(ctx context.Context, tenantID uuid.UUID, uids []string) (map[string]delivery.EndpointHealth, error) {
	return f.CustomerHealthFunc(ctx, tenantID, uids)
}

type fakeEvents struct {
	IngestFunc         func(ctx context.Context, tenantID uuid.UUID, in delivery.EventInput) (delivery.Event, bool, error)
	ListEventsFunc     func(ctx context.Context, tenantID uuid.UUID, f delivery.EventFilter, pg page.Request) ([]delivery.Event, string, error)
	WithDeliveriesFunc func(ctx context.Context, tenantID uuid.UUID, events []delivery.Event) ([]delivery.EventDetail, error)
	EventFunc          func(ctx context.Context, tenantID, id uuid.UUID) (delivery.EventDetail, error)
	EventAttemptsFunc  func(ctx context.Context, tenantID, eventID uuid.UUID) ([]model.Attempt, error)
}

func (f *fakeEvents) Ingest(ctx context.Context, tenantID uuid.UUID, in delivery.EventInput) (delivery.Event, bool, error) {
	return f.IngestFunc(ctx, tenantID, in)
}

func (f *fakeEvents) ListEvents(ctx context.Context, tenantID uuid.UUID, filter delivery.EventFilter, pg page.Request) ([]delivery.Event, string, error) {
	return f.ListEventsFunc(ctx, tenantID, filter, pg)
}

func (f *fakeEvents) WithDeliveries(ctx context.Context, tenantID uuid.UUID, events []delivery.Event) ([]delivery.EventDetail, error) {
	return f.WithDeliveriesFunc(ctx, tenantID, events)
}

func (f *fakeEvents) Event(ctx context.Context, tenantID, id uuid.UUID) (delivery.EventDetail, error) {
	return f.EventFunc(ctx, tenantID, id)
}

func (f *fakeEvents) EventAttempts(ctx context.Context, tenantID, eventID uuid.UUID) ([]model.Attempt, error) {
	return f.EventAttemptsFunc(ctx, tenantID, eventID)
}

// fakeCounter counts Inc calls.
type fakeCounter struct{ n int }

func (f *fakeCounter) Inc() { f.n++ }

type fakeReplays struct {
	ReplayEventFunc     func(ctx context.Context, tenantID, eventID uuid.UUID, endpointID *uuid.UUID, actor string) (replay.ReplayResult, error)
	ReplayDeliveryFunc  func(ctx context.Context, tenantID, deliveryID uuid.UUID, actor string) (replay.ReplayResult, error)
	CreateReplayJobFunc func(ctx context.Context, tenantID uuid.UUID, f replay.ReplayFilter, actor, reason string) (replay.ReplayJob, error)
	PreviewReplayFunc   func(ctx context.Context, tenantID uuid.UUID, f replay.ReplayFilter) (replay.ReplayPreview, error)
	ListReplayJobsFunc  func(ctx context.Context, tenantID uuid.UUID, pg page.Request) ([]replay.ReplayJob, string, error)
	ReplayJobFunc       func(ctx context.Context, tenantID, id uuid.UUID) (replay.ReplayJob, error)
	CancelReplayJobFunc func(ctx context.Context, tenantID, id uuid.UUID) (replay.ReplayJob, error)
}

func (f *fakeReplays) ReplayEvent(ctx context.Context, tenantID, eventID uuid.UUID, endpointID *uuid.UUID, actor string) (replay.ReplayResult, error) {
	return f.ReplayEventFunc(ctx, tenantID, eventID, endpointID, actor)
}

func (f *fakeReplays) ReplayDelivery(ctx context.Context, tenantID, deliveryID uuid.UUID, actor string) (replay.ReplayResult, error) {
	return f.ReplayDeliveryFunc(ctx, tenantID, deliveryID, actor)
}

func (f *fakeReplays) CreateReplayJob(ctx context.Context, tenantID uuid.UUID, filter replay.ReplayFilter, actor, reason string) (replay.ReplayJob, error) {
	return f.CreateReplayJobFunc(ctx, tenantID, filter, actor, reason)
}

func (f *fakeReplays) PreviewReplay(ctx context.Context, tenantID uuid.UUID, filter replay.ReplayFilter) (replay.ReplayPreview, error) {
	return f.PreviewReplayFunc(ctx, tenantID, filter)
}

func (f *fakeReplays) ListReplayJobs(ctx context.Context, tenantID uuid.UUID, pg page.Request) ([]replay.ReplayJob, string, error) {
	return f.ListReplayJobsFunc(ctx, tenantID, pg)
}

func (f *fakeReplays) ReplayJob(ctx context.Context, tenantID, id uuid.UUID) (replay.ReplayJob, error) {
	return f.ReplayJobFunc(ctx, tenantID, id)
}

func (f *fakeReplays) CancelReplayJob(ctx context.Context, tenantID, id uuid.UUID) (replay.ReplayJob, error) {
	return f.CancelReplayJobFunc(ctx, tenantID, id)
}

type fakeQueues struct {
	AuthenticateFunc func(ctx context.Context, tok string) (queue.Scope, error)
	PullFunc         func(ctx context.Context, tenantID, endpointID uuid.UUID, in queue.PullInput) ([]queue.Message, error)
	AckFunc          func(ctx context.Context, tenantID, endpointID uuid.UUID, in queue.AckInput) ([]queue.ReceiptResult, error)
	NackFunc         func(ctx context.Context, tenantID, endpointID uuid.UUID, in queue.NackInput) ([]queue.ReceiptResult, error)
	RejectFunc       func(ctx context.Context, tenantID, endpointID uuid.UUID, in queue.RejectInput) ([]queue.ReceiptResult, error)
	StatsFunc        func(ctx context.Context, tenantID, endpointID uuid.UUID) (queue.Stats, error)
	OpenStreamFunc   func(ctx context.Context, tenantID, endpointID uuid.UUID, visibilitySeconds int) (*queue.Stream, error)
	DoneFunc         func() <-chan struct{}
	CreateTokenFunc  func(ctx context.Context, tenantID, endpointID uuid.UUID, in queue.TokenInput) (queue.ConsumerToken, string, error)
	TokensFunc       func(ctx context.Context, tenantID, endpointID uuid.UUID) ([]queue.ConsumerToken, error)
	RevokeTokenFunc  func(ctx context.Context, tenantID, endpointID, tokenID uuid.UUID) error
}

func (f *fakeQueues) Authenticate(ctx context.Context, tok string) (queue.Scope, error) {
	return f.AuthenticateFunc(ctx, tok)
}

func (f *fakeQueues) Pull(ctx context.Context, tenantID, endpointID uuid.UUID, in queue.PullInput) ([]queue.Message, error) {
	return f.PullFunc(ctx, tenantID, endpointID, in)
}

func (f *fakeQueues) Ack(ctx context.Context, tenantID, endpointID uuid.UUID, in queue.AckInput) ([]queue.ReceiptResult, error) {
	return f.AckFunc(ctx, tenantID, endpointID, in)
}

func (f *fakeQueues) Nack(ctx context.Context, tenantID, endpointID uuid.UUID, in queue.NackInput) ([]queue.ReceiptResult, error) {
	return f.NackFunc(ctx, tenantID, endpointID, in)
}

func (f *fakeQueues) Reject(ctx context.Context, tenantID, endpointID uuid.UUID, in queue.RejectInput) ([]queue.ReceiptResult, error) {
	return f.RejectFunc(ctx, tenantID, endpointID, in)
}

func (f *fakeQueues) Stats(ctx context.Context, tenantID, endpointID uuid.UUID) (queue.Stats, error) {
	return f.StatsFunc(ctx, tenantID, endpointID)
}

func (f *fakeQueues) OpenStream(ctx context.Context, tenantID, endpointID uuid.UUID, visibilitySeconds int) (*queue.Stream, error) {
	return f.OpenStreamFunc(ctx, tenantID, endpointID, visibilitySeconds)
}

func (f *fakeQueues) Done() <-chan struct{} { return f.DoneFunc() }

func (f *fakeQueues) CreateToken(ctx context.Context, tenantID, endpointID uuid.UUID, in queue.TokenInput) (queue.ConsumerToken, string, error) {
	return f.CreateTokenFunc(ctx, tenantID, endpointID, in)
}

func (f *fakeQueues) Tokens(ctx context.Context, tenantID, endpointID uuid.UUID) ([]queue.ConsumerToken, error) {
	return f.TokensFunc(ctx, tenantID, endpointID)
}

func (f *fakeQueues) RevokeToken(ctx context.Context, tenantID, endpointID, tokenID uuid.UUID) error {
	return f.RevokeTokenFunc(ctx, tenantID, endpointID, tokenID)
}
