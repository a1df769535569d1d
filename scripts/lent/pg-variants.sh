#!/usr/bin/env bash
# Issue 37 on a lent GPU machine: the policy-gradient variants side by side, one process
# each (numpy games on one core, the network on the GPU), for MINUTES of wall time.
# Usage: scripts/lent/pg-variants.sh MINUTES OUT_DIR
set -u
minutes=${1:?minutes}
out=${2:?out dir}
export OMP_NUM_THREADS=1 MKL_NUM_THREADS=1 PYTHONUNBUFFERED=1
py=${PYTHON:-python3}
root=runs/pg-gpu
mkdir -p "$root"
common=(--board 8 --games 512 --device "${DEVICE:-cuda}" --eval-heuristic-games 400 --othello ""
  --eval-every 0.01 --max-cpu-hours 100 --max-minutes "$minutes")
heur="heuristic=8,greedy=1,random=1"
declare -A variants=(
  [rf-pool]="reinforce"
  [rf-heur]="reinforce --opponents $heur"
  [rf-heur-norm]="reinforce --opponents $heur --normalize-advantage 1"
  [rf-heur-norm-ent3]="reinforce --opponents $heur --normalize-advantage 1 --entropy-weight 0.03"
  [rf-heur-norm-lr15]="reinforce --opponents $heur --normalize-advantage 1 --lr 0.0015"
  [rf-heuronly-norm]="reinforce --opponents heuristic=1 --normalize-advantage 1"
  [a2c-heur-norm]="a2c --opponents $heur --normalize-advantage 1"
  [rf-self-norm]="reinforce --opponents self=1 --normalize-advantage 1"
)
for name in "${!variants[@]}"; do
  read -r learner rest <<<"${variants[$name]}"
  # shellcheck disable=SC2086
  $py -m train."$learner" --run "$root/$name" "${common[@]}" $rest >"$root/$name.out" 2>&1 &
done
wait
for name in "${!variants[@]}"; do
  echo "== $name"; tail -n 2 "$root/$name.out"
done
tar czf "$out/pg-gpu.tgz" --exclude='*/models' --exclude='*/eval' "$root"
