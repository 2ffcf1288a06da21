package insight

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/google/uuid"

	"github.com/ferry-dev/ferry"
	"github.com/ferry-dev/ferry/delivery"
	"github.com/ferry-dev/ferry/delivery/model"
)

// Stats are computed from hourly rollups of the attempt log
// (endpoint_stats_hourly), which the attempt log maintains in the
// transaction that writes the attempts; a request reads at most one row
// per endpoint and hour and never scans the attempt log.
//
// Definitions, over the window:
//   - attempts: HTTP attempts made; attempts_failed: those whose outcome
//     was not success (retry or dropped).
//   - succeeded / failed: deliveries that reached a final status in the
//     window, by the attempt that finished them: succeeded, or failed for
//     good (dropped, or exhausted after their last attempt). A delivery
//     still retrying counts in neither. A delivery replayed to a new final
//     status counts again when it gets there.
//   - success_rate: succeeded / (succeeded + failed), null when no
//     delivery finished in the window. It counts deliveries, not attempts:
//     a delivery that succeeded on its third attempt is one success.
//   - by_error_class: failed attempts by error class; an attempt that got
//     an HTTP answer counts as "http_<status>".
//   - response_ms: percentiles of the receiver's answer time over the
//     attempts that got an HTTP answer (timeouts and connection errors
//     have no answer time), read from a fixed histogram: each percentile
//     is the upper bound of the bucket it falls in, so it is never
//     understated; past the last bound it is delivery.MaxTimeoutSeconds.
//   - backlog: deliveries pending (not yet attempted) and retrying now,
//     and the age of the oldest of them; not windowed.
//   - series: one entry per UTC hour of the window, oldest first, with
//     the deliveries that succeeded and failed in it.
//
// A window covers whole UTC hours: from the start of the hour holding
// now − window up to now, so "1h" spans 60 to 120 minutes and its series
// has two entries.

// windowLength returns the length of a window the stats endpoints accept.
func windowLength(window string) (time.Duration, bool) {
	switch window {
	case "1h":
		return time.Hour, true
	case "24h":
		return 24 * time.Hour, true
	case "7d":
		return 7 * 24 * time.Hour, true
	}
	return 0, false
}

// responseBucketUpper is the value reported for a percentile falling in
// bucket i: its upper bound, or the longest timeout for the open bucket.
func responseBucketUpper(i int) int {
	if v, ok := model.ResponseBucketUpper(i); ok {
		return v
	}
	return delivery.MaxTimeoutSeconds * 1000
}

// Stats is the answer of GET /endpoints/{id}/stats and GET /stats.
type Stats struct {
	// Window is the window asked for: 1h, 24h or 7d.
	Window string `json:"window"`
	// From is the start of the first hour covered.
	From           time.Time        `json:"from"`
	Attempts       int64            `json:"attempts"`                        // attempts in the window
	AttemptsFailed int64            `json:"attempts_failed"`                 // attempts in the window that did not succeed
	Succeeded      int64            `json:"succeeded"`                       // deliveries that succeeded in the window
	Failed         int64            `json:"failed"`                          // deliveries that were dropped or exhausted in the window
	SuccessRate    *float64         `json:"success_rate"`                    // succeeded / (succeeded + failed); null when none finished
	ByErrorClass   map[string]int64 `json:"by_error_class" nullable:"false"` // failed attempts by error class (timeout, dns …; an HTTP answer counts as http_<status>, e.g. http_503)
	ResponseMs     ResponseMs       `json:"response_ms"`                     // response time percentiles of the attempts
	Backlog        Backlog          `json:"backlog"`                         // what waits to be delivered now
	// LastSuccessAt is the start of the latest successful attempt in the
	// window, if any.
	LastSuccessAt *time.Time   `json:"last_success_at"`
	Series        []StatsPoint `json:"series" nullable:"false"` // one point per hour of the window, oldest first
}

// ResponseMs are percentiles of the receiver's answer time; null when no
// attempt in the window got an answer.
type ResponseMs struct {
	P50 *int `json:"p50"` // median response time in ms; null without attempts
	P95 *int `json:"p95"` // 95th percentile in ms; null without attempts
	P99 *int `json:"p99"` // 99th percentile in ms; null without attempts
}

// Backlog is what waits to be delivered now.
type Backlog struct {
	Pending  int64 `json:"pending"`  // deliveries waiting for their first attempt
	Retrying int64 `json:"retrying"` // deliveries waiting for a retry
	// OldestAgeSeconds is the age of the oldest pending or retrying
	// delivery (0 when there is none).
	OldestAgeSeconds int64 `json:"oldest_age_seconds"`
	// NextRetryAt is the earliest scheduled retry, if any.
	NextRetryAt *time.Time `json:"next_retry_at"`
}

// StatsPoint is one hour of the series.
type StatsPoint struct {
	Hour      time.Time `json:"hour"`      // start of the hour (UTC)
	Succeeded int64     `json:"succeeded"` // deliveries that succeeded in the hour
	Failed    int64     `json:"failed"`    // deliveries that were dropped or exhausted in the hour
}

// TenantStats is Stats over all of a tenant's endpoints, with a line per
// endpoint that had attempts in the window or has a backlog.
type TenantStats struct {
	Stats
	Endpoints []EndpointStatsLine `json:"endpoints" nullable:"false"` // a line per endpoint
}

// EndpointStatsLine is one endpoint's health in TenantStats.
type EndpointStatsLine struct {
	EndpointID    uuid.UUID  `json:"endpoint_id"`     // the endpoint
	Attempts      int64      `json:"attempts"`        // attempts in the window
	Succeeded     int64      `json:"succeeded"`       // deliveries that succeeded in the window
	Failed        int64      `json:"failed"`          // deliveries that were dropped or exhausted in the window
	SuccessRate   *float64   `json:"success_rate"`    // succeeded / (succeeded + failed); null when none finished
	LastSuccessAt *time.Time `json:"last_success_at"` // start of the latest successful attempt in the window; null if none
	Pending       int64      `json:"pending"`         // deliveries waiting for their first attempt now
	Retrying      int64      `json:"retrying"`        // deliveries waiting for a retry now
	NextRetryAt   *time.Time `json:"next_retry_at"`   // the earliest scheduled retry; null if none
}

// statsRow is one rollup row as the queries read it.
type statsRow struct {
	EndpointID          uuid.UUID
	Hour                time.Time
	Attempts            int64
	AttemptsFailed      int64
	DeliveriesSucceeded int64
	DeliveriesFailed    int64
	ByErrorClass        string
	ResponseBuckets     string // JSON array
	LastSuccessAt       *time.Time
}

// backlogRow is one endpoint's backlog.
type backlogRow struct {
	EndpointID  uuid.UUID
	Pending     int64
	Retrying    int64
	Oldest      *time.Time
	NextRetryAt *time.Time
}

// statsWindow parses window and returns the first hour it covers.
func (s *Service) statsWindow(window string) (from, now time.Time, err error) {
	d, ok := windowLength(window)
	if !ok {
		return time.Time{}, time.Time{}, ferry.Invalid("window", "window must be 1h, 24h or 7d")
	}
	now = s.now().UTC()
	return now.Add(-d).Truncate(time.Hour), now, nil
}

// EndpointStats returns one endpoint's stats over window (1h, 24h, 7d).
// Errors: EINVALID (window), ENOTFOUND (no such endpoint of the tenant).
func (s *Service) EndpointStats(ctx context.Context, tenantID, endpointID uuid.UUID, window string) (Stats, error) {
	from, now, err := s.statsWindow(window)
	if err != nil {
		return Stats{}, err
	}
	if _, err := s.delivery.Endpoint(ctx, tenantID, endpointID); err != nil {
		return Stats{}, err
	}
	rows, err := s.statsRows(ctx, tenantID, &endpointID, "", from)
	if err != nil {
		return Stats{}, err
	}
	backlog, err := s.backlogRows(ctx, tenantID, &endpointID, "")
	if err != nil {
		return Stats{}, err
	}
	return buildStats(window, from, now, rows, backlog)
}

// TenantStats returns the stats of all the tenant's endpoints over window.
// Errors: EINVALID (window).
func (s *Service) TenantStats(ctx context.Context, tenantID uuid.UUID, window string) (TenantStats, error) {
	return s.CustomerStats(ctx, tenantID, "", window)
}

// CustomerStats returns the stats of the endpoints of the tenant's
// customer uid over window ("" for all the tenant's endpoints). Errors:
// EINVALID (window).
func (s *Service) CustomerStats(ctx context.Context, tenantID uuid.UUID, customer, window string) (TenantStats, error) {
	from, now, err := s.statsWindow(window)
	if err != nil {
		return TenantStats{}, err
	}
	rows, err := s.statsRows(ctx, tenantID, nil, customer, from)
	if err != nil {
		return TenantStats{}, err
	}
	backlog, err := s.backlogRows(ctx, tenantID, nil, customer)
	if err != nil {
		return TenantStats{}, err
	}
	st, err := buildStats(window, from, now, rows, backlog)
	if err != nil {
		return TenantStats{}, err
	}
	lines := map[uuid.UUID]*EndpointStatsLine{}
	line := func(id uuid.UUID) *EndpointStatsLine {
		if l, ok := lines[id]; ok {
			return l
		}
		l := &EndpointStatsLine{EndpointID: id}
		lines[id] = l
		return l
	}
	for _, r := range rows {
		l := line(r.EndpointID)
		l.Attempts += r.Attempts
		l.Succeeded += r.DeliveriesSucceeded
		l.Failed += r.DeliveriesFailed
		l.LastSuccessAt = later(l.LastSuccessAt, r.LastSuccessAt)
	}
	for _, b := range backlog {
		l := line(b.EndpointID)
		l.Pending, l.Retrying, l.NextRetryAt = b.Pending, b.Retrying, b.NextRetryAt
	}
	out := TenantStats{Stats: st, Endpoints: make([]EndpointStatsLine, 0, len(lines))}
	for _, l := range lines {
		l.SuccessRate = successRate(l.Succeeded, l.Failed)
		out.Endpoints = append(out.Endpoints, *l)
	}
	slices.SortFunc(out.Endpoints, func(a, b EndpointStatsLine) int { return bytes.Compare(a.EndpointID[:], b.EndpointID[:]) })
	return out, nil
}

// customerEndpoints keeps the endpoints of one customer (its uid, the
// next two parameters) or, for "", every endpoint.
const customerEndpoints = `(? = '' OR endpoint_id IN (SELECT id FROM endpoints WHERE tenant_id = ? AND customer_uid = ?))`

// statsRows reads the rollups of the tenant (or of one of its endpoints,
// or of one customer's) from the hour from on.
func (s *Service) statsRows(ctx context.Context, tenantID uuid.UUID, endpointID *uuid.UUID, customer string, from time.Time) ([]statsRow, error) {
	var rows []statsRow
	// Hand-written: the rollup table has no GORM model; one indexed
	// range read.
	err := s.db.WithContext(ctx).Raw(`SELECT endpoint_id, hour, attempts, attempts_failed, deliveries_succeeded,
			deliveries_failed, by_error_class::text AS by_error_class, array_to_json(response_buckets)::text AS response_buckets, last_success_at
		FROM endpoint_stats_hourly
		WHERE tenant_id = ? AND hour >= ? AND (?::uuid IS NULL OR endpoint_id = ?) AND `+customerEndpoints+`
		ORDER BY hour`, tenantID, from, endpointID, endpointID, customer, tenantID, customer).Scan(&rows).Error
	if err != nil {
		return nil, fmt.Errorf("read stats rollups: %w", err)
	}
	return rows, nil
}

// backlogRows counts the open deliveries per endpoint of the tenant (or
// of one of its endpoints, or of one customer's).
func (s *Service) backlogRows(ctx context.Context, tenantID uuid.UUID, endpointID *uuid.UUID, customer string) ([]backlogRow, error) {
	var rows []backlogRow
	err := s.db.WithContext(ctx).Raw(`SELECT endpoint_id,
			count(*) FILTER (WHERE status = `+model.SQLPending+`) AS pending,
			count(*) FILTER (WHERE status = `+model.SQLRetrying+`) AS retrying,
			min(created_at) AS oldest,
			min(next_attempt_at) FILTER (WHERE status = `+model.SQLRetrying+`) AS next_retry_at
		FROM deliveries
		WHERE tenant_id = ? AND status IN `+model.SQLUnfinished+` AND (?::uuid IS NULL OR endpoint_id = ?) AND `+customerEndpoints+`
		GROUP BY endpoint_id`, tenantID, endpointID, endpointID, customer, tenantID, customer).Scan(&rows).Error
	if err != nil {
		return nil, fmt.Errorf("read backlog: %w", err)
	}
	return rows, nil
}

// buildStats folds rollup rows and backlog rows into Stats.
func buildStats(window string, from, now time.Time, rows []statsRow, backlog []backlogRow) (Stats, error) {
	st := Stats{Window: window, From: from, ByErrorClass: map[string]int64{}}
	var buckets [model.ResponseBuckets]int64
	byHour := map[time.Time]*StatsPoint{}
	for h := from; !h.After(now); h = h.Add(time.Hour) {
		st.Series = append(st.Series, StatsPoint{Hour: h})
	}
	for i := range st.Series {
		byHour[st.Series[i].Hour] = &st.Series[i]
	}
	for _, r := range rows {
		st.Attempts += r.Attempts
		st.AttemptsFailed += r.AttemptsFailed
		st.Succeeded += r.DeliveriesSucceeded
		st.Failed += r.DeliveriesFailed
		st.LastSuccessAt = later(st.LastSuccessAt, r.LastSuccessAt)
		if p := byHour[r.Hour.UTC()]; p != nil {
			p.Succeeded += r.DeliveriesSucceeded
			p.Failed += r.DeliveriesFailed
		}
		var classes map[string]int64
		if err := json.Unmarshal([]byte(r.ByErrorClass), &classes); err != nil {
			return Stats{}, fmt.Errorf("decode error classes of endpoint %s: %w", r.EndpointID, err)
		}
		for k, v := range classes {
			st.ByErrorClass[k] += v
		}
		var counts []int64
		if err := json.Unmarshal([]byte(r.ResponseBuckets), &counts); err != nil {
			return Stats{}, fmt.Errorf("decode answer times of endpoint %s: %w", r.EndpointID, err)
		}
		for i, v := range counts {
			if i < len(buckets) {
				buckets[i] += v
			}
		}
	}
	st.SuccessRate = successRate(st.Succeeded, st.Failed)
	st.ResponseMs = ResponseMs{P50: percentile(buckets, 0.50), P95: percentile(buckets, 0.95), P99: percentile(buckets, 0.99)}
	for _, b := range backlog {
		st.Backlog.Pending += b.Pending
		st.Backlog.Retrying += b.Retrying
		if b.Oldest != nil {
			st.Backlog.OldestAgeSeconds = max(st.Backlog.OldestAgeSeconds, int64(now.Sub(*b.Oldest).Seconds()))
		}
		st.Backlog.NextRetryAt = earlier(st.Backlog.NextRetryAt, b.NextRetryAt)
	}
	return st, nil
}

// percentile returns the upper bound of the bucket holding the q-th
// quantile of the histogram, nil for an empty one.
func percentile(buckets [model.ResponseBuckets]int64, q float64) *int {
	var total int64
	for _, n := range buckets {
		total += n
	}
	if total == 0 {
		return nil
	}
	// The rank of the q-th quantile, counted from 1 (nearest rank).
	rank := int64(q*float64(total) + 0.999999999)
	rank = min(max(rank, 1), total)
	var seen int64
	for i, n := range buckets {
		seen += n
		if seen >= rank {
			v := responseBucketUpper(i)
			return &v
		}
	}
	v := responseBucketUpper(model.ResponseBuckets - 1)
	return &v
}

func successRate(succeeded, failed int64) *float64 {
	if succeeded+failed == 0 {
		return nil
	}
	r := float64(succeeded) / float64(succeeded+failed)
	return &r
}

func later(a, b *time.Time) *time.Time {
	if a == nil || (b != nil && b.After(*a)) {
		return b
	}
	return a
}

func earlier(a, b *time.Time) *time.Time {
	if a == nil || (b != nil && b.Before(*a)) {
		return b
	}
	return a
}

// MarshalJSON writes empty lists and maps as [] and {}, never null.
func (s Stats) MarshalJSON() ([]byte, error) {
	type plain Stats
	if s.ByErrorClass == nil {
		s.ByErrorClass = map[string]int64{}
	}
	if s.Series == nil {
		s.Series = []StatsPoint{}
	}
	return json.Marshal(plain(s))
}

// MarshalJSON keeps endpoints; without it Stats' MarshalJSON, promoted by
// embedding, would drop them.
func (t TenantStats) MarshalJSON() ([]byte, error) {
	st, err := t.Stats.MarshalJSON()
	if err != nil {
		return nil, err
	}
	lines := t.Endpoints
	if lines == nil {
		lines = []EndpointStatsLine{}
	}
	eps, err := json.Marshal(lines)
	if err != nil {
		return nil, err
	}
	out := append(st[:len(st)-1:len(st)-1], `,"endpoints":`...)
	out = append(out, eps...)
	return append(out, '}'), nil
}
