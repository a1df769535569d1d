#!/usr/bin/env bash
# Sets up what the tests need (idempotently) and runs all of them: formatting, clippy,
# the workspace tests, the wasm32 builds of the rules, the engine and the web app, and the
# browser tests of the web game (scripts/e2e.sh).
source "$(dirname "$0")/lib.sh"
cd "$ROOT"

stage "rust targets and components" ensure_rust_targets
stage "format check" cargo fmt --all -- --check
stage "clippy" cargo clippy --workspace --all-targets -- -D warnings
# The trainer's venv first: it also carries ONNX Runtime's library, which the engine's
# ONNX Runtime tests load (and must find: OTHELLO_REQUIRE_ORT).
stage "python venv" "$ROOT/scripts/setup-python.sh" >/dev/null
PY_VENV="${OTHELLO_VENV:-$HOME/.cache/othello-zero/venv}"
export OTHELLO_VENV="$PY_VENV" OTHELLO_REQUIRE_ORT=1
stage "tests" cargo test --workspace
stage "wasm32 build" cargo build --target wasm32-unknown-unknown -p othello -p engine -p othello-web
# The page and the search worker (the worker alone links tract, through the `worker` feature).
stage "wasm32 clippy (page)" cargo clippy --target wasm32-unknown-unknown -p othello-web --all-targets -- -D warnings
stage "wasm32 clippy (worker)" cargo clippy --target wasm32-unknown-unknown -p othello-web --features worker --all-targets -- -D warnings
stage "web tools" ensure_web_tools
stage "browser tests" "$ROOT/scripts/e2e.sh"
stage "python lint" "$PY_VENV/bin/ruff" check train
stage "python format" "$PY_VENV/bin/ruff" format --check train
stage "python tests" "$PY_VENV/bin/python" -m pytest -q train/tests
stage_summary
