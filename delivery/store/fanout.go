package store

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/ferry-dev/ferry/delivery/model"
	"github.com/ferry-dev/ferry/internal/pgval"
)

// Delivery is a new delivery row: one event to one endpoint. It starts
// pending, with no attempt.
type Delivery struct {
	ID, TenantID, EventID, EndpointID uuid.UUID
	CreatedAt                         time.Time
	// TraceParent, kept for queue deliveries (which have no job to carry
	// it), is the W3C traceparent of the request that made it; empty when
	// untraced.
	TraceParent string
}

// Transform is a delivery_transforms row: the result of a delivery's
// transformation, stored with the delivery so every attempt and replay
// sends the same request, or (Pending) the mark that it is still to run.
type Transform struct {
	DeliveryID, TenantID uuid.UUID
	Cancelled            bool
	// Pending: the transformation runs after the commit; the delivery gets
	// its outbox row only with the result (FinishTransforms).
	Pending bool
	Error   *string
	Body    []byte
	// Headers are the transformed headers; nil stores none (NULL).
	Headers   *map[string]*string
	CreatedAt time.Time
}

// FanOut is what one fan-out writes in its transaction.
type FanOut struct {
	Deliveries []Delivery
	// Jobs get an outbox row each, keyed (delivery_id, Job.OutboxAt):
	// the relay publishes them after the commit.
	Jobs       []model.Job
	Transforms []Transform
	// Queues are queue endpoints that got deliveries: notified on
	// model.QueueChannel when the transaction commits, as Sender (the
	// instance of this process, or "" to wake every process).
	Queues []uuid.UUID
	Sender string
}

// InsertFanOut writes f in tx: deliveries, transformation rows, outbox
// rows and queue notifications. Parts with no rows cost no statement;
// deliveries and their outbox rows are one statement, as every ingest
// holds a committer for each round trip. Errors: wrapped database errors.
func InsertFanOut(ctx context.Context, tx Tx, f FanOut) error {
	if _, err := insertRows(ctx, tx, nil, f); err != nil {
		return err
	}
	if err := insertTransforms(ctx, tx, f.Transforms); err != nil {
		return err
	}
	return NotifyQueues(ctx, tx, f.Queues, f.Sender)
}

// InsertEventsFanOut writes events and f in tx and returns how many of
// events were new; f is written only when all were. Errors: wrapped
// database errors.
func InsertEventsFanOut(ctx context.Context, tx Tx, events []Event, f FanOut) (int, error) {
	inserted, err := insertRows(ctx, tx, events, f)
	if err != nil || inserted < len(events) {
		return inserted, err
	}
	if err := insertTransforms(ctx, tx, f.Transforms); err != nil {
		return 0, err
	}
	return inserted, NotifyQueues(ctx, tx, f.Queues, f.Sender)
}

// The parts of insertRows' statement; each %s is a parameter.
const (
	eventsPart = `INSERT INTO events (id, tenant_id, type, data, idempotency_key, customer_id, customer_uid, created_at)
		SELECT i, t, ty, d::json, k, ci::uuid, cu, c
		FROM unnest(%s::uuid[], %s::uuid[], %s::text[], %s::text[], %s::text[], %s::text[], %s::text[], %s::timestamptz[])
			AS v(i, t, ty, d, k, ci, cu, c)`
	deliveriesPart = `INSERT INTO deliveries (id, tenant_id, event_id, endpoint_id, created_at, traceparent)
		SELECT * FROM unnest(%s::uuid[], %s::uuid[], %s::uuid[], %s::uuid[], %s::timestamptz[], %s::text[])`
	outboxPart = `INSERT INTO outbox (delivery_id, job, created_at, traceparent)
		SELECT d, j::jsonb, c, p FROM unnest(%s::uuid[], %s::text[], %s::timestamptz[], %s::text[]) AS t(d, j, c, p)`
)

// insertRows writes events, f's deliveries and f's outbox rows in one
// statement (their foreign keys are checked at its end, when all are
// in), and returns how many of events were new. An event whose id or
// idempotency key is taken is skipped, and then no delivery or outbox
// row is written: the caller decides what a collision means.
func insertRows(ctx context.Context, tx Tx, events []Event, f FanOut) (int, error) {
	query, args, err := rowsStatement(events, f, false)
	if err != nil || query == "" {
		return 0, err
	}
	rows, err := tx.Query(ctx, query, args...)
	var inserted []int64
	if err == nil {
		inserted, err = collect(rows, func(r pgx.Rows) (int64, error) {
			var c int64
			return c, r.Scan(&c)
		})
	}
	if err == nil && len(inserted) != 1 {
		err = fmt.Errorf("%d counts", len(inserted))
	}
	if err != nil {
		return 0, rowsError(events, f, err)
	}
	return int(inserted[0]), nil
}

// QueueEventsFanOut queues onto b what InsertEventsFanOut writes, for a
// caller sharing round trips among the statements of one transaction
// and sending its COMMIT on b too: an event whose id or idempotency key
// is taken fails the statement, and so the transaction, rather than
// being skipped. Errors: a job that cannot be encoded.
func QueueEventsFanOut(b *pgx.Batch, events []Event, f FanOut) error {
	query, args, err := rowsStatement(events, f, true)
	if err != nil {
		return err
	}
	if query != "" {
		b.Queue(query, args...).QueryRow(func(row pgx.Row) error {
			var n int64
			if err := row.Scan(&n); err != nil {
				return rowsError(events, f, err)
			}
			if n != int64(len(events)) {
				return rowsError(events, f, fmt.Errorf("%d of %d events were new", n, len(events)))
			}
			return nil
		})
	}
	if len(f.Transforms) > 0 {
		query, args, err := transformsStatement(f.Transforms)
		if err != nil {
			return err
		}
		b.Queue(query, args...)
	}
	if len(f.Queues) > 0 {
		query, args := notifyStatement(f.Queues, f.Sender)
		b.Queue(query, args...)
	}
	return nil
}

func rowsError(events []Event, f FanOut, err error) error {
	return fmt.Errorf("insert %d events, %d deliveries and %d outbox rows: %w", len(events), len(f.Deliveries), len(f.Jobs), err)
}

// rowsStatement is insertRows' statement, or "" when there is nothing
// to write. It answers one row: how many of events were new. Unless
// strict, an event whose id or key is taken is skipped, and then none of
// the deliveries and outbox rows are written; strict, it fails the
// statement.
func rowsStatement(events []Event, f FanOut, strict bool) (string, []any, error) {
	var st statement
	count, allNew := "SELECT 0", ""
	if len(events) > 0 {
		onConflict := " ON CONFLICT DO NOTHING"
		if strict {
			onConflict = ""
		}
		st.add("e", eventsPart, onConflict+" RETURNING 1", eventColumns(events)...)
		count = "SELECT count(*) FROM e"
		if !strict && len(f.Deliveries)+len(f.Jobs) > 0 { // PostgreSQL refuses a parameter nothing uses
			allNew = " WHERE (SELECT count(*) FROM e) = " + st.param(int64(len(events)))
		}
	}
	if len(f.Deliveries) > 0 {
		st.add("d", deliveriesPart, allNew, deliveryColumns(f.Deliveries)...)
	}
	if len(f.Jobs) > 0 {
		outbox, err := outboxColumns(f.Jobs)
		if err != nil {
			return "", nil, err
		}
		st.add("o", outboxPart, allNew, outbox...)
	}
	if len(st.parts) == 0 {
		return "", nil, nil
	}
	return "WITH " + strings.Join(st.parts, ", ") + " " + count, st.args, nil
}

// statement is a statement of data-modifying parts (WITH queries),
// its parameters numbered as they are added.
type statement struct {
	parts []string
	args  []any
}

// add adds the part name: template with a parameter for each of args,
// then suffix.
func (s *statement) add(name, template, suffix string, args ...any) {
	params := make([]any, len(args))
	for i, a := range args {
		params[i] = s.param(a)
	}
	s.parts = append(s.parts, name+" AS ("+fmt.Sprintf(template, params...)+suffix+")")
}

// param adds v and returns its placeholder.
func (s *statement) param(v any) string {
	s.args = append(s.args, v)
	return "$" + strconv.Itoa(len(s.args))
}

// deliveryColumns are the parameters of deliveriesPart for ds.
func deliveryColumns(ds []Delivery) []any {
	n := len(ds)
	ids, tenants, events, endpoints := make([]uuid.UUID, n), make([]uuid.UUID, n), make([]uuid.UUID, n), make([]uuid.UUID, n)
	ats := make([]time.Time, n)
	// nil (SQL NULL, padded by unnest) unless a delivery is traced, so
	// tracing off costs no array.
	var parents []*string
	for i, d := range ds {
		ids[i], tenants[i], events[i], endpoints[i], ats[i] = d.ID, d.TenantID, d.EventID, d.EndpointID, d.CreatedAt
		if d.TraceParent != "" {
			if parents == nil {
				parents = make([]*string, n)
			}
			parents[i] = &ds[i].TraceParent
		}
	}
	return []any{pgval.Array(ids), pgval.Array(tenants), pgval.Array(events), pgval.Array(endpoints), pgval.Array(ats),
		pgval.Array(parents)}
}

// InsertOutbox adds an outbox row for each job, keyed (delivery_id,
// Job.OutboxAt): the relay deletes by exactly that key once Kafka has
// the job, so OutboxAt must be at Postgres' microsecond precision. A
// traced job's traceparent is kept beside it (tracestate is not: Ferry
// starts its traces, so they carry none).
func InsertOutbox(ctx context.Context, tx Tx, jobs []model.Job) error {
	_, err := insertRows(ctx, tx, nil, FanOut{Jobs: jobs})
	return err
}

// outboxColumns are the parameters of outboxPart for jobs.
func outboxColumns(jobs []model.Job) ([]any, error) {
	ids, payloads, ats := make([]uuid.UUID, len(jobs)), make([]string, len(jobs)), make([]time.Time, len(jobs))
	// nil (SQL NULL, padded by unnest) unless a job is traced, so tracing
	// off costs no array.
	var parents []*string
	for i, j := range jobs {
		b, err := json.Marshal(j)
		if err != nil {
			return nil, fmt.Errorf("encode job: %w", err)
		}
		ids[i], payloads[i], ats[i] = j.DeliveryID, string(b), j.OutboxAt
		if j.TraceParent != "" {
			if parents == nil {
				parents = make([]*string, len(jobs))
			}
			parents[i] = &jobs[i].TraceParent
		}
	}
	return []any{pgval.Array(ids), pgval.Array(payloads), pgval.Array(ats), pgval.Array(parents)}, nil
}

// DeleteOutbox deletes the outbox rows keyed (ids[i], ats[i]) once Kafka
// has their jobs.
//
// Each key is looked up on its own through the primary key (the LATERAL
// subquery runs once per key), then the rows go by ctid, and the
// statement is planned afresh at every call (pgval.Replan).
//
// The outbox is empty between bursts, and a plan made then scans it per
// key: a generic plan cached on a connection while it was empty made a
// delete of 2,000 keys among 30,000 rows take 0.5 s instead of 4 ms, and
// with 10,000 keys held every tenant's jobs back for seconds behind the
// relay, until an ANALYZE replaced the plan (docs/benchmarks.md,
// 2026-11-26 16:28; before that, the plain `(delivery_id, created_at) IN
// (…)` took 110 s for 10,000 keys, 13:30).
func DeleteOutbox(ctx context.Context, tx Tx, ids []uuid.UUID, ats []time.Time) error {
	if len(ids) == 0 {
		return nil
	}
	if _, err := tx.Exec(ctx, `DELETE FROM outbox WHERE ctid = ANY(ARRAY(
		SELECT o.ctid FROM unnest($1::uuid[], $2::timestamptz[]) AS k(delivery_id, created_at)
		CROSS JOIN LATERAL (SELECT ctid FROM outbox WHERE delivery_id = k.delivery_id AND created_at = k.created_at LIMIT 1) o))`,
		pgval.Replan, pgval.Array(ids), pgval.Array(ats)); err != nil {
		return fmt.Errorf("delete outbox rows: %w", err)
	}
	return nil
}

// NotifyQueues wakes the consumers of queue endpoints once tx commits
// (Postgres folds duplicate notifications of one transaction). sender,
// unless empty, is the instance of this process, which wakes its own
// long-polls after the commit: its listener skips the notification
// instead of waking a second waiter for the same messages.
func NotifyQueues(ctx context.Context, tx Tx, endpoints []uuid.UUID, sender string) error {
	if len(endpoints) == 0 {
		return nil
	}
	query, args := notifyStatement(endpoints, sender)
	if _, err := tx.Exec(ctx, query, args...); err != nil {
		return fmt.Errorf("notify queues: %w", err)
	}
	return nil
}

func notifyStatement(endpoints []uuid.UUID, sender string) (string, []any) {
	suffix := ""
	if sender != "" {
		suffix = model.QueueSenderSep + sender
	}
	return `SELECT pg_notify($1, e::text || $2) FROM unnest($3::uuid[]) AS t(e)`,
		[]any{model.QueueChannel, suffix, pgval.Array(endpoints)}
}

func transformColumns(rows []Transform) (ids, tenants []uuid.UUID, cancelled, pending []bool, errs []*string, bodies [][]byte,
	headers []*string, ats []time.Time, err error) {
	n := len(rows)
	ids, tenants = make([]uuid.UUID, n), make([]uuid.UUID, n)
	cancelled, pending, errs = make([]bool, n), make([]bool, n), make([]*string, n)
	bodies, headers, ats = make([][]byte, n), make([]*string, n), make([]time.Time, n)
	for i, r := range rows {
		ids[i], tenants[i], cancelled[i], pending[i], errs[i], bodies[i], ats[i] = r.DeliveryID, r.TenantID, r.Cancelled, r.Pending,
			r.Error, r.Body, r.CreatedAt
		if r.Headers != nil {
			b, err := json.Marshal(*r.Headers)
			if err != nil {
				return nil, nil, nil, nil, nil, nil, nil, nil, fmt.Errorf("encode transformed headers: %w", err)
			}
			h := string(b)
			headers[i] = &h
		}
	}
	return ids, tenants, cancelled, pending, errs, bodies, headers, ats, nil
}

func insertTransforms(ctx context.Context, tx Tx, rows []Transform) error {
	if len(rows) == 0 {
		return nil
	}
	query, args, err := transformsStatement(rows)
	if err != nil {
		return err
	}
	if _, err := tx.Exec(ctx, query, args...); err != nil {
		return fmt.Errorf("insert delivery transforms: %w", err)
	}
	return nil
}

func transformsStatement(rows []Transform) (string, []any, error) {
	ids, tenants, cancelled, pending, errs, bodies, headers, ats, err := transformColumns(rows)
	if err != nil {
		return "", nil, err
	}
	return `INSERT INTO delivery_transforms (delivery_id, tenant_id, cancelled, pending, error, body, headers, created_at)
		SELECT d, t, c, p, e, b, h::jsonb, a
		FROM unnest($1::uuid[], $2::uuid[], $3::bool[], $4::bool[], $5::text[], $6::bytea[], $7::text[], $8::timestamptz[])
			AS v(d, t, c, p, e, b, h, a)`,
		[]any{pgval.Array(ids), pgval.Array(tenants), pgval.Array(cancelled), pgval.Array(pending), pgval.Array(errs),
			pgval.Array(bodies), pgval.Array(headers), pgval.Array(ats)}, nil
}

// FinishTransforms stores the results of pending transformations in place
// of their pending marks and returns the deliveries it finished: a
// delivery another process finished first is left alone (and not
// returned), so only one process queues it. The caller adds the outbox
// rows of the returned ones in the same transaction.
func FinishTransforms(ctx context.Context, tx Tx, rows []Transform) ([]uuid.UUID, error) {
	if len(rows) == 0 {
		return nil, nil
	}
	ids, _, cancelled, _, errs, bodies, headers, _, err := transformColumns(rows)
	if err != nil {
		return nil, err
	}
	res, err := tx.Query(ctx, `UPDATE delivery_transforms t SET pending = false, cancelled = v.c, error = v.e, body = v.b, headers = v.h::jsonb
		FROM unnest($1::uuid[], $2::bool[], $3::text[], $4::bytea[], $5::text[]) AS v(d, c, e, b, h)
		WHERE t.delivery_id = v.d AND t.pending
		RETURNING t.delivery_id`,
		pgval.Array(ids), pgval.Array(cancelled), pgval.Array(errs), pgval.Array(bodies), pgval.Array(headers))
	if err != nil {
		return nil, fmt.Errorf("store finished transformations: %w", err)
	}
	finished, err := collect(res, func(r pgx.Rows) (uuid.UUID, error) {
		var id uuid.UUID
		return id, r.Scan(&id)
	})
	if err != nil {
		return nil, fmt.Errorf("store finished transformations: %w", err)
	}
	return finished, nil
}

// Event is a new events row.
type Event struct {
	ID, TenantID uuid.UUID
	Type         string
	// Data is the event's JSON document.
	Data           string
	IdempotencyKey *string
	CustomerID     *uuid.UUID
	CustomerUID    *string
	CreatedAt      time.Time
}

// eventColumns are the parameters of eventsPart for events.
func eventColumns(events []Event) []any {
	n := len(events)
	ids, tenants, types, data := make([]uuid.UUID, n), make([]uuid.UUID, n), make([]string, n), make([]string, n)
	keys, customerIDs, customerUIDs, ats := make([]*string, n), make([]*string, n), make([]*string, n), make([]time.Time, n)
	for i, ev := range events {
		ids[i], tenants[i], types[i], data[i] = ev.ID, ev.TenantID, ev.Type, ev.Data
		keys[i], customerUIDs[i], ats[i] = ev.IdempotencyKey, ev.CustomerUID, ev.CreatedAt
		if ev.CustomerID != nil {
			id := ev.CustomerID.String()
			customerIDs[i] = &id
		}
	}
	return []any{pgval.Array(ids), pgval.Array(tenants), pgval.Array(types), pgval.Array(data), pgval.Array(keys),
		pgval.Array(customerIDs), pgval.Array(customerUIDs), pgval.Array(ats)}
}
