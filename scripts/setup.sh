#!/usr/bin/env bash
# Sets up a checkout on a fresh Debian machine with Node 20: pnpm, dependencies, nats-server, and the
# build (Prisma client, WebAssembly tools from source, TypeScript, one bundle per service). Safe to run
# again: each step is skipped when already done.
set -euo pipefail
cd "$(dirname "$0")/.."

log() { printf '\033[1m[setup]\033[0m %s\n' "$*"; }

as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else
    echo "Need root to run: $*" >&2; return 1
  fi
}

apt_install() {
  command -v apt-get >/dev/null || { echo "Install $* with your package manager." >&2; return 1; }
  if [ ! -f /tmp/.talon-apt-updated ]; then as_root apt-get update -qq && touch /tmp/.talon-apt-updated; fi
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}

node_major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
if [ "$node_major" -lt 20 ]; then echo "Talon needs Node.js 20 or newer (found: $(node -v 2>/dev/null || echo none))." >&2; exit 1; fi

if ! command -v pnpm >/dev/null; then log "installing pnpm"; npm install -g pnpm@12 >/dev/null; fi

if ! command -v nats-server >/dev/null && [ ! -x /usr/sbin/nats-server ]; then
  log "installing nats-server (Debian package)"; apt_install nats-server
fi

# Shell commands and stdio MCP servers run under bubblewrap; without it they are refused (fail closed).
if ! command -v bwrap >/dev/null && [ ! -x /usr/bin/bwrap ]; then
  log "installing bubblewrap (Debian package, the process sandbox)"; apt_install bubblewrap
fi

if [ "${TALON_SETUP_POSTGRES:-0}" = 1 ] && ! command -v pg_ctlcluster >/dev/null; then
  log "installing postgresql (Debian package)"; apt_install postgresql
fi

# The browser tests drive Debian's chromium through playwright-core (no browser download).
if [ "${TALON_SETUP_BROWSER:-0}" = 1 ] && [ ! -x /usr/bin/chromium ]; then
  log "installing chromium (Debian package, for the browser tests)"; apt_install chromium
fi

log "installing dependencies"
pnpm install --frozen-lockfile --reporter=silent

log "building"
pnpm run build
log "done"
