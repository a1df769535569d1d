#!/usr/bin/env bash
# Creates the trainer's virtual environment and installs train/ (editable) with its dev
# extras, then prints the venv path. Idempotent: pip runs only when train/pyproject.toml
# differs from the one last installed (its hash is kept in the venv), because even a
# no-op pip pass over torch takes seconds and its CUDA wheels are gigabytes to refetch.
#   OTHELLO_VENV  venv path (default ~/.cache/othello-zero/venv)
#   PYTHON        interpreter to create it with (default python3; 3.11 or newer)
source "$(dirname "$0")/lib.sh"

VENV="${OTHELLO_VENV:-$HOME/.cache/othello-zero/venv}"
PYPROJECT="$ROOT/train/pyproject.toml"
STAMP="$VENV/.othello-zero-train.sha256"

if [[ ! -x "$VENV/bin/python" ]]; then
  python="${PYTHON:-python3}"
  if ! "$python" -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
    echo "error: $python is $("$python" --version 2>&1); the trainer needs Python 3.11+" >&2
    exit 1
  fi
  log "creating the venv $VENV"
  "$python" -m venv "$VENV"
fi

want="$(sha256sum "$PYPROJECT" | cut -d' ' -f1)"
if [[ "$(cat "$STAMP" 2>/dev/null)" != "$want" ]]; then
  log "installing train/ and its pinned dependencies into $VENV (torch: minutes, once)"
  "$VENV/bin/python" -m pip install --disable-pip-version-check -q -e "$ROOT/train[dev]"
  echo "$want" >"$STAMP"
else
  log "python venv up to date: $VENV"
fi
echo "$VENV"
