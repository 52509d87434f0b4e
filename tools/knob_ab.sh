#!/usr/bin/env bash
# A measurement knob (an FDSOLVE_* environment variable) off and on in turn on one machine: the
# multigrid bench's V-cycle rows and the anchors' Poisson problem solved to 1e-8
# (tools/timing_rows.sh's rows), ROUNDS rounds of 0 then 1, so that both sides share the
# machine's state. Usage:
#   tools/knob_ab.sh FDSOLVE BACKEND WORKDIR KNOB      e.g. KNOB=FDSOLVE_FUSED_CORRECTION
# Environment: ROUNDS (default 2), KNOB_AB_2D (2D sizes, default "4097 8193"), KNOB_AB_3D (3D
# 7-point sizes, default none), KNOB_AB_BENCH (bench sizes in 2D, default "4097"),
# KNOB_AB_PRECISION (default double).
set -uo pipefail
fdsolve=$(realpath "$1") backend=$2 work=$3 knob=$4
tools=$(cd "$(dirname "$0")" && pwd)
source "$tools/timing_rows.sh"
precision=${KNOB_AB_PRECISION:-double}
for round in $(seq 1 "${ROUNDS:-2}"); do
  for value in 0 1; do
    export "$knob=$value"
    echo "== round $round, $knob=$value"
    for n in ${KNOB_AB_BENCH:-4097}; do
      "$fdsolve" bench --multigrid --backend "$backend" --dims 2 --size "$n" \
        --precision "$precision" 2>&1 | grep -E "^$backend +(v-|fmg)"
    done
    for n in ${KNOB_AB_2D:-4097 8193}; do
      row "r$round-$value-2d-$n-1e-8" "[$n,$n]" 5 1e-8 --set "precision=$precision"
    done
    for n in ${KNOB_AB_3D:-}; do
      row "r$round-$value-3d-7pt-$n-1e-8" "[$n,$n,$n]" 7 1e-8 --set "grid.extent=[1,1,1]" \
        --set "problem.source=$source3" --set "precision=$precision"
    done
  done
done
