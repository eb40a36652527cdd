#!/usr/bin/env bash
# Starts NATS (JetStream) and PostgreSQL for the test suite when they are not already running.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/sbin:/usr/local/sbin"

port_open() { node -e "const s=require('net').connect($1,'127.0.0.1');s.on('connect',()=>process.exit(0));s.on('error',()=>process.exit(1))"; }

if ! port_open 4222; then
  echo "[services] starting nats-server with JetStream on 127.0.0.1:4222"
  mkdir -p .talon/nats
  nohup nats-server -a 127.0.0.1 -p 4222 -js -sd "$PWD/.talon/nats" >.talon/nats/server.log 2>&1 &
  for _ in $(seq 50); do port_open 4222 && break; sleep 0.1; done
fi

if ! port_open 5432; then
  echo "[services] starting PostgreSQL"
  version=$(ls /etc/postgresql 2>/dev/null | sort -n | tail -1)
  if [ -z "$version" ]; then echo "PostgreSQL is not installed: apt-get install postgresql" >&2; exit 1; fi
  pg_ctlcluster --skip-systemctl-redirect "$version" main start
  for _ in $(seq 100); do port_open 5432 && break; sleep 0.1; done
fi

# The suite connects as postgres over TCP. A stock Debian cluster asks for a password there; give the
# role a known one (a trust-auth cluster ignores it).
url=${TEST_POSTGRES_URL:-postgres://postgres:postgres@127.0.0.1:5432/postgres}
if ! psql "$url" -Atc 'select 1' >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] && id postgres >/dev/null 2>&1; then
    su postgres -c "psql -qc \"ALTER ROLE postgres PASSWORD 'postgres'\"" >/dev/null
  fi
  psql "$url" -Atc 'select 1' >/dev/null || { echo "Cannot connect to PostgreSQL at $url; set TEST_POSTGRES_URL." >&2; exit 1; }
fi
echo "[services] NATS and PostgreSQL are up"
