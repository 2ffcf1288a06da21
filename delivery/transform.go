package delivery

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"sync"
	"time"

	"github.com/google/uuid"
	"gorm.io/gorm"

	"github.com/ferry-dev/ferry"
	"github.com/ferry-dev/ferry/delivery/routing"
	"github.com/ferry-dev/ferry/delivery/routing/sandbox"
	"github.com/ferry-dev/ferry/delivery/store"
	"github.com/ferry-dev/ferry/delivery/webhook"
	"github.com/ferry-dev/ferry/internal/pgval"
	"github.com/ferry-dev/ferry/internal/rowid"
)

// Transformations at fan-out (docs/contract.md#transformations). An
// endpoint's transformation runs once per delivery, when the event is
// routed, before the ingest transaction takes any lock; its result is
// stored in delivery_transforms with the delivery, so every attempt,
// retry and replay sends the same bytes. Endpoints without one cost
// nothing: no run, no row, no extra read at dispatch.

// Transformed is what an endpoint's transformation made of one delivery,
// as stored: exactly one of Err, Cancelled, or Body (with Headers).
type Transformed struct {
	// Body is the payload to send, as the handler left it (JSON).
	Body []byte
	// Headers are the custom headers the handler set (a value) or
	// removed (nil), by canonical name; the endpoint's other custom
	// headers are sent as they are when the attempt is made.
	Headers map[string]*string
	// Cancelled: the handler set cancel; the delivery is dropped unsent.
	Cancelled bool
	// Err is why the transformation failed (thrown, timed out, over its
	// memory bound, or an unsendable result); the delivery is dropped.
	Err string
}

// transformWebhook is what an endpoint's transformation gets for ev.
func transformWebhook(ev Event, headers map[string]string) routing.Webhook {
	return routing.Webhook{Event: routingEvent(ev), Payload: webhook.Envelope(ev.ID, ev.Type, ev.CreatedAt, ev.Data),
		Headers: headers}
}

// transform runs src, tenantID's transformation, on ev for an endpoint
// with custom headers headers; unsaved is code being tried, not cached.
// What the transformation made of it, failures included, is the
// Transformed; the error is the sandbox's (sandbox.ErrUnavailable), not
// a result to store.
func (r *Router) transform(ctx context.Context, tenantID uuid.UUID, src string, unsaved bool, ev Event, headers map[string]string) (Transformed, error) {
	res, err := r.transforms.Run(ctx, routing.Source{Tenant: tenantID.String(), Code: src, Unsaved: unsaved},
		transformWebhook(ev, headers))
	var te *routing.TransformError
	switch {
	case errors.As(err, &te):
		return Transformed{Err: te.Error()}, nil
	case errors.Is(err, sandbox.ErrUnavailable):
		return Transformed{}, sandboxUnavailable("run transformation", err)
	case err != nil:
		return Transformed{}, fmt.Errorf("run transformation: %w", err)
	case res.Cancelled:
		return Transformed{Cancelled: true}, nil
	}
	return Transformed{Body: res.Payload, Headers: headerOverrides(headers, res.Headers)}, nil
}

// sandboxUnavailable wraps a sandbox.ErrUnavailable of what as
// EUNAVAILABLE: the API answers 503 with Retry-After, since a retry may
// find workers again.
func sandboxUnavailable(what string, err error) error {
	return fmt.Errorf("%s: %w: %w", what, err, &ferry.Error{Code: ferry.EUNAVAILABLE,
		Message: "transformations cannot run right now; retry shortly", RetryAfterSeconds: 1})
}

// headerOverrides is what changed from before to after: set or changed
// headers with their value, removed ones as nil.
func headerOverrides(before, after map[string]string) map[string]*string {
	out := map[string]*string{}
	for k, v := range after {
		if old, ok := before[k]; !ok || old != v {
			out[k] = &v
		}
	}
	for k := range before {
		if _, ok := after[k]; !ok {
			out[k] = nil
		}
	}
	return out
}

// ApplyHeaderOverrides returns the endpoint's custom headers with a
// transformation's overrides applied (see Transformed.Headers).
func ApplyHeaderOverrides(headers map[string]string, overrides map[string]*string) map[string]string {
	if len(overrides) == 0 {
		return headers
	}
	out := make(map[string]string, len(headers)+len(overrides))
	for k, v := range headers {
		out[http.CanonicalHeaderKey(k)] = v
	}
	for k, v := range overrides {
		if v == nil {
			delete(out, k)
		} else {
			out[k] = *v
		}
	}
	return out
}

// needsTransform reports whether m's transformation is still to run.
func (m *batchMatch) needsTransform() bool {
	return m.Transformation != "" && m.Kind != KindQueue && m.Transformed == nil && !m.deferred
}

// deferTransforms marks every transformation batch's matches still need
// to run after the transaction that makes the deliveries: inside a
// transaction that others share and that cannot be left (an inbound
// source's event maker), the deliveries are stored pending instead
// (insertBatch, fanOut; see FinishTransforms).
func deferTransforms(batch []*ingestRequest) {
	for _, r := range batch {
		for k := range r.matches {
			if m := &r.matches[k]; m.needsTransform() {
				m.deferred = true
			}
		}
	}
}

// finishLater runs pending's transformations on a goroutine of its own,
// once the transaction that stored them pending has committed, and hands
// their deliveries to the relay. What fails here, the attempt log's
// sweep finishes.
func (s *Service) finishLater(ctx context.Context, pending PendingTransforms) {
	if len(pending) == 0 {
		return
	}
	ctx = context.WithoutCancel(ctx)
	s.background.Add(1)
	go func() {
		defer s.background.Done()
		ctx, cancel := context.WithTimeout(ctx, time.Minute)
		defer cancel()
		if err := FinishTransforms(ctx, s.db, s.router, s.relay, pending, s.now()); err != nil {
			s.log.Warn("transformations not finished; the sweep retries them", "err", err)
		}
	}()
}

// transformMatches runs the transformation of every match of tenantID's
// event ev that still needs one, concurrently (the sandbox bounds how
// many of the tenant's runs go at once), and stores each result in its
// match. Errors: the sandbox's (sandbox.ErrUnavailable).
func (s *Service) transformMatches(ctx context.Context, tenantID uuid.UUID, ev Event, matches []batchMatch) error {
	errs := make([]error, len(matches))
	var wg sync.WaitGroup
	for k := range matches {
		m := &matches[k]
		if !m.needsTransform() {
			continue
		}
		wg.Go(func() {
			t, err := s.router.transform(ctx, tenantID, m.Transformation, false, ev, m.Headers.V)
			if err != nil {
				errs[k] = err
				return
			}
			m.Transformed = &t
		})
	}
	wg.Wait()
	return errors.Join(errs...)
}

func newTransformRow(deliveryID, tenantID uuid.UUID, t *Transformed, at time.Time) store.Transform {
	row := store.Transform{DeliveryID: deliveryID, TenantID: tenantID, Cancelled: t.Cancelled, CreatedAt: at}
	switch {
	case t.Err != "":
		msg := t.Err
		row.Error = &msg
	case !t.Cancelled:
		row.Body = t.Body
		headers := t.Headers
		row.Headers = &headers
	}
	return row
}

// DecodeTransformed builds a Transformed from the columns of a
// delivery_transforms row as the dispatcher reads them (headers as JSON
// text). ok is false when there is no row (present false).
func DecodeTransformed(present, cancelled bool, errMsg *string, body []byte, headers *string) (t Transformed, ok bool, err error) {
	if !present {
		return Transformed{}, false, nil
	}
	t = Transformed{Cancelled: cancelled, Body: body}
	if errMsg != nil {
		t.Err = *errMsg
	}
	if headers != nil && *headers != "" {
		if err := json.Unmarshal([]byte(*headers), &t.Headers); err != nil {
			return Transformed{}, false, fmt.Errorf("decode transformed headers: %w", err)
		}
	}
	if t.Err == "" && !t.Cancelled && t.Body == nil {
		// A pending row (pendingtransform.go): its outbox row comes with
		// the result, so only a replay in between gets here.
		return Transformed{}, false, errors.New("the delivery's transformation has not run yet")
	}
	return t, true, nil
}

// AddDelivery makes, in tx, a delivery of eventID to endpointID for an
// endpoint that never had one (a replay to a new endpoint) and stores the
// result of the endpoint's transformation with it, so it too is sent as
// its transformation made it, every time. done is a result run outside
// tx; without one for the endpoint's current code AddDelivery returns a
// *NeedTransform: the caller runs it (RunTransform) outside any
// transaction and makes tx again. Errors: *NeedTransform, wrapped
// database errors.
func (s *Service) AddDelivery(tx *gorm.DB, tenantID, eventID, endpointID uuid.UUID, done *NewDeliveryTransform) (uuid.UUID, error) {
	id := rowid.New()
	if err := store.InsertFanOut(tx.Statement.Context, store.Gorm(tx), store.FanOut{Deliveries: []store.Delivery{{ID: id,
		TenantID: tenantID, EventID: eventID, EndpointID: endpointID, CreatedAt: s.now().UTC()}}}); err != nil {
		return uuid.Nil, err
	}
	if err := s.transformNewDelivery(tx, tenantID, id, endpointID, done); err != nil {
		return uuid.Nil, err
	}
	return id, nil
}

// NewDeliveryTransform is the transformation of an endpoint that is to
// get a new delivery outside fan-out (a replay of an event to an
// endpoint that never had it), run outside the transaction that makes
// the delivery.
type NewDeliveryTransform struct {
	src     string
	headers map[string]string
	result  Transformed
}

// NeedTransform ends a transaction that was to make a new delivery for an
// endpoint whose transformation has not run yet (or ran on code edited
// since): it runs outside, and the transaction is made again.
type NeedTransform struct{ NewDeliveryTransform }

func (*NeedTransform) Error() string { return "transformation to run first" }

// transformNewDelivery stores, in tx, the result of the endpoint's
// transformation, if it has one, for a delivery made outside fan-out, so
// that delivery too is sent as its transformation made it, every time.
// done is the result of a run outside the transaction, if any; without
// one for the endpoint's current code it returns a *NeedTransform for
// the caller to run it (RunTransform) and try again: no transaction
// waits on a transformation.
func (s *Service) transformNewDelivery(tx *gorm.DB, tenantID, deliveryID, endpointID uuid.UUID, done *NewDeliveryTransform) error {
	var eps []struct {
		Kind           Kind
		Transformation string
		Headers        pgval.JSON[map[string]string]
	}
	if err := tx.Raw(`SELECT kind, transformation, headers FROM endpoints WHERE id = ? AND tenant_id = ?`,
		endpointID, tenantID).Scan(&eps).Error; err != nil {
		return fmt.Errorf("load endpoint %s: %w", endpointID, err)
	}
	if len(eps) == 0 || eps[0].Transformation == "" || eps[0].Kind == KindQueue {
		return nil
	}
	if done == nil || done.src != eps[0].Transformation || !maps.Equal(done.headers, eps[0].Headers.V) {
		return &NeedTransform{NewDeliveryTransform{src: eps[0].Transformation, headers: eps[0].Headers.V}}
	}
	return store.InsertFanOut(tx.Statement.Context, store.Gorm(tx), store.FanOut{
		Transforms: []store.Transform{newTransformRow(deliveryID, tenantID, &done.result, s.now().UTC())}})
}

// RunTransform runs what a *NeedTransform asked for, on ev.
func (s *Service) RunTransform(ctx context.Context, tenantID uuid.UUID, need *NeedTransform, ev Event) (*NewDeliveryTransform, error) {
	t, err := s.router.transform(ctx, tenantID, need.src, false, ev, need.headers)
	if err != nil {
		return nil, err
	}
	done := need.NewDeliveryTransform
	done.result = t
	return &done, nil
}
