#!/usr/bin/env bash
# Trunk's post-build hook (Trunk.toml): the search worker a second time, with wasm's relaxed
# SIMD (fused multiply-add in tract's kernels: about +15% network evaluations a second in
# Chromium, docs/web.md), as worker-relaxed.js and worker-relaxed_bg.wasm beside Trunk's
# plain SIMD worker. The page picks one at run time (src/page/simd.rs); a browser without
# relaxed SIMD (Safari) gets the plain one. Trunk cannot build one binary twice with
# different target features, hence the hook.
#
# Its own target directory: cargo rebuilds everything when RUSTFLAGS change, so sharing
# one with Trunk's build would rebuild both every time.
set -euo pipefail
: "${TRUNK_STAGING_DIR:?run by trunk build (Trunk.toml hooks)}"
root="${TRUNK_SOURCE_DIR:-$(cd "$(dirname "$0")/.." && pwd)}"
target="${CARGO_TARGET_DIR:-$root/target}/relaxed-simd"
if [[ "${TRUNK_PROFILE:-debug}" == "release" ]]; then
  profile=web
  out_profile=web
else
  profile=dev
  out_profile=debug
fi
cd "$root"
RUSTFLAGS="-C target-feature=+simd128,+relaxed-simd" cargo build --quiet \
  --target wasm32-unknown-unknown --profile "$profile" --bin worker --features worker \
  --target-dir "$target"
wasm-bindgen --target no-modules --no-typescript --out-name worker-relaxed \
  --out-dir "$TRUNK_STAGING_DIR" "$target/wasm32-unknown-unknown/$out_profile/worker.wasm"
