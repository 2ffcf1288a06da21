#!/usr/bin/env bash
# The official Standard Webhooks and Svix verification libraries, from npm
# and PyPI, for the test that has them verify real Ferry deliveries
# (tests/strict_mode_test.go). Installed once into .ferry/verifiers;
# quick when present.
#
#   bash scripts/verifiers.sh install   install when missing
#   bash scripts/verifiers.sh env       install, then print the exports the test reads:
#                                       FERRY_TEST_VERIFIERS_NODE_PATH, FERRY_TEST_VERIFIERS_PYTHON
set -euo pipefail
cd "$(dirname "$0")/.."
DIR=$PWD/.ferry/verifiers
# Pinned: the test is about these libraries' behaviour (their 5-minute
# timestamp tolerance), so a new release is taken on purpose.
NPM_PACKAGES="standardwebhooks@1.1.1 svix@2.5.0"
PY_PACKAGES="standardwebhooks==1.1.0 svix==2.9.1"
MARK="$NPM_PACKAGES / $PY_PACKAGES"

say() { echo "verifiers: $*" >&2; }

install() {
  if [[ -f $DIR/installed && "$(cat "$DIR/installed")" == "$MARK" ]]; then
    return
  fi
  command -v npm >/dev/null || { say "npm is needed (Node.js)"; exit 1; }
  command -v python3 >/dev/null || { say "python3 is needed"; exit 1; }
  say "installing $NPM_PACKAGES (npm) and $PY_PACKAGES (PyPI) into .ferry/verifiers"
  rm -rf "$DIR"
  mkdir -p "$DIR/node"
  (cd "$DIR/node" && npm init -y >/dev/null && npm install --no-audit --no-fund --silent $NPM_PACKAGES >&2)
  python3 -m venv "$DIR/venv"
  "$DIR/venv/bin/pip" install --quiet --disable-pip-version-check $PY_PACKAGES >&2
  echo "$MARK" >"$DIR/installed"
}

case "${1:-}" in
  install) install ;;
  env)
    install
    printf "export FERRY_TEST_VERIFIERS_NODE_PATH='%s'\n" "$DIR/node/node_modules"
    printf "export FERRY_TEST_VERIFIERS_PYTHON='%s'\n" "$DIR/venv/bin/python"
    ;;
  *) echo "usage: bash scripts/verifiers.sh install|env" >&2; exit 2 ;;
esac
