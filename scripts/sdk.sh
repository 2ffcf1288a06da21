#!/usr/bin/env bash
# The receiver SDKs' toolchains, Redis, and their test suites.
#
# Usage: bash scripts/sdk.sh <command>
#   setup   install what the suites need (idempotent; fast when done):
#           redis-server (apt-get, when root), the Python virtual environment
#           .ferry/venv (from PyPI, never the system Python), and
#           sdk/typescript/node_modules (npm ci) plus its build (dist/)
#   redis   start Redis on 127.0.0.1:$FERRY_REDIS_PORT (16379), state in .ferry/redis
#   stop    stop that Redis
#   env     print `export FERRY_TEST_REDIS_URL=…` (eval it)
#   test    setup, start Redis if it is not running, run the Go, Node and
#           Python suites, and stop Redis again if this run started it
#
# PostgreSQL store tests use FERRY_TEST_DATABASE_URL (scripts/env.sh when
# unset; start PostgreSQL with `make services`). A suite that finds no
# service fails and says how to start it.
set -euo pipefail

SCRIPT_DIR="$(cd -P -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd -P)"
REPO_ROOT="$(cd -P -- "$SCRIPT_DIR/.." && pwd -P)"
STATE_DIR="$REPO_ROOT/.ferry"
VENV="$STATE_DIR/venv"
REDIS_DIR="$STATE_DIR/redis"
REDIS_PORT="${FERRY_REDIS_PORT:-16379}"
TS_DIR="$REPO_ROOT/sdk/typescript"
PY_DIR="$REPO_ROOT/sdk/python"

log() { printf 'sdk: %s\n' "$*" >&2; }

hash_of() { cat "$@" | sha256sum | cut -c1-16; }

ensure_redis_server() {
  command -v redis-server >/dev/null && return 0
  if [[ "$(id -u)" == 0 ]] && command -v apt-get >/dev/null; then
    log "installing redis-server (apt-get)"
    # Debian starts an installed service unless policy-rc.d says no; the
    # suites run their own Redis on a private port, so forbid it.
    local policy=/usr/sbin/policy-rc.d made_policy=0
    if [[ ! -e "$policy" ]]; then
      printf '#!/bin/sh\nexit 101\n' >"$policy" && chmod 755 "$policy" && made_policy=1
    fi
    DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends redis-server >/dev/null
    if [[ "$made_policy" == 1 ]]; then rm -f "$policy"; fi
    command -v redis-server >/dev/null && return 0
  fi
  log "redis-server is missing; install it with: sudo apt-get install -y redis-server"
  return 1
}

ensure_venv() {
  local want
  want="$(hash_of "$PY_DIR/pyproject.toml" "$PY_DIR/requirements-test.txt")"
  if [[ -x "$VENV/bin/python" && "$(cat "$VENV/.ferry-stamp" 2>/dev/null)" == "$want" ]]; then
    return 0
  fi
  log "creating the Python virtual environment in .ferry/venv"
  mkdir -p "$STATE_DIR"
  local py="${FERRY_PYTHON:-python3}"
  "$py" -m venv "$VENV"
  "$VENV/bin/python" -m pip install -q --upgrade pip >/dev/null
  "$VENV/bin/python" -m pip install -q -r "$PY_DIR/requirements-test.txt" -e "$PY_DIR"
  printf '%s' "$want" >"$VENV/.ferry-stamp"
}

ensure_node() {
  command -v npm >/dev/null || { log "npm is missing: install Node.js 18 or newer"; return 1; }
  local want
  want="$(hash_of "$TS_DIR/package-lock.json")"
  if [[ "$(cat "$TS_DIR/node_modules/.ferry-stamp" 2>/dev/null)" != "$want" ]]; then
    log "installing sdk/typescript devDependencies (npm ci)"
    (cd "$TS_DIR" && npm ci --no-audit --no-fund --loglevel=error)
    printf '%s' "$want" >"$TS_DIR/node_modules/.ferry-stamp"
  fi
  (cd "$TS_DIR" && npm run --silent build)
}

redis_up() { redis-cli -h 127.0.0.1 -p "$REDIS_PORT" ping 2>/dev/null | grep -q PONG; }

start_redis() {
  ensure_redis_server
  redis_up && return 0
  mkdir -p "$REDIS_DIR"
  redis-server --bind 127.0.0.1 --port "$REDIS_PORT" --dir "$REDIS_DIR" \
    --daemonize yes --pidfile "$REDIS_DIR/redis.pid" --logfile "$REDIS_DIR/redis.log" \
    --save '' --appendonly no >/dev/null
  for _ in $(seq 1 50); do
    redis_up && return 0
    sleep 0.1
  done
  log "Redis did not start on 127.0.0.1:$REDIS_PORT; see $REDIS_DIR/redis.log"
  return 1
}

stop_redis() {
  if redis_up; then
    redis-cli -h 127.0.0.1 -p "$REDIS_PORT" shutdown nosave >/dev/null 2>&1 || true
  fi
  rm -f "$REDIS_DIR/redis.pid"
}

print_env() {
  printf "export FERRY_TEST_REDIS_URL='redis://127.0.0.1:%s/0'\n" "$REDIS_PORT"
}

run_tests() {
  ensure_venv
  ensure_node
  local started=0
  if ! redis_up; then
    start_redis
    started=1
  fi
  if [[ "$started" == 1 ]]; then trap stop_redis EXIT; fi
  if [[ -z "${FERRY_TEST_DATABASE_URL:-}" ]]; then
    eval "$(bash "$SCRIPT_DIR/env.sh")"
  fi
  eval "$(print_env)"
  export FERRY_TEST_DATABASE_URL FERRY_TEST_REDIS_URL
  local failed=()
  log "Go: sdk/go"
  (cd "$REPO_ROOT/sdk/go" && go vet ./... && go test -count=1 ./...) || failed+=(go)
  log "Node: sdk/typescript"
  (cd "$TS_DIR" && npm test --silent) || failed+=(node)
  log "Python: sdk/python"
  (cd "$PY_DIR" && "$VENV/bin/python" -m mypy --strict src/ferry_webhooks && "$VENV/bin/python" -m pytest -q) || failed+=(python)
  if ((${#failed[@]})); then
    log "failed: ${failed[*]}"
    return 1
  fi
  log "all three SDK suites passed"
}

case "${1:-}" in
  setup) ensure_redis_server; ensure_venv; ensure_node ;;
  redis) start_redis; print_env ;;
  stop) stop_redis ;;
  env) print_env ;;
  test) run_tests ;;
  *) sed -n '2,17p' "$0" >&2; exit 2 ;;
esac
