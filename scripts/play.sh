#!/usr/bin/env bash
# Sets up the web toolchain (idempotently), builds the game and serves it on
# http://127.0.0.1:8080: compressed (precompressed .br/.gz files and sirv-cli, see lib.sh)
# when Node is installed, else with `trunk serve`, uncompressed.
#   PORT   the port (default 8080)
source "$(dirname "$0")/lib.sh"
cd "$ROOT"
PORT="${PORT:-8080}"

ensure_web_tools
if ensure_serve_tools; then
  "$ROOT/scripts/build-site.sh" "$@"
  log "serving the game at http://127.0.0.1:$PORT, compressed (Ctrl-C stops it)"
  serve_dist "$PORT"
else
  log "no Node: serving uncompressed with trunk at http://127.0.0.1:$PORT (Ctrl-C stops it)"
  exec trunk serve --release --port "$PORT" "$@"
fi
