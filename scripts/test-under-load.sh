#!/usr/bin/env bash
# Runs the whole test suite (scripts/test.sh) while other work keeps every core busy, as on
# a newcomer's laptop with a build or a video call beside it: a test whose verdict depends
# on how much CPU it gets fails here. One busy loop per core (LOAD_PROCESSES to change it),
# at normal priority in a session of their own, so they compete with the tests as another
# program would; they stop when the suite ends, however it ends. Arguments go to test.sh.
#   LOAD_PROCESSES  busy processes (default: the number of cores)
#   LOAD_RUNS       how many times to run the suite in a row (default 1); every run is
#                   reported, and the script fails if any failed
source "$(dirname "$0")/lib.sh"
cd "$ROOT"
PROCESSES="${LOAD_PROCESSES:-$(nproc)}"
RUNS="${LOAD_RUNS:-1}"

log "starting $PROCESSES busy processes"
BURNERS=()
for _ in $(seq "$PROCESSES"); do
  setsid bash -c 'while :; do :; done' &
  BURNERS+=($!)
done
trap 'kill "${BURNERS[@]}" 2>/dev/null' EXIT

failed=0
for run in $(seq "$RUNS"); do
  log "test suite under load: run $run of $RUNS"
  t0=$SECONDS
  if "$ROOT/scripts/test.sh" "$@"; then
    result=pass
  else
    result=FAIL
    failed=1
  fi
  echo "under load: run $run of $RUNS: $result in $((SECONDS - t0))s with $PROCESSES busy processes"
done
exit "$failed"
