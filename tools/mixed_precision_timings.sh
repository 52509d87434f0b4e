#!/usr/bin/env bash
# solve.multigrid.precision: float (float cycles in a double defect correction) against double
# cycles and against a float run, on the anchors' Poisson problem to a relative tolerance of
# 1e-8 (2D $MIXED_2D, default 1025 4097 8193; 3D 7-point $MIXED_3D, default 129 257), one line
# per run (tools/timing_rows.sh): cycles, solve time, process time, true error. Usage:
#   tools/mixed_precision_timings.sh FDSOLVE BACKEND WORKDIR
set -uo pipefail
fdsolve=$(realpath "$1") backend=$2 work=$3
tools=$(cd "$(dirname "$0")" && pwd)
source "$tools/timing_rows.sh"
runs() {  # prefix, points, stencil, then --set options
  local prefix=$1 points=$2 stencil=$3
  shift 3
  row "$prefix-double" "$points" "$stencil" 1e-8 "$@"
  row "$prefix-float-cycles" "$points" "$stencil" 1e-8 --set solve.multigrid.precision=float "$@"
  row "$prefix-float" "$points" "$stencil" 1e-8 --set precision=float "$@"
}
for n in ${MIXED_2D:-1025 4097 8193}; do runs "2d-$n" "[$n,$n]" 5; done
for n in ${MIXED_3D:-129 257}; do
  runs "3d-7pt-$n" "[$n,$n,$n]" 7 --set "grid.extent=[1,1,1]" --set "problem.source=$source3"
done
