#!/usr/bin/env bash
# Local mail catcher for Ferry: mailpit (SMTP + web inbox + HTTP API) on
# loopback, built once with `go install` into .ferry/bin and reused.
#
# Usage: bash scripts/mail.sh <command>
#   start    build mailpit if missing, start it if not running (idempotent),
#            then print `export …` lines for the caller to eval:
#              FERRY_SMTP_URL, FERRY_TEST_SMTP_URL  smtp://127.0.0.1:<smtp port>
#              FERRY_TEST_MAIL_API                  http://127.0.0.1:<web port>
#   stop     stop it
#   status   print whether it runs and its inbox URL
#   url      print the web inbox URL
#
# Environment: FERRY_MAIL_SMTP_PORT (19025), FERRY_MAIL_WEB_PORT (19026),
# FERRY_STATE_DIR (default <repo>/.ferry).
# Everything but the export lines goes to stderr, so
#   eval "$(bash scripts/mail.sh start)"
# works.
set -euo pipefail

SCRIPT_DIR="$(cd -P -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd -P)"
REPO_ROOT="$(cd -P -- "$SCRIPT_DIR/.." && pwd -P)"
STATE_DIR="${FERRY_STATE_DIR:-$REPO_ROOT/.ferry}"
MAILPIT_VERSION=v1.27.11
BIN="$STATE_DIR/bin/mailpit"
MAIL_DIR="$STATE_DIR/mail"
SMTP_PORT="${FERRY_MAIL_SMTP_PORT:-19025}"
WEB_PORT="${FERRY_MAIL_WEB_PORT:-19026}"
WEB_URL="http://127.0.0.1:$WEB_PORT"

say() { echo "mail: $*" >&2; }

running() { curl -fsS -o /dev/null --max-time 2 "$WEB_URL/api/v1/info" 2>/dev/null; }

build() {
  if [[ -x "$BIN" && -f "$BIN.version" && "$(cat "$BIN.version")" == "$MAILPIT_VERSION" ]]; then
    return
  fi
  say "building mailpit $MAILPIT_VERSION into $STATE_DIR/bin (once; takes a few minutes)"
  mkdir -p "$STATE_DIR/bin"
  GOBIN="$STATE_DIR/bin" go install "github.com/axllent/mailpit@$MAILPIT_VERSION" >&2
  echo "$MAILPIT_VERSION" >"$BIN.version"
}

start() {
  if ! running; then
    build
    mkdir -p "$MAIL_DIR"
    # Accept any SMTP login without TLS: it is a loopback catcher only.
    nohup "$BIN" --listen "127.0.0.1:$WEB_PORT" --smtp "127.0.0.1:$SMTP_PORT" \
      --smtp-auth-accept-any --smtp-auth-allow-insecure \
      --database "$MAIL_DIR/mailpit.db" --max 2000 \
      >"$MAIL_DIR/mailpit.log" 2>&1 &
    echo $! >"$MAIL_DIR/mailpit.pid"
    for _ in $(seq 1 50); do
      running && break
      sleep 0.1
    done
    running || { say "mailpit did not start; see $MAIL_DIR/mailpit.log"; exit 1; }
    say "mail catcher started"
  fi
  say "mail catcher inbox (every mail Ferry sends locally): $WEB_URL/"
  printf "export FERRY_SMTP_URL='smtp://127.0.0.1:%s'\n" "$SMTP_PORT"
  printf "export FERRY_TEST_SMTP_URL='smtp://127.0.0.1:%s'\n" "$SMTP_PORT"
  printf "export FERRY_TEST_MAIL_API='%s'\n" "$WEB_URL"
}

stop() {
  if [[ -f "$MAIL_DIR/mailpit.pid" ]]; then
    kill "$(cat "$MAIL_DIR/mailpit.pid")" 2>/dev/null || true
    rm -f "$MAIL_DIR/mailpit.pid"
  fi
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  status) if running; then echo "mailpit: running, inbox $WEB_URL/"; else echo "mailpit: stopped"; exit 3; fi ;;
  url) echo "$WEB_URL/" ;;
  *) echo "usage: bash scripts/mail.sh start|stop|status|url" >&2; exit 2 ;;
esac
