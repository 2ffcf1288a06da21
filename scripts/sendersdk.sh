#!/usr/bin/env bash
# The sender SDKs' generated layers, made from the tenant OpenAPI document.
#
# Usage: bash scripts/sendersdk.sh <command>
#   generate  regenerate the three layers from `ferry openapi`:
#             sdk/go/client/ferryapi/ferryapi.gen.go   (oapi-codegen)
#             sdk/typescript/src/client/schema.ts       (openapi-typescript)
#             sdk/python/src/ferry_webhooks/_api/       (openapi-python-client)
#   check     generate into a scratch copy and fail when the committed
#             files differ from what the current document generates
#
# Generator versions are pinned here (Go, PyPI) and in
# sdk/typescript/package-lock.json (npm); the PyPI generator lives in its
# own virtual environment, .ferry/venv-gen, so it never mixes with the
# SDK's test dependencies. openapi-python-client stays on 0.28: 0.29
# parses date-times with datetime.fromisoformat, which on Python 3.10
# (which the SDK supports) rejects Ferry's trailing "Z".
set -euo pipefail

SCRIPT_DIR="$(cd -P -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd -P)"
REPO_ROOT="$(cd -P -- "$SCRIPT_DIR/.." && pwd -P)"
STATE_DIR="$REPO_ROOT/.ferry"
GEN_VENV="$STATE_DIR/venv-gen"
OAPI_CODEGEN=github.com/oapi-codegen/oapi-codegen/v2/cmd/oapi-codegen@v2.8.2
PY_GENERATOR=openapi-python-client==0.28.4

log() { printf 'sendersdk: %s\n' "$*" >&2; }

ensure_py_generator() {
  if [[ "$(cat "$GEN_VENV/.ferry-stamp" 2>/dev/null)" == "$PY_GENERATOR" ]]; then return 0; fi
  log "installing $PY_GENERATOR into .ferry/venv-gen"
  rm -rf "$GEN_VENV"
  "${FERRY_PYTHON:-python3}" -m venv "$GEN_VENV"
  "$GEN_VENV/bin/python" -m pip install -q --upgrade pip >/dev/null
  "$GEN_VENV/bin/python" -m pip install -q "$PY_GENERATOR"
  printf '%s' "$PY_GENERATOR" >"$GEN_VENV/.ferry-stamp"
}

# generate_into ROOT writes the three generated layers under ROOT, a tree
# laid out like the repository's.
generate_into() {
  local root="$1" doc
  doc="$(mktemp -d)"
  (cd "$REPO_ROOT" && go run ./app/cmd/ferry openapi) >"$doc/openapi.json"

  mkdir -p "$root/sdk/go/client/ferryapi"
  (cd "$REPO_ROOT/sdk/go/client/ferryapi" &&
    go run "$OAPI_CODEGEN" -config oapi-codegen.yaml -o "$root/sdk/go/client/ferryapi/ferryapi.gen.go" "$doc/openapi.json")

  mkdir -p "$root/sdk/typescript/src/client"
  [[ -x "$REPO_ROOT/sdk/typescript/node_modules/.bin/openapi-typescript" ]] ||
    (cd "$REPO_ROOT/sdk/typescript" && npm ci --no-audit --no-fund --loglevel=error)
  (cd "$REPO_ROOT/sdk/typescript" &&
    node_modules/.bin/openapi-typescript "$doc/openapi.json" -o "$root/sdk/typescript/src/client/schema.ts" >/dev/null)

  ensure_py_generator
  mkdir -p "$root/sdk/python/src/ferry_webhooks"
  rm -rf "$root/sdk/python/src/ferry_webhooks/_api"
  (cd "$doc" && "$GEN_VENV/bin/openapi-python-client" generate --path "$doc/openapi.json" \
    --config "$REPO_ROOT/sdk/python/openapi-python-client.yaml" --meta none \
    --output-path "$root/sdk/python/src/ferry_webhooks/_api" >/dev/null)
  rm -rf "$doc"
}

GENERATED=(sdk/go/client/ferryapi/ferryapi.gen.go sdk/typescript/src/client/schema.ts sdk/python/src/ferry_webhooks/_api)

check() {
  SCRATCH="$(mktemp -d)"
  trap 'rm -rf "$SCRATCH"' EXIT
  local scratch="$SCRATCH"
  generate_into "$scratch"
  local p bad=0
  for p in "${GENERATED[@]}"; do
    if ! diff -r -q "$REPO_ROOT/$p" "$scratch/$p" >/dev/null 2>&1; then
      diff -r -u "$REPO_ROOT/$p" "$scratch/$p" | head -40 >&2 || true
      log "$p differs from what the current OpenAPI document generates: run 'bash scripts/sendersdk.sh generate' and commit the result"
      bad=1
    fi
  done
  return "$bad"
}

case "${1:-}" in
  generate) generate_into "$REPO_ROOT" && log "generated ${GENERATED[*]}" ;;
  check) check && log "generated sender SDK code is up to date" ;;
  *) sed -n '2,16p' "$0" >&2; exit 2 ;;
esac
