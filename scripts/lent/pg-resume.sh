#!/usr/bin/env bash
# Issue 37, a lent machine's last minutes: resume runs/pg-gpu's runs (and start one) for
# MINUTES of wall time. Usage: scripts/lent/pg-resume.sh MINUTES OUT_DIR
set -u
minutes=${1:?minutes}
out=${2:?out dir}
export OMP_NUM_THREADS=1 MKL_NUM_THREADS=1 PYTHONUNBUFFERED=1
py=${PYTHON:-python3}
root=runs/pg-gpu
common=(--device "${DEVICE:-cuda}" --othello "" --max-minutes "$minutes")
$py -m train.reinforce --run $root/rf-heuronly-norm "${common[@]}" >>$root/rf-heuronly-norm.out 2>&1 &
$py -m train.reinforce --run $root/rf-heuronly-norm-ent3 "${common[@]}" --entropy-weight 0.03 \
  >$root/rf-heuronly-norm-ent3.out 2>&1 &
$py -m train.reinforce --run $root/rf-self-norm "${common[@]}" >>$root/rf-self-norm.out 2>&1 &
$py -m train.reinforce --run $root/rf-heuronly --board 8 --games 512 --opponents heuristic=1 \
  --eval-heuristic-games 400 --eval-every 0.01 --max-cpu-hours 100 "${common[@]}" \
  >$root/rf-heuronly.out 2>&1 &
wait
tail -n 3 $root/*.out
tar czf "$out/pg-gpu2.tgz" --exclude='*/models' --exclude='*/eval' "$root"
