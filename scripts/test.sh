#!/usr/bin/env bash
# Sets up what the tests need (idempotently) and runs all of them: formatting, clippy,
# the workspace tests, clippy on the wasm32 builds of the web app (page and worker), the
# browser tests of the web game (scripts/e2e.sh, which builds the site as deployed) and the
# trainer's lint and tests. Every stage runs even when an earlier one failed; the table at
# the end says which passed and how long each took, and the exit status is non-zero if any
# failed. scripts/test-under-load.sh runs it with every core kept busy.
source "$(dirname "$0")/lib.sh"
cd "$ROOT"

PY_VENV="${OTHELLO_VENV:-$HOME/.cache/othello-zero/venv}"
export OTHELLO_VENV="$PY_VENV"
# The trainer's venv installs in the background from the start: pip mostly downloads and
# unpacks (PyTorch's wheels are gigabytes), which overlaps with the compiler's work.
VENV_LOG="$(mktemp)"
trap 'rm -f "$VENV_LOG" "$VENV_LOG.status"' EXIT
(
  set +e
  "$ROOT/scripts/setup-python.sh" >"$VENV_LOG" 2>&1
  echo $? >"$VENV_LOG.status"
) &
# Ends when the install does (its status file appears), whoever waits.
wait_for_venv() {
  while [[ ! -s "$VENV_LOG.status" ]]; do
    sleep 1
  done
  if [[ "$(cat "$VENV_LOG.status")" != 0 ]]; then
    cat "$VENV_LOG" >&2
    return 1
  fi
}

stage "rust targets and components" ensure_rust_targets
stage "format check" cargo fmt --all -- --check
stage "clippy" cargo clippy --workspace --all-targets -- -D warnings
# Clippy on wasm32 compiles the page, the worker and the engine and rules crates under them
# for the browser; the browser tests build and link them for real.
stage "wasm32 clippy (page)" cargo clippy --target wasm32-unknown-unknown -p page --all-targets -- -D warnings
stage "wasm32 clippy (worker)" cargo clippy --target wasm32-unknown-unknown -p worker --all-targets -- -D warnings
# The venv also carries ONNX Runtime's library, which the engine's ONNX Runtime tests load
# (and must find: OTHELLO_REQUIRE_ORT).
stage "python venv" wait_for_venv
export OTHELLO_REQUIRE_ORT=1
stage "tests" cargo test --workspace
stage "web tools" ensure_web_tools
stage "browser tests" "$ROOT/scripts/e2e.sh"
stage "python lint" "$PY_VENV/bin/ruff" check train
stage "python format" "$PY_VENV/bin/ruff" format --check train
stage "python tests" "$PY_VENV/bin/python" -m pytest -q train/tests
stage_summary
