#!/usr/bin/env bash
# Scores each ablation run's final network against the fixed opponent (the archived
# az-6x6-b25), 200 games from random openings with colours swapped, both at 100
# simulations with the root solve off (exact=0), so the networks' play decides more.
#   runs/ablation/evaluate.sh OTHELLO_BINARY
set -euo pipefail
othello="${1:-target/release/othello}"
root="$(cd "$(dirname "$0")/../.." && pwd)"
for run in "$root"/runs/ablation/6x6-*/; do
  name="$(basename "$run")"
  "$othello" arena --board 6 --games 200 --threads 2 --seed 11 --out "$run/final" \
    --players "mcts:model=$run/best.onnx,sims=100,exact=0,mcts:model=$root/models/archive/az-6x6-b25.onnx,sims=100,exact=0" \
    | grep -A2 "^Pairings" | tail -1 | sed "s|^|$name: |"
done
