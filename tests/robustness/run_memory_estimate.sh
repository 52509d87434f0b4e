#!/usr/bin/env bash
# The memory estimate that `fdsolve check` prints and `fdsolve run` checks against the free
# memory before it allocates anything (so that a case too large is refused with exit 2 rather
# than killed half-way): held to the CPU backend's measured peak, which summary.json reports
# (memory.backend_peak_bytes, counted by the backend's allocator). For every path (Jacobi,
# multigrid on the constant stencil and on the flux form with CG and Galerkin levels, float
# cycles, explicit and implicit heat with capacity, Robin faces and held nodes) the estimate
# must cover the peak and exceed it by at most 30 % (plus 256 KiB for the small arrays), and
# `check` must print the number `run` used. With BACKEND cuda the same on the GPU, whose
# backend counts its device buffers: there the estimate also counts the final snapshot's
# staging copies, which are page-locked host memory on a GPU, so it may exceed the peak by up to
# 60 %. Exit 77 (skip) for cuda without a CUDA device.
#   run_memory_estimate.sh FDSOLVE WORKDIR ROOT [BACKEND]
set -uo pipefail
fdsolve=$1 work=$2 root=$3 backend=${4:-cpu}
over=1.3
if [ "$backend" = cuda ]; then
  if ! "$fdsolve" --version | grep -q "^CUDA device 0:"; then echo "SKIP: no CUDA device"; exit 77; fi
  over=1.6
fi
rm -rf "$work" && mkdir -p "$work"
status=0
n=0
check_case() {  # CASE ARGS...
  local case=$1
  shift
  n=$((n + 1))
  local out=$work/case$n
  "$fdsolve" run "$root/$case" --backend "$backend" --threads 1 --quiet --output "$out" "$@" \
    > "$out.log" 2>&1
  local code=$?
  if [ "$code" -ne 0 ] && [ "$code" -ne 3 ]; then
    echo "FAIL: $case $*: exit $code"; cat "$out.log"; status=1; return
  fi
  local printed
  printed=$("$fdsolve" check "$root/$case" --backend "$backend" "$@" 2>&1 | sed -n 's/^# memory: \([0-9]*\) bytes .* on the backend.*/\1/p')
  python3 - "$out/summary.json" "$printed" "$case $*" "$over" <<'PY' || status=1
import json, sys
m = json.load(open(sys.argv[1])).get("memory")
label = sys.argv[3]
if not m:
    sys.exit(f"FAIL: {label}: summary.json has no memory")
peak, est = m["backend_peak_bytes"], m["backend_estimate_bytes"]
slack = 256 << 10
line = f"{label}: peak {peak / 2**20:.2f} MiB, estimate {est / 2**20:.2f} MiB ({est / peak:.2f}x)"
if sys.argv[2] != str(est):
    sys.exit(f"FAIL: {label}: check printed {sys.argv[2]!r}, run estimated {est}")
if peak > est + slack:
    sys.exit(f"FAIL: {line}: the estimate is short of the peak")
over = float(sys.argv[4])
if est > over * peak + slack:
    sys.exit(f"FAIL: {line}: the estimate exceeds the peak by more than {over - 1:.0%}")
print("ok:", line)
PY
}
quiet="--set output.every=0 --set checkpoint.every=0"
check_case examples/plate.yaml --set grid.points=[257,257] --set solve.max_iterations=50
check_case examples/poisson_multigrid.yaml --set grid.points=[257,257]
check_case examples/poisson_multigrid.yaml --set grid.points=[257,257] --set solve.multigrid.precision=float
check_case examples/poisson_box.yaml --set grid.points=[33,33,33]
check_case examples/electrode_box.yaml --set grid.points=[33,33,33] --set solve.max_iterations=2
check_case examples/capacitor.yaml --set grid.points=[129,129] --set solve.max_iterations=3
check_case tests/mpi/cases/media_cg_float_cycles_2d_y.yaml --set grid.points=[129,129]
check_case tests/mpi/cases/media_jacobi_2d_y.yaml --set grid.points=[257,129]
check_case examples/heat_plate.yaml --set grid.points=[257,257] --set time.end=1e-6 $quiet
check_case examples/heat_plate_implicit.yaml --set grid.points=[257,257] --set time.end=2e-3 $quiet
check_case tests/mpi/cases/media_cn_3d_7pt_z.yaml $quiet
check_case tests/mpi/cases/capacity_robin_cn_2d_y.yaml --set grid.points=[129,129] $quiet
exit $status
