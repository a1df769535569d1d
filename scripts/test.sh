#!/usr/bin/env bash
# Sets up what the tests need (idempotently) and runs all of them: formatting, clippy,
# the workspace tests, and the wasm32 builds of the rules, the engine and the web app.
source "$(dirname "$0")/lib.sh"
cd "$ROOT"

stage "rust targets and components" ensure_rust_targets
stage "format check" cargo fmt --all -- --check
stage "clippy" cargo clippy --workspace --all-targets -- -D warnings
stage "tests" cargo test --workspace
stage "wasm32 build" cargo build --target wasm32-unknown-unknown -p othello -p engine -p othello-web
stage_summary
