-- +goose Up
-- Hourly rollups of the attempt log, one row per endpoint and UTC hour,
-- maintained by the attempt log in the transaction that writes the
-- attempts (one UPSERT per batch), so stats never scan the attempt log.
--   attempts / attempts_failed    attempts made in the hour, and those not
--                                 successful (retry or dropped outcome)
--   deliveries_succeeded / _failed deliveries that reached a final status
--                                 in the hour: succeeded, or dropped or
--                                 exhausted
--   by_error_class                failed attempts per error class (an
--                                 HTTP answer counts as "http_<status>")
--   response_buckets              attempts that got an HTTP answer, by
--                                 answer time in fixed log-scale buckets
--                                 (bounds in delivery/attemptlog/rollup.go)
--   last_success_at               the latest successful attempt's start
CREATE TABLE endpoint_stats_hourly (
    endpoint_id           uuid NOT NULL,
    hour                  timestamptz NOT NULL,
    tenant_id             uuid NOT NULL,
    attempts              bigint NOT NULL DEFAULT 0,
    attempts_failed       bigint NOT NULL DEFAULT 0,
    deliveries_succeeded  bigint NOT NULL DEFAULT 0,
    deliveries_failed     bigint NOT NULL DEFAULT 0,
    by_error_class        jsonb NOT NULL DEFAULT '{}',
    response_buckets      bigint[] NOT NULL,
    last_success_at       timestamptz,
    PRIMARY KEY (endpoint_id, hour)
);
CREATE INDEX endpoint_stats_hourly_tenant_idx ON endpoint_stats_hourly (tenant_id, hour);
-- Rows arrive in hour order: a BRIN index lets the hourly prune (rollups
-- older than 8 days) skip the rest of the table.
CREATE INDEX endpoint_stats_hourly_hour_idx ON endpoint_stats_hourly USING brin (hour);

-- The backlog of one endpoint (pending and retrying deliveries) without
-- reading its finished ones.
CREATE INDEX deliveries_endpoint_open_idx ON deliveries (endpoint_id, created_at)
    WHERE status IN ('pending', 'retrying');

-- The failing_since period already reported by ferry.endpoint.failing:
-- the event fires once per period, and ferry.endpoint.recovered only ends
-- a period that was reported.
ALTER TABLE endpoints ADD COLUMN failing_notified_since timestamptz;

-- +goose Down
ALTER TABLE endpoints DROP COLUMN failing_notified_since;
DROP INDEX deliveries_endpoint_open_idx;
DROP TABLE endpoint_stats_hourly;
