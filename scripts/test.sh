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
stage "python venv" "$ROOT/scripts/setup-python.sh" >/dev/null
PY_VENV="${OTHELLO_VENV:-$HOME/.cache/othello-zero/venv}"
stage "python lint" "$PY_VENV/bin/ruff" check train
stage "python format" "$PY_VENV/bin/ruff" format --check train
stage "python tests" "$PY_VENV/bin/python" -m pytest -q train/tests
stage_summary
