#!/usr/bin/env bash
# solve.tolerance: discretization against a relative tolerance of 1e-8 on the anchors' Poisson
# problem (examples/poisson_multigrid.yaml; 2D 1025^2, 4097^2, 8193^2 and 3D 7-point 129^3,
# 257^3). One line per run: cycles, the solve time (summary.json timings.solve) and the coarse
# grid's solve before it (error_estimate.coarse_seconds), the whole process's wall time, the
# estimate the run wrote, and the true error against the exact
# solution (tools/poisson_error.py; needs NumPy and h5py, "-" without them). Usage:
#   tools/discretization_timings.sh FDSOLVE BACKEND WORKDIR
set -uo pipefail
fdsolve=$(realpath "$1") backend=$2 work=$3
tools=$(cd "$(dirname "$0")" && pwd)
source "$tools/timing_rows.sh"
for n in ${DISCRETIZATION_2D:-1025 4097 8193}; do
  row "2d-$n-1e-8" "[$n,$n]" 5 1e-8
  row "2d-$n-discretization" "[$n,$n]" 5 discretization
done
for n in ${DISCRETIZATION_3D:-129 257}; do
  for tolerance in 1e-8 discretization; do
    row "3d-7pt-$n-$tolerance" "[$n,$n,$n]" 7 $tolerance --set "grid.extent=[1,1,1]" \
      --set "problem.source=$source3"
  done
done
