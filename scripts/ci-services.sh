#!/usr/bin/env bash
# Services the tests need in CI: a PostgreSQL and a Redis on loopback, the JS client's npm
# package, Chromium and the web app's JavaScript checkers.
#
#   source scripts/ci-services.sh          # start them; exports DENNOU_TEST_POSTGRES_URL and
#                                          # DENNOU_TEST_REDIS_URL
#   source scripts/ci-services.sh --stop   # stop the PostgreSQL it started (or: bash ... --stop)
#
# Installs postgresql with apt-get if it is missing, starts a throwaway cluster on 127.0.0.1
# (port $DENNOU_PG_PORT, default 55432; data in $DENNOU_PG_DIR, default /tmp/dennou-pg-PORT)
# owned by the postgres user, creates a superuser role `dennou` (the store tests create and drop
# their own databases), starts redis-server (installed likewise) on 127.0.0.1 port
# $DENNOU_REDIS_PORT (default 56379, no disk persistence) for the cluster tests, and runs `npm install` in examples/js-client (skipped with
# DENNOU_CI_NPM=0). Idempotent: a cluster already running is reused. Sourcing it does not change
# your shell's options: the work runs in a child bash with `set -euo pipefail`.

_DENNOU_CI_SCRIPT="${BASH_SOURCE[0]}"
DENNOU_PG_PORT="${DENNOU_PG_PORT:-55432}"
DENNOU_REDIS_PORT="${DENNOU_REDIS_PORT:-56379}"
case "${1:-}" in
  --setup | --stop-cluster) ;;  # the child bash below
  --stop)
    if bash "$_DENNOU_CI_SCRIPT" --stop-cluster; then
      unset DENNOU_TEST_POSTGRES_URL DENNOU_TEST_REDIS_URL
      return 0 2>/dev/null || exit 0
    fi
    return 1 2>/dev/null || exit 1
    ;;
  *)
    bash "$_DENNOU_CI_SCRIPT" --setup || { echo "ci-services: set-up failed" >&2; return 1 2>/dev/null || exit 1; }
    export DENNOU_TEST_POSTGRES_URL="postgresql://dennou@127.0.0.1:$DENNOU_PG_PORT/postgres"
    export DENNOU_TEST_REDIS_URL="redis://127.0.0.1:$DENNOU_REDIS_PORT/0"
    # DENNOU_CI_STARTED_PG=1: this call started the cluster (one already running is reused, and
    # whoever started it stops it); .ci/run stops on exit only what it started
    _dennou_marker="${DENNOU_PG_DIR:-/tmp/dennou-pg-$DENNOU_PG_PORT}/started-by-ci-services"
    if [ -f "$_dennou_marker" ]; then
      rm -f "$_dennou_marker"
      export DENNOU_CI_STARTED_PG=1
    fi
    echo "DENNOU_TEST_POSTGRES_URL=$DENNOU_TEST_POSTGRES_URL"
    echo "DENNOU_TEST_REDIS_URL=$DENNOU_TEST_REDIS_URL"
    return 0 2>/dev/null || exit 0
    ;;
esac

set -euo pipefail
ROOT="$(cd "$(dirname "$_DENNOU_CI_SCRIPT")/.." && pwd)"
PG_PORT="$DENNOU_PG_PORT"
PG_DIR="${DENNOU_PG_DIR:-/tmp/dennou-pg-$PG_PORT}"
REDIS_PORT="$DENNOU_REDIS_PORT"
REDIS_DIR="/tmp/dennou-redis-$REDIS_PORT"

pg_bin() {
  local dir
  for dir in /usr/lib/postgresql/*/bin; do
    if [ -x "$dir/initdb" ]; then echo "$dir"; return; fi
  done
}

as_pg() {
  if [ "$(id -u)" = 0 ]; then su postgres -s /bin/sh -c "$*"; else sh -c "$*"; fi
}

if [ "$1" = "--stop-cluster" ]; then
  BIN="$(pg_bin)"
  if [ -n "$BIN" ] && as_pg "$BIN/pg_ctl -D $PG_DIR status" >/dev/null 2>&1; then
    as_pg "$BIN/pg_ctl -D $PG_DIR -m fast -w stop" >/dev/null
    echo "ci-services: stopped the PostgreSQL in $PG_DIR (port $PG_PORT)"
  else
    echo "ci-services: no PostgreSQL of ours is running in $PG_DIR (port $PG_PORT)"
  fi
  if [ -f "$REDIS_DIR/redis.pid" ] && kill "$(cat "$REDIS_DIR/redis.pid")" 2>/dev/null; then
    rm -f "$REDIS_DIR/redis.pid"
    echo "ci-services: stopped the Redis on port $REDIS_PORT"
  fi
  exit 0
fi

if [ -z "$(pg_bin)" ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq postgresql >/dev/null
fi
BIN="$(pg_bin)"

if ! as_pg "$BIN/pg_ctl -D $PG_DIR status" >/dev/null 2>&1; then
  if [ ! -f "$PG_DIR/PG_VERSION" ]; then
    mkdir -p "$PG_DIR"
    [ "$(id -u)" = 0 ] && chown postgres "$PG_DIR"
    as_pg "$BIN/initdb -D $PG_DIR -A trust -U postgres" >/dev/null
  fi
  as_pg "$BIN/pg_ctl -D $PG_DIR -l $PG_DIR/log -w -o '-h 127.0.0.1 -p $PG_PORT -k /tmp' start" >/dev/null
  touch "$PG_DIR/started-by-ci-services"
fi
as_pg "$BIN/psql -h 127.0.0.1 -p $PG_PORT -U postgres -tc \"SELECT 1 FROM pg_roles WHERE rolname='dennou'\"" \
  | grep -q 1 || as_pg "$BIN/psql -h 127.0.0.1 -p $PG_PORT -U postgres -c 'CREATE ROLE dennou LOGIN SUPERUSER'" >/dev/null

python -c "import psycopg" 2>/dev/null || pip install -q "psycopg[binary]>=3.1"

# The cluster tests' broker: Debian's redis-server on loopback, nothing written to disk.
if ! command -v redis-server >/dev/null; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq redis-server >/dev/null
fi
if ! redis-cli -h 127.0.0.1 -p "$REDIS_PORT" ping >/dev/null 2>&1; then
  mkdir -p "$REDIS_DIR"
  redis-server --bind 127.0.0.1 --port "$REDIS_PORT" --save '' --appendonly no \
    --daemonize yes --pidfile "$REDIS_DIR/redis.pid" --logfile "$REDIS_DIR/log" --dir "$REDIS_DIR"
  for _ in $(seq 50); do
    redis-cli -h 127.0.0.1 -p "$REDIS_PORT" ping >/dev/null 2>&1 && break
    sleep 0.1
  done
fi

# The web app's browser tests drive Debian's Chromium with Playwright for Python (Playwright's
# own browser download cannot work here); a Japanese font so pages and screenshots show 日本語.
if [ ! -x /usr/bin/chromium ] || ! fc-list 2>/dev/null | grep -qi ipa; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq chromium fonts-ipafont-gothic >/dev/null
fi
# The web app's JavaScript checks (TypeScript over JSDoc, ESLint) and axe-core for its
# accessibility tests: dev-only npm packages.
if [ -f "$ROOT/web-dev/package-lock.json" ]; then
  (cd "$ROOT/web-dev" && npm ci --no-audit --no-fund --silent)
fi

if [ "${DENNOU_CI_NPM:-1}" != 0 ] && [ -f "$ROOT/examples/js-client/package.json" ]; then
  (cd "$ROOT/examples/js-client" && npm install --no-audit --no-fund --silent)
fi
