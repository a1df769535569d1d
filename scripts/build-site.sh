#!/usr/bin/env bash
# Builds the deployable site: `trunk build --release` into a folder, the service worker
# named by the build (scripts/serve/service-worker.mjs) and, beside each file, its
# precompressed NAME.br and NAME.gz (scripts/serve/precompress.mjs). Every URL in it is
# relative, so the folder can be served from `/` or from any sub-path (docs/web.md,
# Deploying). Installs what is missing, idempotently; needs Node. Arguments go to trunk.
#   SITE_DIR        the folder (default dist)
#   PRECOMPRESS=0   no .br/.gz files (for a host that compresses itself, GitHub Pages)
#   BROTLI_QUALITY  1-11 (default 11; see precompress.mjs)
source "$(dirname "$0")/lib.sh"
cd "$ROOT"
SITE_DIR="${SITE_DIR:-dist}"

ensure_web_tools
if ! ensure_serve_tools; then
  echo "error: building the site needs Node (20 or newer)" >&2
  exit 1
fi
log "building the site into $SITE_DIR (trunk build --release)"
# The relaxed SIMD worker compiles beside Trunk's builds; Trunk's hook waits for it
# (scripts/build-relaxed-worker.sh).
RELAXED_WORKER_STATUS="$(mktemp)"
: >"$RELAXED_WORKER_STATUS"
(
  set +e
  build_relaxed_worker web
  echo $? >"$RELAXED_WORKER_STATUS"
) &
RELAXED_BUILD=$!
# Under set -e a failing command in the trap would fail the script: the build is usually
# over by then, and kill then fails.
trap 'kill "$RELAXED_BUILD" 2>/dev/null || true; rm -f "$RELAXED_WORKER_STATUS"' EXIT
RELAXED_WORKER_STATUS="$RELAXED_WORKER_STATUS" trunk build --release --dist "$SITE_DIR" "$@"
node "$ROOT/scripts/serve/service-worker.mjs" "$SITE_DIR"
if [[ "${PRECOMPRESS:-1}" != 0 ]]; then
  node "$ROOT/scripts/serve/precompress.mjs" "$SITE_DIR"
fi
