#!/usr/bin/env bash
# Builds and tests Ferry's portal (frontend/, React + TypeScript + Vite).
#
#   scripts/frontend.sh api     regenerate the API types from the Go code:
#                               `ferry openapi` writes frontend/src/openapi.json
#                               and `ferry openapi --internal`
#                               frontend/src/openapi-internal.json;
#                               openapi-typescript turns them into
#                               frontend/src/api.gen.ts and api-internal.gen.ts
#                               (all checked in)
#   scripts/frontend.sh build   npm ci when node_modules is missing or the
#                               lock file changed, `api` when Go is installed,
#                               then tsc (against the generated types) and
#                               `vite build` into frontend/dist/app (skipped
#                               when the sources are unchanged since the last
#                               build)
#   scripts/frontend.sh test    Vitest unit tests, then the browser tests in
#                               tests/browser: playwright-core drives Debian's
#                               Chromium against the real ferry binary on the
#                               services named by FERRY_TEST_DATABASE_URL and
#                               FERRY_TEST_KAFKA_BROKERS (scripts/env.sh)
#
# Never downloads a browser: Chromium comes from Debian (apt-get as root).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
fe=$root/frontend
cmd=${1:-build}

say() { echo "frontend: $*"; }

need_node() {
  if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
    say "Node.js and npm are needed to build the portal (Debian: apt-get install -y nodejs npm)." >&2
    exit 1
  fi
}

hash_of() { sha256sum "$@" | sha256sum | cut -d' ' -f1; }

# deps installs node_modules with `npm ci` when missing or stale.
deps() {
  need_node
  local want have=""
  want=$(hash_of "$fe/package.json" "$fe/package-lock.json")
  [[ -f $fe/node_modules/.ferry-lock-hash ]] && have=$(cat "$fe/node_modules/.ferry-lock-hash")
  if [[ ! -d $fe/node_modules || $want != "$have" ]]; then
    say "installing npm packages (npm ci)"
    (cd "$fe" && npm ci --no-audit --no-fund --loglevel=error)
    echo "$want" >"$fe/node_modules/.ferry-lock-hash"
  fi
}

# api regenerates the OpenAPI documents from the Go types and the portal's
# TypeScript types from them: the tenant API's (`ferry openapi`,
# src/openapi.json -> src/api.gen.ts) and the internal routes' (`ferry
# openapi --internal`, src/openapi-internal.json -> src/api-internal.gen.ts);
# src/apiSchemas.ts joins their schemas. go test
# (TestOpenAPIDocumentFileIsCurrent) and `npm run build` (api:check) fail
# when the checked-in copies are stale; tsc then fails wherever the portal
# disagrees with the API.
api() {
  deps
  local name flag doc gen tmp
  for name in openapi openapi-internal; do
    flag=; gen=api.gen.ts
    if [[ $name == openapi-internal ]]; then flag=--internal; gen=api-internal.gen.ts; fi
    doc=$fe/src/$name.json
    tmp=$(mktemp)
    if ! go run ./app/cmd/ferry openapi $flag >"$tmp"; then
      rm -f "$tmp"
      say "could not print the OpenAPI document (go run ./app/cmd/ferry openapi $flag)" >&2
      exit 1
    fi
    if cmp -s "$tmp" "$doc"; then
      rm -f "$tmp"
    else
      say "the API changed: updating frontend/src/$name.json"
      mv "$tmp" "$doc"
      chmod 644 "$doc"
    fi
    if ! (cd "$fe" && npx --no-install openapi-typescript "src/$name.json" -o "src/$gen" --check >/dev/null 2>&1); then
      say "updating frontend/src/$gen"
      (cd "$fe" && npx --no-install openapi-typescript "src/$name.json" -o "src/$gen" >/dev/null)
    fi
  done
}

# build runs `vite build` unless dist/app was built from these very sources.
build() {
  deps
  if command -v go >/dev/null; then
    api
  else
    say "Go is not installed: building against the checked-in API types (frontend/src/openapi.json)"
  fi
  local stamp=$fe/.build-stamp want have=""
  want=$(cd "$fe" && hash_of index.html vite.config.ts tsconfig.json package-lock.json $(find src public apidocs -type f | LC_ALL=C sort))
  [[ -f $stamp ]] && have=$(cat "$stamp")
  if [[ -f $fe/dist/app/index.html && $want == "$have" ]]; then
    say "portal is up to date (frontend/dist/app)"
    return
  fi
  say "building the portal into frontend/dist/app"
  (cd "$fe" && npm run --silent build)
  echo "$want" >"$stamp"
}

# chromium makes sure Debian's Chromium is installed (never a downloaded browser).
chromium() {
  [[ -x /usr/bin/chromium ]] && return
  if [[ $(id -u) -eq 0 ]]; then
    say "installing Chromium from Debian packages"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  else
    say "Chromium is missing. Install it with: sudo apt-get update && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y chromium" >&2
    exit 1
  fi
}

run_tests() {
  chromium
  build
  say "unit tests (Vitest)"
  (cd "$fe" && npx --no-install vitest run --reporter=dot)
  say "building the ferry binary with the portal"
  mkdir -p bin
  go build -o bin/ferry-browser-test ./app/cmd/ferry
  if [[ -z ${FERRY_TEST_DATABASE_URL:-} || -z ${FERRY_TEST_KAFKA_BROKERS:-} ]]; then
    say "FERRY_TEST_DATABASE_URL and FERRY_TEST_KAFKA_BROKERS are not set; start the services (make services) and run: eval \"\$(bash scripts/env.sh)\"" >&2
    exit 1
  fi
  say "browser tests (playwright-core + /usr/bin/chromium); screenshots in tests/screenshots/"
  # The account tests follow emailed links from the local mail catcher.
  mail_vars=$(bash scripts/mail.sh start)
  eval "$mail_vars"
  # Screenshots are of this run only.
  mkdir -p tests/screenshots
  rm -f tests/screenshots/*.png
  # Each test is bounded in its file; the whole suite by timeout(1).
  FERRY_BIN=$root/bin/ferry-browser-test timeout --kill-after=10 600 \
    node --test --test-concurrency=1 --test-reporter=spec ${FERRY_BROWSER_TEST_ARGS:-} tests/browser/portal.test.mjs tests/browser/accounts.test.mjs tests/browser/insights.test.mjs tests/browser/sources.test.mjs tests/browser/embed.test.mjs tests/browser/customers.test.mjs tests/browser/apidocs.test.mjs
}

case $cmd in
  api) api ;;
  build) build ;;
  deps) deps ;;
  test) run_tests ;;
  *) say "unknown command $cmd (use api, build or test)" >&2; exit 1 ;;
esac
