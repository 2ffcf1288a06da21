#!/usr/bin/env bash
# Validates Ferry's two OpenAPI documents (`ferry openapi` and `ferry
# openapi --internal`) with validators independent of the Go code that
# writes them: frontend/tools/openapi-check.mjs checks each against the
# OpenAPI 3.1 schema (@seriousme/openapi-schema-validator) and every
# example against its schema (Ajv, JSON Schema 2020-12). The npm packages
# are the portal's dev dependencies, installed by `scripts/frontend.sh
# deps` (npm ci, skipped when node_modules matches the lock file).
#
# Needs Node.js and npm. Without them it fails under CI=true and only
# warns elsewhere (go test still checks the documents with kin-openapi).
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  if [[ ${CI:-} == true ]]; then
    echo "openapi: Node.js and npm are needed to validate the OpenAPI documents (Debian: apt-get install -y nodejs npm)" >&2
    exit 1
  fi
  echo "openapi: Node.js is not installed: the OpenAPI documents were not validated independently (go test still checks them)" >&2
  exit 0
fi
bash scripts/frontend.sh deps
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
go run ./app/cmd/ferry openapi >"$dir/openapi.json"
go run ./app/cmd/ferry openapi --internal >"$dir/openapi-internal.json"
node frontend/tools/openapi-check.mjs "$dir/openapi.json" "$dir/openapi-internal.json"
