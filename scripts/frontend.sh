#!/usr/bin/env bash
# Builds or tests the portal when its sources exist. Until then the Go
# binary embeds the committed placeholder in frontend/dist.
set -euo pipefail
cd "$(dirname "$0")/.."
cmd=${1:-build}
if [[ ! -f frontend/package.json ]]; then
  echo "frontend: no frontend/package.json yet; the binary serves the placeholder page"
  exit 0
fi
echo "frontend: unknown command $cmd" >&2
exit 1
