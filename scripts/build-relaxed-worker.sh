#!/usr/bin/env bash
# Trunk's post-build hook (Trunk.toml): the search worker a second time, with wasm's relaxed
# SIMD (fused multiply-add in tract's kernels: about +15% network evaluations a second in
# Chromium, docs/web.md), as worker-relaxed.js and worker-relaxed_bg.wasm beside Trunk's
# plain SIMD worker. The page picks one at run time (crates/page/src/simd.rs); a browser without
# relaxed SIMD (Safari) gets the plain one. Trunk cannot build one binary twice with
# different target features, hence the hook.
#
# scripts/build-site.sh starts this build before Trunk's own, so the two compile side by
# side (Trunk's worker build leaves a core idle for long stretches), and says where the
# build's exit status will appear (RELAXED_WORKER_STATUS): the hook then waits for it
# instead of building. Run by Trunk alone (`trunk serve`), it builds here.
set -euo pipefail
: "${TRUNK_STAGING_DIR:?run by trunk build (Trunk.toml hooks)}"
source "$(dirname "$0")/lib.sh"
if [[ "${TRUNK_PROFILE:-debug}" == "release" ]]; then
  profile=web
  out_profile=web
else
  profile=dev
  out_profile=debug
fi
cd "$ROOT"
if [[ -n "${RELAXED_WORKER_STATUS:-}" ]]; then
  while [[ ! -s "$RELAXED_WORKER_STATUS" ]]; do
    sleep 1
  done
  if [[ "$(cat "$RELAXED_WORKER_STATUS")" != 0 ]]; then
    echo "error: the relaxed SIMD worker's build failed (its output is above)" >&2
    exit 1
  fi
else
  build_relaxed_worker "$profile"
fi
wasm-bindgen --target no-modules --no-typescript --out-name worker-relaxed \
  --out-dir "$TRUNK_STAGING_DIR" "$(relaxed_worker_target)/wasm32-unknown-unknown/$out_profile/worker.wasm"
