#!/usr/bin/env bash
# `make bench`: Ferry's end-to-end benchmark on this machine.
#
# Starts the local services (idempotent; the shared ones are reused), builds
# Ferry and the load tool, creates a fresh database and a unique topic
# prefix, starts Ferry (FERRY_ENV=dev) and the webhook sink as separate
# processes, runs the scenarios with `ferry-load bench`, prints a table and
# writes bench-results.json (git-ignored). Everything it started is stopped,
# and its database and topics are removed, on exit.
#
# Environment:
#   BENCH_DURATION (30s)   sending time per scenario (after a 5 s warm-up; 19 scenarios, and
#                          f-noisy-neighbour's victim sends for this long twice)
#   BENCH_ONLY             comma-separated scenario names (a-max-throughput, a-rate-4000,
#                          b-rate-100, b-rate-500, b-rate-1000, b-customers-500, c-fanout-100, d-control, d-failing-10pct,
#                          e-one-endpoint-100, e-one-endpoint-500, e-one-endpoint-2000, e-one-endpoint-max, f-noisy-neighbour,
#                          g-queue-1, g-queue-8, h-inbound, h-inbound-200, h-inbound-bystander);
#                          a name also selects the scenarios named name-… (e-one-endpoint: all four)
#   BENCH_OUT (bench-results.json)
#   BENCH_GUARD (empty)    a guard file (docs/bench/guard.json): fail loudly when a guarded
#                          scenario's p50 exceeds its limit (make bench-guard)
#   BENCH_FERRY_ENV        extra FERRY_* settings for Ferry, e.g. "FERRY_DB_MAX_CONNS=60"
#   BENCH_PPROF (empty)    e.g. 127.0.0.1:6060: Ferry serves net/http/pprof there
#   BENCH_PG_WAITS (empty) 1: sample PostgreSQL's busy backends of the bench database every 100 ms
#                          (what each waits on, or CPU, and its statement) into <log dir>/pg-waits.txt
#   BENCH_PG_STATEMENTS (empty) 1: what PostgreSQL ran for each scenario (pg_stat_statements:
#                          calls, rows, time and WAL per request), printed and kept in the results
#   BENCH_GROW (empty)     e.g. 2000000: that many events of history (each delivered, half of them
#                          inbound captures) written and vacuumed before the scenarios, so they run on
#                          grown tables and indexes, as in production, instead of empty ones
#   BENCH_RECORD (empty)   1: also copy the results to docs/bench/runs/<UTC date-time>-<commit>.json
#                          (commit it, then `make bench-plots`; see docs/benchmarks.md)
set -euo pipefail

SCRIPT_DIR="$(cd -P -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd -P)"
REPO_ROOT="$(cd -P -- "$SCRIPT_DIR/.." && pwd -P)"
cd "$REPO_ROOT"

DURATION="${BENCH_DURATION:-30s}"
OUT="${BENCH_OUT:-bench-results.json}"
STAMP="$(date -u +%Y%m%d%H%M%S)"
DB="ferry_bench_$STAMP"
PREFIX="bench$STAMP."
LOGDIR="$(mktemp -d /tmp/ferry-bench.XXXXXX)"

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

tcp_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
# Reuse services that already answer on the configured ports (e.g. started
# from another worktree); otherwise start them.
if tcp_open "${FERRY_PG_PORT:-54329}" && tcp_open "${FERRY_KAFKA_PORT:-19092}"; then
  echo "bench: using the PostgreSQL and Kafka already running on ${FERRY_PG_PORT:-54329} / ${FERRY_KAFKA_PORT:-19092}"
else
  bash scripts/services.sh start
fi
eval "$(bash scripts/env.sh)"
# Tenants sign up through the link mailed to them: the mail catcher
# receives it (Ferry in dev mode sends to it by default).
eval "$(bash scripts/mail.sh start)"
ADMIN_URL="$FERRY_DATABASE_URL"
BENCH_DB_URL="${ADMIN_URL%/*}/$DB?sslmode=disable"

echo "bench: building ferry and ferry-load"
go build -o bin/ferry ./app/cmd/ferry
go build -o bin/ferry-load ./tests/load/cmd/ferry-load

# A run killed before its cleanup leaves its topics (bench<stamp>.*).
if left="$(./bin/ferry-load topics -brokers "$FERRY_KAFKA_BROKERS" -prefix bench 2>&1)" && [[ "$left" != "0 topics"* ]]; then
  echo "bench: WARNING: Kafka holds $left of earlier bench runs, which this run shares the broker with;" \
    "drop them with: ./bin/ferry-load topics -brokers $FERRY_KAFKA_BROKERS -prefix bench -drop" >&2
fi

FERRY_PID=""
SINK_PID=""
WAITS_PID=""
cleanup() {
  set +e
  [[ -n "$WAITS_PID" ]] && kill "$WAITS_PID" 2>/dev/null
  [[ -n "$FERRY_PID" ]] && kill -TERM "$FERRY_PID" 2>/dev/null && wait "$FERRY_PID" 2>/dev/null
  [[ -n "$SINK_PID" ]] && kill -TERM "$SINK_PID" 2>/dev/null && wait "$SINK_PID" 2>/dev/null
  local dropped="$DB" out
  if ! out="$(./bin/ferry-load dropdb -admin "$ADMIN_URL" -name "$DB" 2>&1)"; then
    echo "bench: WARNING: database $DB not dropped: ${out%%$'\n'*}" >&2
    dropped=""
  fi
  # Topics left behind stay in every later run's metadata, their
  # partitions on the broker. ferry-load speaks Kafka's protocol,
  # so this also works from a worktree without the Kafka jars.
  if out="$(./bin/ferry-load topics -brokers "$FERRY_KAFKA_BROKERS" -prefix "$PREFIX" -drop 2>&1)"; then
    dropped="${dropped:+$dropped and }the $PREFIX* topics"
  else
    echo "bench: WARNING: the $PREFIX* topics were not deleted: ${out%%$'\n'*}" >&2
  fi
  echo "bench: stopped Ferry and the sink${dropped:+, dropped $dropped} (logs in $LOGDIR)"
}
trap cleanup EXIT

./bin/ferry-load createdb -admin "$ADMIN_URL" -name "$DB"

if [[ "${BENCH_PG_WAITS:-}" == 1 ]]; then
  command -v psql >/dev/null || { echo "bench: BENCH_PG_WAITS needs psql (PostgreSQL's client)" >&2; exit 1; }
  psql "$ADMIN_URL" -X -q -A -t -F'|' >"$LOGDIR/pg-waits.txt" 2>&1 <<SQL &
SELECT to_char(clock_timestamp(), 'HH24:MI:SS.MS'), coalesce(wait_event_type, 'CPU') || ':' || coalesce(wait_event, '-'),
  left(regexp_replace(query, '\s+', ' ', 'g'), 80), count(*)
FROM pg_stat_activity WHERE datname = '$DB' AND state IN ('active', 'idle in transaction') AND pid <> pg_backend_pid()
GROUP BY 1, 2, 3 ORDER BY 4 DESC
\watch 0.1
SQL
  WAITS_PID=$!
  echo "bench: sampling PostgreSQL's busy backends into $LOGDIR/pg-waits.txt"
fi

STATEMENTS_FLAG=""
if [[ "${BENCH_PG_STATEMENTS:-}" == 1 ]]; then
  command -v psql >/dev/null || { echo "bench: BENCH_PG_STATEMENTS needs psql (PostgreSQL's client)" >&2; exit 1; }
  [[ "$(psql "$ADMIN_URL" -X -A -t -c 'SHOW shared_preload_libraries')" == *pg_stat_statements* ]] || {
    echo "bench: BENCH_PG_STATEMENTS needs pg_stat_statements preloaded: restart PostgreSQL (make stop && make services)" >&2; exit 1; }
  # Tracked in the bench's database only, set before Ferry connects.
  psql "$BENCH_DB_URL" -X -q -c "CREATE EXTENSION IF NOT EXISTS pg_stat_statements" \
    -c "ALTER DATABASE $DB SET pg_stat_statements.track = 'top'" || exit 1
  STATEMENTS_FLAG="-pg-statements"
fi

SINK_ADDR="127.0.0.1:$(free_port)"
./bin/ferry-load sink -addr "$SINK_ADDR" >"$LOGDIR/sink.log" 2>&1 &
SINK_PID=$!

FERRY_ADDR="127.0.0.1:$(free_port)"
# shellcheck disable=SC2086
env FERRY_ENV=dev FERRY_HTTP_ADDR="$FERRY_ADDR" FERRY_DATABASE_URL="$BENCH_DB_URL" \
  FERRY_KAFKA_TOPIC_PREFIX="$PREFIX" FERRY_KAFKA_GROUP="bench$STAMP" \
  FERRY_API_RATE_LIMIT=1000000 FERRY_RETRY_SCALE=0.1 FERRY_LOG_LEVEL=warn \
  FERRY_PPROF_ADDR="${BENCH_PPROF:-}" ${BENCH_FERRY_ENV:-} \
  ./bin/ferry serve >"$LOGDIR/ferry.log" 2>&1 &
FERRY_PID=$!

for _ in $(seq 1 300); do
  curl -fsS "http://$FERRY_ADDR/readyz" >/dev/null 2>&1 && break
  kill -0 "$FERRY_PID" 2>/dev/null || { tail -n 30 "$LOGDIR/ferry.log" >&2; echo "bench: ferry exited" >&2; exit 1; }
  sleep 0.2
done
curl -fsS "http://$FERRY_ADDR/readyz" >/dev/null || { echo "bench: ferry not ready" >&2; exit 1; }
echo "bench: Ferry pid $FERRY_PID at http://$FERRY_ADDR (db $DB, topics $PREFIX*), sink pid $SINK_PID at http://$SINK_ADDR"
if [[ -n "${BENCH_GROW:-}" ]]; then
  ./bin/ferry-load grow -db "$BENCH_DB_URL" -events "$BENCH_GROW"
fi

./bin/ferry-load bench -ferry "http://$FERRY_ADDR" -db "$BENCH_DB_URL" -sink "http://$SINK_ADDR" -pid "$FERRY_PID" \
  -duration "$DURATION" -only "${BENCH_ONLY:-}" -out "$OUT" -guard "${BENCH_GUARD:-}" $STATEMENTS_FLAG \
  -note "make bench: FERRY_ENV=dev FERRY_RETRY_SCALE=0.1 FERRY_API_RATE_LIMIT=1000000 ${BENCH_FERRY_ENV:-}${BENCH_GROW:+; grown by $BENCH_GROW events of history}; per-scenario duration $DURATION; Ferry, sink, generator, PostgreSQL and Kafka on the same machine"

if [[ "${BENCH_RECORD:-}" == 1 ]]; then
  rev="$(git rev-parse --short HEAD)"
  git diff --quiet HEAD -- || rev="$rev-dirty"
  RECORD="docs/bench/runs/${STAMP:0:4}-${STAMP:4:2}-${STAMP:6:2}-${STAMP:8:4}-$rev.json" # the start, UTC
  mkdir -p docs/bench/runs
  cp "$OUT" "$RECORD"
  echo "bench: recorded as $RECORD; run 'make bench-plots' and commit both"
fi
