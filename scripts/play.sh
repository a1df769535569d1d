#!/usr/bin/env bash
# Sets up the web toolchain (idempotently) and serves the game on http://127.0.0.1:8080.
source "$(dirname "$0")/lib.sh"
cd "$ROOT"

ensure_web_tools
log "building and serving the game at http://127.0.0.1:8080 (Ctrl-C stops it)"
exec trunk serve --release "$@"
