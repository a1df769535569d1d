#!/usr/bin/env bash
# A test engine that speaks just enough NBoard to start a game and then misbehaves at its
# first `go`, as the arena must survive: `crash` exits, `hang` never answers, `illegal`
# plays a1 (never legal at the start of a game's middle), `garbage` answers with junk.
mode="$1"
while IFS= read -r line; do
  case "$line" in
    nboard*) echo "set myname Faulty" ;;
    ping*) echo "pong ${line#ping }" ;;
    go)
      case "$mode" in
        crash) echo "faulty engine: crashing as asked" >&2; exit 3 ;;
        hang) ;;
        illegal) echo "=== a1" ;;
        garbage) echo "=== ??!/x/y" ;;
      esac
      ;;
    quit) exit 0 ;;
  esac
done
