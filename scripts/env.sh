#!/usr/bin/env bash
# Connection settings for the local services started by scripts/services.sh.
#
#   bash scripts/env.sh          print `export NAME='value'` lines
#   eval "$(bash scripts/env.sh)"
#   . scripts/env.sh             (bash/zsh/sh) export them into the current shell
#
# Ports follow FERRY_PG_PORT (54329) and FERRY_KAFKA_PORT (19092), like
# services.sh. FERRY_KAFKA_CONTROLLER_PORT (19093) only matters to services.sh.
# Kept POSIX-sh compatible and free of `set -e` so that sourcing it cannot
# change the options of the caller's shell.

_ferry_pg_port="${FERRY_PG_PORT:-54329}"
_ferry_kafka_port="${FERRY_KAFKA_PORT:-19092}"
_ferry_db_url="postgres://ferry@127.0.0.1:${_ferry_pg_port}/ferry?sslmode=disable"
_ferry_brokers="127.0.0.1:${_ferry_kafka_port}"

_ferry_sourced=0
if [ -n "${BASH_VERSION:-}" ]; then
  eval '[ "${BASH_SOURCE[0]}" != "$0" ]' && _ferry_sourced=1
elif [ -n "${ZSH_VERSION:-}" ]; then
  case "${ZSH_EVAL_CONTEXT:-}" in *:file*) _ferry_sourced=1 ;; esac
else
  case "${0##*/}" in env.sh) ;; *) _ferry_sourced=1 ;; esac
fi

if [ "$_ferry_sourced" = 1 ]; then
  export FERRY_DATABASE_URL="$_ferry_db_url"
  export FERRY_KAFKA_BROKERS="$_ferry_brokers"
  export FERRY_TEST_DATABASE_URL="$_ferry_db_url"
  export FERRY_TEST_KAFKA_BROKERS="$_ferry_brokers"
  unset _ferry_pg_port _ferry_kafka_port _ferry_db_url _ferry_brokers _ferry_sourced
else
  set -eu
  printf "export FERRY_DATABASE_URL='%s'\n" "$_ferry_db_url"
  printf "export FERRY_KAFKA_BROKERS='%s'\n" "$_ferry_brokers"
  printf "export FERRY_TEST_DATABASE_URL='%s'\n" "$_ferry_db_url"
  printf "export FERRY_TEST_KAFKA_BROKERS='%s'\n" "$_ferry_brokers"
fi
