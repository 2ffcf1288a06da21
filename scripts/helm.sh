#!/usr/bin/env bash
# Helm for Ferry's chart (deploy/helm/ferry), built once with `go install`
# into .ferry/bin (no download of a prebuilt binary).
#
#   bash scripts/helm.sh install   install helm when missing; print its path
#   bash scripts/helm.sh check     helm lint --strict and helm template with
#                                  deploy/helm/ferry/values-example.yaml
#
# The first install compiles Helm: about 3.5 minutes on a cold Go module
# cache with two cores, seconds after that.
set -euo pipefail
cd "$(dirname "$0")/.."
HELM_VERSION=v3.22.0
BIN=$PWD/.ferry/bin/helm
CHART=deploy/helm/ferry
EXAMPLE=$CHART/values-example.yaml

say() { echo "helm: $*" >&2; }

# A marker beside the binary names the version it was built from (a helm
# built by go install reports only its minor version).
install() {
  if [[ -x $BIN && -f $BIN.version && "$(cat "$BIN.version")" == "$HELM_VERSION" ]]; then
    echo "$BIN"
    return
  fi
  command -v go >/dev/null || { say "Go is needed to build helm"; exit 1; }
  say "building helm $HELM_VERSION into .ferry/bin (once; takes a few minutes)"
  mkdir -p "$(dirname "$BIN")"
  GOBIN=$(dirname "$BIN") go install "helm.sh/helm/v3/cmd/helm@$HELM_VERSION" >&2
  echo "$HELM_VERSION" >"$BIN.version"
  echo "$BIN"
}

check() {
  local helm out
  helm=$(install)
  "$helm" lint --strict "$CHART" -f "$EXAMPLE" >/dev/null || "$helm" lint --strict "$CHART" -f "$EXAMPLE"
  out=$(mktemp)
  trap 'rm -f "$out"' RETURN
  "$helm" template ferry "$CHART" -f "$EXAMPLE" >"$out"
  say "chart lints and renders $(grep -c '^kind:' "$out") objects with $EXAMPLE"
}

case ${1:-} in
  install) install ;;
  check) check ;;
  *) sed -n '2,/^set -euo/p' "$0" | sed -e '/^set -euo/d' -e 's/^# \{0,1\}//' >&2; exit 2 ;;
esac
