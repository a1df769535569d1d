#!/usr/bin/env bash
# Fixed-seed outputs of the engine, for a refactoring that must change no behaviour: run it
# with the `othello` binary before and after, then `diff -r` the two folders. It writes
# arena games (8x8 from random openings, 6x6, 8x8 from the XOT list, the pattern network
# against the CNN), a self-play file, a review and a book; timings and dates, which no
# refactoring can keep, are left out (the games' moves and results are compared, not the
# arena's JSON).
#
#   scripts/fixed-outputs.sh OTHELLO_BINARY OUT_DIR
set -euo pipefail
bin=$(realpath "$1")
out=$(realpath -m "$2")
cd "$(dirname "$0")/.."
mkdir -p "$out"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# The moves and result of each game of an arena's GGF, without its dates and clocks.
games_of() {
  gunzip -cf "$1"/arena.ggf* 2>/dev/null | grep -o '\(B\|W\)\[[a-hA-Hpas]*[1-8]*[^]]*\]\|RE\[[^]]*\]' \
    | sed 's/\/[^]]*\]/]/'
}

arena() {
  local name=$1
  shift
  "$bin" arena --runtime tract --threads 1 --seed 7 --out "$scratch/$name" "$@" >/dev/null
  games_of "$scratch/$name" >"$out/$name.moves"
}

arena arena-8x8 --board 8 --games 4 \
  --players alphabeta:depth=3,mcts:model=models/az-8x8.onnx,sims=48
arena arena-6x6 --board 6 --games 4 \
  --players alphabeta:depth=3,mcts:model=models/az-6x6.onnx,sims=48
arena arena-xot --board 8 --games 4 --openings xot \
  --players mcts:model=runs/pattern-8x8/best.onnx,sims=200,mcts:model=models/az-8x8.onnx,sims=32

"$bin" selfplay --runtime tract --threads 1 --games 4 --sims 24 --seed 5 \
  --model models/az-6x6.onnx --board 6 --out "$scratch/selfplay" --name fixed >/dev/null
cp "$scratch/selfplay/fixed.npz" "$out/selfplay.npz"

"$bin" review --runtime tract --player mcts:model=models/az-8x8.onnx,sims=48 \
  f5d6c3d3c4f4f6f3e6e7d7c5b6 >"$out/review.txt"

"$bin" book build --runtime tract --player mcts:model=models/az-6x6.onnx --board 6 \
  --sims 64 --positions 12 "$scratch/fixed.book" >/dev/null
cp "$scratch/fixed.book" "$out/book-6x6.book"
ls -l "$out"
