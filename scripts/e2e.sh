#!/usr/bin/env bash
# Builds the web game as it is deployed (scripts/build-site.sh), serves dist/ on a free
# local port and runs the browser tests in tests/e2e (Playwright's playwright-core from npm, driving
# Debian's Chromium; no browser download). The site is served as play.sh serves it:
# precompressed, by sirv-cli. Installs what is missing, idempotently.
#   SHOTS=docs   also save screenshots of the main states (docs/web-*.png)
#   CHROMIUM     browser binary (default /usr/bin/chromium)
source "$(dirname "$0")/lib.sh"
cd "$ROOT"

ensure_web_tools
ensure_e2e_tools
ensure_serve_tools

# The site as it is deployed (scripts/build-site.sh), with brotli's fastest good setting:
# the tests check how the site is served, not its last byte.
BROTLI_QUALITY=5 SITE_DIR=dist "$ROOT/scripts/build-site.sh"

PORT="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
serve_dist "$PORT" >/dev/null 2>&1 &
SERVER=$!
trap 'kill "$SERVER" 2>/dev/null' EXIT
for _ in $(seq 50); do
  (echo >"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null && break
  sleep 0.1
done

if [[ -n "${SHOTS:-}" ]]; then
  mkdir -p "$SHOTS"
  SHOTS="$(cd "$SHOTS" && pwd)"
  export SHOTS
fi
log "browser tests against http://127.0.0.1:$PORT/"
cd "$ROOT/tests/e2e"
# The report gathers both files' numbers: start it empty.
[[ -n "${E2E_REPORT:-}" ]] && rm -f "$E2E_REPORT"
# Every *.test.mjs file runs (the *.measure.mjs files only when named); E2E_FILES runs some
# of the files only (while working on them).
# shellcheck disable=SC2086
E2E_URL="http://127.0.0.1:$PORT/" E2E_COMPRESSED=1 node --test --test-concurrency=1 ${E2E_FILES:-*.test.mjs}
