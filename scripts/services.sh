#!/usr/bin/env bash
# Local PostgreSQL + single-node Apache Kafka (KRaft) for Ferry, without Docker.
#
# Usage: bash scripts/services.sh <command>
#   start          start PostgreSQL and Kafka (installs / initialises on first use)
#   stop           stop both
#   status         print the state of both (exit 0 if both run, 3 otherwise)
#   clean          stop both, then delete all local state (<repo>/.ferry)
#   pg-start       start PostgreSQL only        pg-stop      stop PostgreSQL only
#   kafka-start    start Kafka only             kafka-stop   stop Kafka only
#   kafka-restart  stop + start Kafka only
#   kafka-run CLASS [ARGS...]
#                  run a Kafka CLI class with the broker's jars, e.g.
#                  kafka-run org.apache.kafka.tools.TopicCommand --bootstrap-server 127.0.0.1:19092 --list
#
# Environment:
#   FERRY_PG_PORT (54329)  FERRY_KAFKA_PORT (19092)  FERRY_KAFKA_CONTROLLER_PORT (19093)
#   FERRY_STATE_DIR        state directory (default <repo>/.ferry); a second,
#                          private set of services (fault tests, chaos) uses its
#                          own directory and ports; `clean` only deletes a
#                          directory named .ferry, .ferry-* or ferry-*
#   FERRY_KAFKA_LIBS       directory of the Kafka jars (default <state>/kafka/libs);
#                          private sets reuse the repo's downloaded jars
#   FERRY_KAFKA_NODE_ID (1)  FERRY_KAFKA_QUORUM_VOTERS (1@127.0.0.1:<controller port>)
#   FERRY_KAFKA_CLUSTER_ID   storage format id (default: random); the nodes of
#                          a multi-broker cluster (make chaos) share one
#   FERRY_KAFKA_REPLICATION (1)  default and internal-topic replication factor
#   FERRY_KAFKA_MIN_ISR (1)      min.insync.replicas default
#   FERRY_KAFKA_REPLICA_LAG_MS   replica.lag.time.max.ms (Kafka's default, 30 s, when
#                          unset): how soon a dead follower leaves the in-sync
#                          replicas, which acks=all produces wait for
#   FERRY_KAFKA_SESSION_TIMEOUT_MS  broker.session.timeout.ms (Kafka's default, 9 s):
#                          how soon the controller fences a dead broker
#   FERRY_PG_BIN           directory holding initdb/pg_ctl (default: newest /usr/lib/postgresql/*/bin)
#   FERRY_KAFKA_HEAP_OPTS  JVM heap for the broker (default: -Xms256m -Xmx512m)
#   FERRY_KAFKA_SASL_PORT  when set, the broker also listens there with SASL/SCRAM
#                          (SASL_PLAINTEXT, SCRAM-SHA-256 and -512) and gets the
#                          user FERRY_KAFKA_SASL_USERNAME (ferry) with password
#                          FERRY_KAFKA_SASL_PASSWORD (ferry-local-scram); for the
#                          SASL end-to-end test (see delivery/kafka/sasl_test.go)
#   JAVA_HOME              JDK to use (default: java on PATH; when there is
#                          none, root installs FERRY_JDK_PACKAGE with apt-get)
#   FERRY_JDK_PACKAGE      Debian package of the JDK (default-jdk-headless)
#
# Missing system packages (PostgreSQL, a JDK, Maven) are installed with
# apt-get when running as root; otherwise the exact command is printed.
#
# State lives in <repo>/.ferry:
#   .ferry/pg/      data/ (cluster), run/ (unix socket), postgres.log
#                   (when run as root and the postgres user cannot reach the
#                   repo, .ferry/pg is a symlink to /var/tmp/ferry-<hash>/pg)
#   .ferry/kafka/   libs/ (jars + .version marker), data/, logs/server.log,
#                   server.properties, kafka.out (stdout/stderr), kafka.pid
set -euo pipefail

SCRIPT_DIR="$(cd -P -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd -P)"
REPO_ROOT="$(cd -P -- "$SCRIPT_DIR/.." && pwd -P)"
STATE_DIR="$REPO_ROOT/.ferry"
HASH_SRC="$REPO_ROOT"
if [[ -n "${FERRY_STATE_DIR:-}" ]]; then
  mkdir -p "$FERRY_STATE_DIR"
  STATE_DIR="$(cd -P -- "$FERRY_STATE_DIR" && pwd -P)"
  HASH_SRC="$STATE_DIR"
fi

PG_PORT="${FERRY_PG_PORT:-54329}"
KAFKA_PORT="${FERRY_KAFKA_PORT:-19092}"
KAFKA_CONTROLLER_PORT="${FERRY_KAFKA_CONTROLLER_PORT:-19093}"
KAFKA_SASL_PORT="${FERRY_KAFKA_SASL_PORT:-}"
KAFKA_SASL_USERNAME="${FERRY_KAFKA_SASL_USERNAME:-ferry}"
KAFKA_SASL_PASSWORD="${FERRY_KAFKA_SASL_PASSWORD:-ferry-local-scram}"
PG_USER=ferry
PG_DB=ferry

PG_LINK="$STATE_DIR/pg"
# Fallback location for the PostgreSQL state when running as root and the
# postgres system user cannot traverse the path to the repo (see pg_prepare_dir).
REPO_HASH="$(printf '%s' "$HASH_SRC" | sha256sum | cut -c1-12)"
PG_FALLBACK_ROOT="/var/tmp/ferry-$REPO_HASH"

KAFKA_DIR="$STATE_DIR/kafka"
KAFKA_LIBS="${FERRY_KAFKA_LIBS:-$KAFKA_DIR/libs}"
KAFKA_NODE_ID="${FERRY_KAFKA_NODE_ID:-1}"
KAFKA_REPLICATION="${FERRY_KAFKA_REPLICATION:-1}"
KAFKA_MIN_ISR="${FERRY_KAFKA_MIN_ISR:-1}"
KAFKA_DATA="$KAFKA_DIR/data"
KAFKA_LOGS="$KAFKA_DIR/logs"
KAFKA_PROPS="$KAFKA_DIR/server.properties"
KAFKA_PID_FILE="$KAFKA_DIR/kafka.pid"
KAFKA_OUT="$KAFKA_DIR/kafka.out"
KAFKA_POM="$SCRIPT_DIR/kafka/pom.xml"
KAFKA_LOG4J="$SCRIPT_DIR/kafka/log4j.properties"
KAFKA_TOOLS_LOG4J="$SCRIPT_DIR/kafka/tools-log4j.properties"
KAFKA_HEAP_OPTS="${FERRY_KAFKA_HEAP_OPTS:--Xms256m -Xmx512m}"

PG_START_TIMEOUT=60
KAFKA_START_TIMEOUT=90
KAFKA_STOP_TIMEOUT=30

# Never let the caller's libpq environment redirect our commands elsewhere.
unset PGHOST PGHOSTADDR PGPORT PGUSER PGDATABASE PGSERVICE PGSERVICEFILE PGOPTIONS PGDATA PGSSLMODE PGPASSFILE || true

IS_ROOT=0
[[ "$(id -u)" -eq 0 ]] && IS_ROOT=1

log() { printf '%s\n' "$*"; }
err() { printf 'services.sh: error: %s\n' "$*" >&2; }
die() { err "$@"; exit 1; }

# apt_install WHAT PKG...: install Debian packages when running as root;
# otherwise print the exact command and exit. WHAT says in messages what
# is missing.
apt_install() {
  local what="$1"
  shift
  local cmd="apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y $*"
  if [[ "$IS_ROOT" -ne 1 ]]; then
    err "$what not found."
    err "Install it once, then re-run this script:"
    err "    sudo sh -c '$cmd'"
    exit 1
  fi
  command -v apt-get >/dev/null || die "$what not found and apt-get is not available; install $* by hand"
  log "installing $* with apt-get ($what) ..."
  # Refresh the package index only when apt does not know a package yet.
  local pkg
  for pkg in "$@"; do
    if ! apt-cache show "$pkg" >/dev/null 2>&1; then
      apt-get update -q </dev/null || die "apt-get update failed"
      break
    fi
  done
  if ! DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$@" </dev/null; then
    log "install failed; refreshing the package index and retrying"
    apt-get update -q </dev/null || die "apt-get update failed"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$@" </dev/null || die "apt-get install $* failed"
  fi
}

validate_port() {
  [[ "$2" =~ ^[0-9]+$ ]] && (( $2 > 0 && $2 < 65536 )) || die "$1 must be a TCP port number, got '$2'"
}
validate_port FERRY_PG_PORT "$PG_PORT"
validate_port FERRY_KAFKA_PORT "$KAFKA_PORT"
validate_port FERRY_KAFKA_CONTROLLER_PORT "$KAFKA_CONTROLLER_PORT"
[[ -z "$KAFKA_SASL_PORT" ]] || validate_port FERRY_KAFKA_SASL_PORT "$KAFKA_SASL_PORT"
KAFKA_VOTERS="${FERRY_KAFKA_QUORUM_VOTERS:-$KAFKA_NODE_ID@127.0.0.1:$KAFKA_CONTROLLER_PORT}"

# tcp_open PORT: something accepts TCP connections on 127.0.0.1:PORT.
tcp_open() {
  (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

now() { date +%s; }

show_log_tail() { # FILE [LINES]
  local f="$1" n="${2:-30}"
  if [[ -f "$f" ]]; then
    err "last $n lines of $f:"
    tail -n "$n" "$f" >&2 || true
  fi
}

###############################################################################
# PostgreSQL
###############################################################################

PG_BIN=""
PG_DIR=""      # resolved (physical) directory behind .ferry/pg
PG_DATA=""
PG_SOCK=""
PG_LOGFILE=""

pg_find_bin() {
  [[ -n "$PG_BIN" ]] && return 0
  if [[ -n "${FERRY_PG_BIN:-}" ]]; then
    [[ -x "$FERRY_PG_BIN/initdb" ]] || die "FERRY_PG_BIN=$FERRY_PG_BIN has no initdb"
    PG_BIN="$FERRY_PG_BIN"
    return 0
  fi
  # An initialised cluster must keep using its own major version.
  local ver_file="$PG_LINK/data/PG_VERSION"
  if [[ -f "$ver_file" ]]; then
    local v
    v="$(cat "$ver_file")"
    if [[ -x "/usr/lib/postgresql/$v/bin/initdb" ]]; then
      PG_BIN="/usr/lib/postgresql/$v/bin"
      return 0
    fi
    die "the cluster in $PG_LINK/data was created by PostgreSQL $v, which is no longer installed under /usr/lib/postgresql/$v; run 'bash scripts/services.sh clean' to start over"
  fi
  # Deliberately not `command -v postgres`: /usr/local/bin may hold other builds.
  local initdb
  initdb="$(ls -d /usr/lib/postgresql/*/bin/initdb 2>/dev/null | sort -V | tail -n 1 || true)"
  if [[ -z "$initdb" ]]; then
    pg_install
    initdb="$(ls -d /usr/lib/postgresql/*/bin/initdb 2>/dev/null | sort -V | tail -n 1 || true)"
    [[ -n "$initdb" ]] || die "PostgreSQL was installed but no /usr/lib/postgresql/*/bin/initdb was found"
  fi
  PG_BIN="$(dirname "$initdb")"
}

pg_install() {
  apt_install "PostgreSQL server binaries (/usr/lib/postgresql/*/bin/initdb)" postgresql
}

# Run a PostgreSQL server-side tool as the account that owns the cluster.
# PostgreSQL refuses to run as root, so root delegates to the postgres system user.
# `cd /` because the tools fail when they cannot stat the current directory
# (e.g. when invoked from /root).
as_pg() {
  if [[ "$IS_ROOT" -eq 1 ]]; then
    (cd / && runuser -u postgres -- "$@")
  else
    "$@"
  fi
}

pg_can_traverse() { # DIR: can the cluster owner enter DIR?
  if [[ "$IS_ROOT" -eq 1 ]]; then
    (cd / && runuser -u postgres -- test -x "$1" -a -r "$1") 2>/dev/null
  else
    [[ -x "$1" ]]
  fi
}

# Decide where the PostgreSQL state lives and make it usable by the cluster owner.
#
# As root, the server runs as the `postgres` system user, which must be able
# to traverse every parent of the data directory. Clones often live under a
# 0700 directory such as /root. Rather than chmod'ing directories we do not
# own (that would silently widen access to someone's home), the state is then
# placed in /var/tmp/ferry-<sha256(repo path)[:12]>/pg (world-traversable,
# survives reboots unlike /tmp, unique per clone) and .ferry/pg becomes a
# symlink to it. `clean` removes both. The decision is made once: an existing
# .ferry/pg (directory or symlink) is reused.
# Resolve the PostgreSQL paths behind .ferry/pg (no side effects).
pg_resolve_dir() {
  if [[ -e "$PG_LINK" ]]; then
    PG_DIR="$(cd -P -- "$PG_LINK" && pwd -P)"
  else
    PG_DIR="$PG_LINK"
  fi
  PG_DATA="$PG_DIR/data"
  PG_LOGFILE="$PG_DIR/postgres.log"
  PG_SOCK="$PG_DIR/run"
  # Unix socket paths are limited to 107 bytes; deep clone paths would make
  # the server fail to start, so use a short directory in that case.
  if (( ${#PG_SOCK} + ${#PG_PORT} + 10 > 100 )); then
    PG_SOCK="$PG_FALLBACK_ROOT/run"
  fi
}

# Decide where the PostgreSQL state lives and make it usable by the cluster owner.
#
# As root, the server runs as the `postgres` system user, which must be able
# to traverse every parent of the data directory. Clones often live under a
# 0700 directory such as /root. Rather than chmod'ing directories we do not
# own (that would silently widen access to someone's home), the state is then
# placed in /var/tmp/ferry-<sha256(repo path)[:12]>/pg (world-traversable,
# survives reboots unlike /tmp, unique per clone) and .ferry/pg becomes a
# symlink to it. `clean` removes both. The decision is made once: an existing
# .ferry/pg (directory or symlink) is reused.
pg_prepare_dir() {
  mkdir -p "$STATE_DIR"
  chmod 755 "$STATE_DIR" 2>/dev/null || true

  if [[ -L "$PG_LINK" ]]; then
    mkdir -p "$(readlink "$PG_LINK")"   # target may have been wiped (e.g. /var/tmp cleaned)
  elif [[ ! -e "$PG_LINK" ]]; then
    if [[ "$IS_ROOT" -eq 1 ]] && ! pg_can_traverse "$STATE_DIR"; then
      mkdir -p "$PG_FALLBACK_ROOT/pg"
      chmod 755 "$PG_FALLBACK_ROOT"
      ln -s "$PG_FALLBACK_ROOT/pg" "$PG_LINK"
      log "postgres: user 'postgres' cannot reach $STATE_DIR; keeping its state in $PG_FALLBACK_ROOT/pg (symlinked from .ferry/pg)"
    else
      mkdir -p "$PG_LINK"
    fi
  fi

  pg_resolve_dir
  if [[ "$PG_SOCK" == "$PG_FALLBACK_ROOT/"* ]]; then
    mkdir -p "$PG_FALLBACK_ROOT"
    chmod 755 "$PG_FALLBACK_ROOT"
  fi
  mkdir -p "$PG_SOCK"
  if [[ "$IS_ROOT" -eq 1 ]]; then
    chown postgres: "$PG_DIR" "$PG_SOCK"
    touch "$PG_LOGFILE"
    chown postgres: "$PG_LOGFILE"
    pg_can_traverse "$PG_DIR" || die "user 'postgres' cannot access $PG_DIR; run 'bash scripts/services.sh clean' and retry"
  fi
  return 0
}

# Is the postmaster recorded in postmaster.pid alive? Checked by hand rather
# than with `pg_ctl status`: after a kill -9 the dead postmaster can linger as
# a zombie (containers whose PID 1 does not reap), which pg_ctl counts as running.
pg_is_running() {
  [[ -f "$PG_DATA/postmaster.pid" ]] || return 1
  local pid state
  pid="$(head -n 1 "$PG_DATA/postmaster.pid" 2>/dev/null | tr -dc '0-9')"
  [[ -n "$pid" && -r "/proc/$pid/stat" ]] || return 1
  state="$(sed 's/^.*) //' "/proc/$pid/stat" 2>/dev/null | cut -d' ' -f1)"
  [[ -n "$state" && "$state" != Z && "$state" != X ]] || return 1
  [[ "$(cat "/proc/$pid/comm" 2>/dev/null)" == postgres* ]]
}

pg_isready() {
  "$PG_BIN/pg_isready" -q -h 127.0.0.1 -p "$PG_PORT" -U "$PG_USER" -d postgres -t 2 >/dev/null 2>&1
}

pg_psql() { # SQL... (as the ferry superuser over TCP)
  PGCONNECT_TIMEOUT=5 "$PG_BIN/psql" -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$PG_PORT" -U "$PG_USER" "$@"
}

pg_init() {
  [[ -f "$PG_DATA/PG_VERSION" ]] && return 0
  log "postgres: initialising a new cluster in $PG_DATA ($("$PG_BIN/postgres" --version))"
  rm -rf "$PG_DATA"
  # 256 MB WAL segments instead of 16 MB: each segment switch makes a
  # commit wait for a file to be created or recycled and synced, which
  # under load took 100 ms and more on this kind of disk
  # (docs/operations.md, Sizing).
  if ! as_pg "$PG_BIN/initdb" -D "$PG_DATA" -U "$PG_USER" --auth=trust --encoding=UTF8 \
      --wal-segsize=256 --locale=C.UTF-8 --no-instructions >"$PG_DIR/initdb.log" 2>&1; then
    # C.UTF-8 is missing on some systems; fall back to the C locale.
    if ! as_pg "$PG_BIN/initdb" -D "$PG_DATA" -U "$PG_USER" --auth=trust --encoding=UTF8 \
        --wal-segsize=256 --locale=C --no-instructions >"$PG_DIR/initdb.log" 2>&1; then
      show_log_tail "$PG_DIR/initdb.log" 40
      rm -rf "$PG_DATA"
      die "initdb failed (see $PG_DIR/initdb.log)"
    fi
  fi
  # Our settings live in ferry.conf, rewritten on every start (ports may change).
  printf "\n# Ferry local development settings (written by scripts/services.sh)\ninclude_if_exists = 'ferry.conf'\n" \
    | as_pg tee -a "$PG_DATA/postgresql.conf" >/dev/null
}

# wal_compression: lz4 where this server was built with it, else PostgreSQL's own.
pg_wal_compression() {
  if ldd "$PG_BIN/postgres" 2>/dev/null | grep -q liblz4; then echo lz4; else echo pglz; fi
}

pg_write_conf() {
  as_pg tee "$PG_DATA/ferry.conf" >/dev/null <<EOF
# Written by scripts/services.sh on every start; edit the script, not this file.
listen_addresses = '127.0.0.1'
port = $PG_PORT
unix_socket_directories = '$PG_SOCK'
max_connections = 300
shared_buffers = 256MB
# Durability stays honest: a commit acknowledged by Postgres is on disk.
fsync = on
synchronous_commit = on
full_page_writes = on
# initdb sizes these for 256 MB segments (1.25 GB kept, 16 GB between
# checkpoints); 4 GB bounds a development machine's disk.
max_wal_size = 4GB
# The first change to a page after a checkpoint logs the whole page. On
# grown tables nearly every insert into an index on a random key (ids made
# before they began with their minute, dedupe keys) does, and compressed
# they took half the WAL (docs/operations.md, Sizing).
wal_compression = $(pg_wal_compression)
logging_collector = off
log_line_prefix = '%m [%p] %q%u@%d '
log_min_duration_statement = -1
log_timezone = 'UTC'
timezone = 'UTC'
# Loaded so that a bench can say where PostgreSQL's time goes
# (BENCH_PG_STATEMENTS=1 sets track for its own database); tracks
# nothing otherwise.
shared_preload_libraries = 'pg_stat_statements'
pg_stat_statements.track = 'none'
EOF
}

pg_ensure_db() {
  if [[ "$(pg_psql -d postgres -tAc "SELECT 1 FROM pg_database WHERE datname = '$PG_DB'")" != "1" ]]; then
    pg_psql -d postgres -c "CREATE DATABASE $PG_DB" || die "postgres: could not create database $PG_DB"
  fi
}

pg_launch() {
  # A stale postmaster.pid (server gone) is detected and replaced by the server itself.
  if ! as_pg "$PG_BIN/pg_ctl" start -D "$PG_DATA" -l "$PG_LOGFILE" -W -s >/dev/null 9>&-; then
    show_log_tail "$PG_LOGFILE"
    die "postgres: pg_ctl start failed (log: $PG_LOGFILE)"
  fi
}

pg_start() {
  pg_find_bin
  pg_prepare_dir
  local already=0
  if [[ -f "$PG_DATA/PG_VERSION" ]] && pg_is_running; then
    if pg_isready; then
      pg_ensure_db
      log "postgres: already running at 127.0.0.1:$PG_PORT (database $PG_DB, user $PG_USER)"
      return 0
    fi
    if [[ -f "$PG_DATA/ferry.conf" ]] && ! grep -qx "port = $PG_PORT" "$PG_DATA/ferry.conf"; then
      die "postgres: already running with a different port than FERRY_PG_PORT=$PG_PORT (see $PG_DATA/ferry.conf); run 'bash scripts/services.sh pg-stop' first"
    fi
    already=1   # still starting up (or recovering): just wait for it below
  elif tcp_open "$PG_PORT"; then
    die "postgres: port 127.0.0.1:$PG_PORT is already in use by another process; stop it or set FERRY_PG_PORT"
  fi
  if (( ! already )); then
    pg_init
    pg_write_conf
    pg_launch
  fi
  local deadline=$(( $(now) + PG_START_TIMEOUT )) attempt=1
  until pg_isready; do
    if (( $(now) >= deadline )); then
      show_log_tail "$PG_LOGFILE"
      die "postgres: not ready on 127.0.0.1:$PG_PORT after ${PG_START_TIMEOUT}s (log: $PG_LOGFILE)"
    fi
    if ! pg_is_running; then
      sleep 0.5   # the postmaster may not have written its pid file yet
      if ! pg_is_running && ! pg_isready; then
        # Right after a crash (kill -9) the old server's children can still
        # hold the shared memory / lock for a moment: retry a few times.
        if (( attempt < 5 )); then
          attempt=$(( attempt + 1 ))
          log "postgres: server exited during startup; retrying (attempt $attempt of 5)"
          sleep 1
          pg_launch
          continue
        fi
        show_log_tail "$PG_LOGFILE"
        die "postgres: server exited during startup (log: $PG_LOGFILE)"
      fi
    fi
    sleep 0.2
  done
  pg_ensure_db
  log "postgres: running at 127.0.0.1:$PG_PORT (database $PG_DB, user $PG_USER; log $PG_LOGFILE)"
}

pg_stop() {
  # Nothing to stop if the cluster was never created.
  if [[ ! -e "$PG_LINK" ]] || [[ ! -f "$PG_LINK/data/PG_VERSION" ]]; then
    log "postgres: not running"
    return 0
  fi
  pg_find_bin
  pg_resolve_dir
  if ! pg_is_running; then
    log "postgres: not running"
    return 0
  fi
  if ! as_pg "$PG_BIN/pg_ctl" stop -D "$PG_DATA" -m fast -w -t 60 -s; then
    show_log_tail "$PG_LOGFILE"
    die "postgres: pg_ctl stop failed (log: $PG_LOGFILE)"
  fi
  log "postgres: stopped"
}

pg_status() {
  if [[ ! -f "$PG_LINK/data/PG_VERSION" ]]; then
    log "postgres: not initialised (127.0.0.1:$PG_PORT)"
    return 1
  fi
  pg_find_bin
  pg_resolve_dir
  if pg_is_running; then
    if pg_isready; then
      log "postgres: running at 127.0.0.1:$PG_PORT (pid $(head -n 1 "$PG_DATA/postmaster.pid"), data $PG_DATA)"
      return 0
    fi
    log "postgres: process running but not answering on 127.0.0.1:$PG_PORT (log: $PG_LOGFILE)"
    return 1
  fi
  log "postgres: stopped"
  return 1
}

###############################################################################
# Kafka
###############################################################################

JAVA=""
KAFKA_VERSION=""

JAVA_MIN=17 # the oldest Java the Kafka broker runs on
JDK_PACKAGE="${FERRY_JDK_PACKAGE:-default-jdk-headless}"

# java_major JAVA: the major version of a java binary ("1.8.0_402" → 1,
# "17.0.9" → 17), or 0 when it cannot be read.
java_major() {
  local v
  v="$("$1" -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p' | head -n 1)"
  printf '%s' "${v:-0}"
}

# find_java sets JAVA: JAVA_HOME's, else the one on PATH, else (as root) a
# JDK installed with apt-get. It must be Java $JAVA_MIN or later.
find_java() {
  [[ -n "$JAVA" ]] && return 0
  if [[ -n "${JAVA_HOME:-}" && -x "$JAVA_HOME/bin/java" ]]; then
    JAVA="$JAVA_HOME/bin/java"
  elif command -v java >/dev/null 2>&1; then
    JAVA="$(command -v java)"
  else
    apt_install "java (Kafka needs a JDK $JAVA_MIN or later, or JAVA_HOME)" "$JDK_PACKAGE"
    command -v java >/dev/null 2>&1 || die "$JDK_PACKAGE was installed but java is not on PATH; set JAVA_HOME"
    JAVA="$(command -v java)"
  fi
  local major
  major="$(java_major "$JAVA")"
  if (( major < JAVA_MIN )); then
    die "$JAVA is Java $major; Kafka needs $JAVA_MIN or later: set JAVA_HOME to a newer JDK (e.g. apt-get install -y openjdk-$JAVA_MIN-jdk-headless)"
  fi
}

# find_maven makes sure mvn is on PATH, installing Maven as root.
find_maven() {
  command -v mvn >/dev/null 2>&1 && return 0
  apt_install "mvn (Apache Maven fetches the Kafka $KAFKA_VERSION jars once)" maven
  command -v mvn >/dev/null 2>&1 || die "maven was installed but mvn is not on PATH"
}

kafka_version() {
  [[ -n "$KAFKA_VERSION" ]] && return 0
  KAFKA_VERSION="$(sed -n 's:.*<kafka.version>\(.*\)</kafka.version>.*:\1:p' "$KAFKA_POM" | head -n 1)"
  [[ -n "$KAFKA_VERSION" ]] || die "cannot read <kafka.version> from $KAFKA_POM"
}

# Marker contents identify the exact dependency set: Kafka version + pom hash.
kafka_libs_marker() {
  kafka_version
  printf 'kafka %s pom-sha256 %s\n' "$KAFKA_VERSION" "$(sha256sum "$KAFKA_POM" | cut -c1-16)"
}

kafka_ensure_libs() {
  local want
  kafka_version
  want="$(kafka_libs_marker)"
  if [[ -f "$KAFKA_LIBS/.version" && "$(cat "$KAFKA_LIBS/.version")" == "$want" \
        && -f "$KAFKA_LIBS/kafka_2.13-$KAFKA_VERSION.jar" ]]; then
    return 0
  fi
  find_java
  find_maven
  log "kafka: fetching Apache Kafka $KAFKA_VERSION jars with Maven (cached in ~/.m2) ..."
  mkdir -p "$KAFKA_DIR"
  # Copy into a temporary directory and swap it in, so an interrupted
  # download never leaves a half-filled libs dir behind a valid marker.
  local tmp="$KAFKA_DIR/libs.tmp.$$"
  rm -rf "$tmp"
  if ! mvn -B -q -Dstyle.color=never -f "$KAFKA_POM" dependency:copy-dependencies \
      -DoutputDirectory="$tmp" -DincludeScope=runtime </dev/null >"$KAFKA_DIR/mvn.log" 2>&1; then
    rm -rf "$tmp"
    show_log_tail "$KAFKA_DIR/mvn.log" 40
    die "kafka: Maven could not fetch the Kafka $KAFKA_VERSION jars (log: $KAFKA_DIR/mvn.log)"
  fi
  [[ -f "$tmp/kafka_2.13-$KAFKA_VERSION.jar" ]] || { rm -rf "$tmp"; die "kafka: Maven finished but kafka_2.13-$KAFKA_VERSION.jar is missing"; }
  printf '%s' "$want" >"$tmp/.version"
  rm -rf "$KAFKA_LIBS"
  mv "$tmp" "$KAFKA_LIBS"
}

kafka_write_props() {
  mkdir -p "$KAFKA_DATA" "$KAFKA_LOGS"
  local listeners="PLAINTEXT://127.0.0.1:$KAFKA_PORT,CONTROLLER://127.0.0.1:$KAFKA_CONTROLLER_PORT"
  local advertised="PLAINTEXT://127.0.0.1:$KAFKA_PORT"
  local protocols="CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT"
  local sasl=""
  if [[ -n "$KAFKA_SASL_PORT" ]]; then
    listeners+=",SASL_PLAINTEXT://127.0.0.1:$KAFKA_SASL_PORT"
    advertised+=",SASL_PLAINTEXT://127.0.0.1:$KAFKA_SASL_PORT"
    protocols+=",SASL_PLAINTEXT:SASL_PLAINTEXT"
    sasl="# SASL/SCRAM listener (FERRY_KAFKA_SASL_PORT); users are created after start.
sasl.enabled.mechanisms=SCRAM-SHA-256,SCRAM-SHA-512
listener.name.sasl_plaintext.scram-sha-256.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required;
listener.name.sasl_plaintext.scram-sha-512.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required;"
  fi
  cat >"$KAFKA_PROPS" <<EOF
# Written by scripts/services.sh on every start; edit the script, not this file.
# Single-node Kafka in KRaft combined mode (broker + controller in one JVM).
process.roles=broker,controller
node.id=$KAFKA_NODE_ID
controller.quorum.voters=$KAFKA_VOTERS
listeners=$listeners
advertised.listeners=$advertised
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
listener.security.protocol.map=$protocols
$sasl

log.dirs=$KAFKA_DATA
num.partitions=8
default.replication.factor=$KAFKA_REPLICATION
min.insync.replicas=$KAFKA_MIN_ISR
auto.create.topics.enable=false
log.retention.hours=24

offsets.topic.replication.factor=$KAFKA_REPLICATION
transaction.state.log.replication.factor=$KAFKA_REPLICATION
transaction.state.log.min.isr=$KAFKA_MIN_ISR

# Tests join consumer groups constantly; do not wait 3 s for more members.
group.initial.rebalance.delay.ms=0
${FERRY_KAFKA_REPLICA_LAG_MS:+replica.lag.time.max.ms=$FERRY_KAFKA_REPLICA_LAG_MS}
${FERRY_KAFKA_SESSION_TIMEOUT_MS:+broker.session.timeout.ms=$FERRY_KAFKA_SESSION_TIMEOUT_MS}

# Modest memory on a shared dev box (default dedupe buffer is 128 MiB of heap).
log.cleaner.dedupe.buffer.size=33554432
EOF
}

kafka_format() {
  # meta.properties marks formatted storage; never reformat (it would lose data).
  [[ -f "$KAFKA_DATA/meta.properties" ]] && return 0
  local id="${FERRY_KAFKA_CLUSTER_ID:-}"
  if [[ -z "$id" ]]; then
    id="$(kafka_cli kafka.tools.StorageTool random-uuid | tail -n 1)" || die "kafka: StorageTool random-uuid failed"
  fi
  [[ -n "$id" ]] || die "kafka: StorageTool random-uuid printed nothing"
  log "kafka: formatting storage in $KAFKA_DATA (cluster id $id)"
  kafka_cli kafka.tools.StorageTool format -t "$id" -c "$KAFKA_PROPS" >"$KAFKA_DIR/format.log" 2>&1 || {
    show_log_tail "$KAFKA_DIR/format.log"
    die "kafka: storage format failed (see $KAFKA_DIR/format.log)"
  }
}

# Run a Kafka CLI class with the broker's classpath and a quiet, fast JVM.
kafka_cli() { # CLASS ARGS...
  find_java
  "$JAVA" -Xmx256m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Djava.awt.headless=true \
    -Dlog4j.configuration="file:$KAFKA_TOOLS_LOG4J" \
    -cp "$KAFKA_LIBS/*" "$@" </dev/null
}

# The pid in kafka.pid, if that process is alive and really is our broker.
kafka_pid() {
  [[ -f "$KAFKA_PID_FILE" ]] || return 1
  local pid
  pid="$(tr -dc '0-9' <"$KAFKA_PID_FILE")"
  [[ -n "$pid" ]] || return 1
  kill -0 "$pid" 2>/dev/null || return 1
  # A broker killed with -9 may linger as a zombie when PID 1 does not reap
  # orphans; it is dead all the same.
  local state
  state="$(sed 's/^.*) //' "/proc/$pid/stat" 2>/dev/null | cut -d' ' -f1)"
  [[ -n "$state" && "$state" != Z && "$state" != X ]] || return 1
  # Guard against pid reuse: the process must be kafka.Kafka on our properties file.
  tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -qF -- "kafka.Kafka $KAFKA_PROPS" || return 1
  printf '%s' "$pid"
}

# Readiness: the log says the server finished starting (it logs that only
# after the broker caught up with the metadata log and got unfenced), then an
# AdminClient round trip (TopicCommand --list) proves it serves requests.
# A bare TCP connect is not enough: the listener socket is bound long before
# requests are processed.
kafka_probe() {
  kafka_cli org.apache.kafka.tools.TopicCommand --bootstrap-server "127.0.0.1:$KAFKA_PORT" \
    --command-config "$KAFKA_DIR/probe.properties" --list >/dev/null 2>&1
}

kafka_start() {
  local pid
  if pid="$(kafka_pid)"; then
    if tcp_open "$KAFKA_PORT"; then
      log "kafka: already running at 127.0.0.1:$KAFKA_PORT (pid $pid)"
      return 0
    fi
    log "kafka: process $pid is running but 127.0.0.1:$KAFKA_PORT is closed; restarting it"
    kafka_stop
  fi
  rm -f "$KAFKA_PID_FILE"   # stale, if any
  if tcp_open "$KAFKA_PORT"; then
    die "kafka: port 127.0.0.1:$KAFKA_PORT is already in use by another process; stop it or set FERRY_KAFKA_PORT"
  fi
  if tcp_open "$KAFKA_CONTROLLER_PORT"; then
    die "kafka: controller port 127.0.0.1:$KAFKA_CONTROLLER_PORT is already in use by another process; stop it or set FERRY_KAFKA_CONTROLLER_PORT"
  fi
  find_java
  mkdir -p "$KAFKA_DIR"
  kafka_ensure_libs
  kafka_write_props
  kafka_format
  printf 'request.timeout.ms=3000\ndefault.api.timeout.ms=5000\n' >"$KAFKA_DIR/probe.properties"

  local server_log="$KAFKA_LOGS/server.log" log_offset=0
  [[ -f "$server_log" ]] && log_offset="$(wc -c <"$server_log")"

  # setsid: own session, so the broker survives the caller (make, CI step,
  # terminal) and its signals. The wrapper records its own pid and then
  # execs java, so the pid file holds the JVM's pid.
  # shellcheck disable=SC2086
  nohup setsid bash -c 'echo $$ >"$1"; shift; exec "$@"' ferry-kafka "$KAFKA_PID_FILE" \
    "$JAVA" $KAFKA_HEAP_OPTS -XX:+UseG1GC -XX:MaxGCPauseMillis=20 \
    -XX:+ExitOnOutOfMemoryError -Djava.awt.headless=true \
    -Dkafka.logs.dir="$KAFKA_LOGS" -Dlog4j.configuration="file:$KAFKA_LOG4J" \
    -cp "$KAFKA_LIBS/*" kafka.Kafka "$KAFKA_PROPS" \
    >"$KAFKA_OUT" 2>&1 </dev/null 9>&- &
  disown 2>/dev/null || true

  local start_ts deadline started=0
  start_ts="$(now)"
  deadline=$(( start_ts + KAFKA_START_TIMEOUT ))
  while :; do
    if (( $(now) >= deadline )); then
      show_log_tail "$server_log"
      kafka_stop >/dev/null 2>&1 || true
      die "kafka: not ready on 127.0.0.1:$KAFKA_PORT after ${KAFKA_START_TIMEOUT}s (logs: $server_log, $KAFKA_OUT)"
    fi
    if ! kafka_pid >/dev/null; then
      sleep 0.3   # the wrapper may not have written the pid file yet
      if ! kafka_pid >/dev/null; then
        show_log_tail "$KAFKA_OUT" 20
        show_log_tail "$server_log"
        die "kafka: broker exited during startup (logs: $server_log, $KAFKA_OUT)"
      fi
    fi
    if (( ! started )); then
      local size
      size=0
      [[ -f "$server_log" ]] && size="$(wc -c <"$server_log")"
      (( size < log_offset )) && log_offset=0   # log rotated meanwhile
      if tail -c "+$((log_offset + 1))" "$server_log" 2>/dev/null | grep -q "Kafka Server started"; then
        started=1
      elif (( $(now) - start_ts > 30 )) && tcp_open "$KAFKA_PORT"; then
        started=1   # log line not seen (changed logging?); rely on the probe alone
      fi
    fi
    if (( started )) && tcp_open "$KAFKA_PORT" && kafka_probe; then
      break
    fi
    sleep 0.3
  done
  if [[ -n "$KAFKA_SASL_PORT" ]]; then
    kafka_scram_user
  fi
  log "kafka: running at 127.0.0.1:$KAFKA_PORT (Kafka $KAFKA_VERSION KRaft, pid $(kafka_pid); log $server_log)"
}

# Create (or reset) the SCRAM user of the SASL listener, for both mechanisms.
kafka_scram_user() {
  local mech
  for mech in SCRAM-SHA-256 SCRAM-SHA-512; do
    kafka_cli kafka.admin.ConfigCommand --bootstrap-server "127.0.0.1:$KAFKA_PORT" --alter \
      --add-config "$mech=[iterations=4096,password=$KAFKA_SASL_PASSWORD]" \
      --entity-type users --entity-name "$KAFKA_SASL_USERNAME" >"$KAFKA_DIR/scram.log" 2>&1 || {
      show_log_tail "$KAFKA_DIR/scram.log"
      die "kafka: could not create the $mech user $KAFKA_SASL_USERNAME (see $KAFKA_DIR/scram.log)"
    }
  done
  log "kafka: SASL/SCRAM listener at 127.0.0.1:$KAFKA_SASL_PORT (user $KAFKA_SASL_USERNAME)"
}

kafka_stop() {
  local pid
  if ! pid="$(kafka_pid)"; then
    rm -f "$KAFKA_PID_FILE"
    log "kafka: not running"
    return 0
  fi
  kill -TERM "$pid" 2>/dev/null || true
  local deadline=$(( $(now) + KAFKA_STOP_TIMEOUT ))
  while kafka_pid >/dev/null; do
    if (( $(now) >= deadline )); then
      log "kafka: pid $pid still alive after ${KAFKA_STOP_TIMEOUT}s; sending SIGKILL"
      kill -KILL "$pid" 2>/dev/null || true
      sleep 0.5
      break
    fi
    sleep 0.2
  done
  rm -f "$KAFKA_PID_FILE"
  log "kafka: stopped"
}

kafka_status() {
  local pid
  if pid="$(kafka_pid)"; then
    if tcp_open "$KAFKA_PORT"; then
      log "kafka: running at 127.0.0.1:$KAFKA_PORT (pid $pid, data $KAFKA_DATA)"
      return 0
    fi
    log "kafka: process $pid running but 127.0.0.1:$KAFKA_PORT is closed (starting, or see $KAFKA_LOGS/server.log)"
    return 1
  fi
  if [[ -f "$KAFKA_DATA/meta.properties" ]]; then
    log "kafka: stopped"
  else
    log "kafka: not initialised (127.0.0.1:$KAFKA_PORT)"
  fi
  return 1
}

###############################################################################
# clean
###############################################################################

clean_all() {
  pg_stop
  kafka_stop
  local fallback=""
  if [[ -L "$PG_LINK" ]]; then
    fallback="$(dirname "$(readlink "$PG_LINK")")"
  fi
  # Only ever delete our own, recognisable directories.
  case "$STATE_DIR" in
    */.ferry|*/.ferry-*|*/ferry-*) rm -rf -- "$STATE_DIR" ;;
    *) die "refusing to delete unexpected state dir '$STATE_DIR'" ;;
  esac
  for d in "$fallback" "$PG_FALLBACK_ROOT"; do
    case "$d" in
      /var/tmp/ferry-*) rm -rf -- "$d" ;;
    esac
  done
  log "clean: removed $STATE_DIR${fallback:+ and $fallback}"
}

###############################################################################

usage() {
  sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed -e '/^set -euo/d' -e 's/^# \{0,1\}//' >&2
}

# Serialise state-changing commands (e.g. two CI steps or `make -j` targets
# running `start` at once). Children that outlive us close fd 9 (see
# pg_launch and kafka_start) so they do not keep holding the lock.
take_lock() {
  command -v flock >/dev/null 2>&1 || return 0
  mkdir -p "$STATE_DIR"
  exec 9>"$STATE_DIR/.lock"
  if ! flock -n 9; then
    log "services.sh: waiting for another services.sh run to finish ..."
    flock -w 300 9 || die "timed out waiting for the lock $STATE_DIR/.lock"
  fi
}

cmd="${1:-}"
[[ $# -gt 0 ]] && shift
case "$cmd" in
  start|stop|clean|pg-start|pg-stop|kafka-start|kafka-stop|kafka-restart) take_lock ;;
esac
case "$cmd" in
  start)         pg_start; kafka_start ;;
  stop)          kafka_stop; pg_stop ;;
  status)        rc=0; pg_status || rc=3; kafka_status || rc=3; exit "$rc" ;;
  clean)         clean_all ;;
  pg-start)      pg_start ;;
  pg-stop)       pg_stop ;;
  kafka-start)   kafka_start ;;
  kafka-stop)    kafka_stop ;;
  kafka-restart) kafka_stop; kafka_start ;;
  kafka-run)
    [[ $# -ge 1 ]] || die "usage: services.sh kafka-run CLASS [ARGS...]"
    [[ -f "$KAFKA_LIBS/.version" ]] || die "Kafka jars not installed yet; run 'bash scripts/services.sh start' first"
    find_java
    exec "$JAVA" -Xmx512m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Djava.awt.headless=true \
      -Dlog4j.configuration="file:$KAFKA_TOOLS_LOG4J" -cp "$KAFKA_LIBS/*" "$@"
    ;;
  -h|--help|help) usage ;;
  *) usage; exit 2 ;;
esac
