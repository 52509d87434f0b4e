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
example=$(cd "$tools/.." && pwd)/examples/poisson_multigrid.yaml
mkdir -p "$work"
# The 3D problem: u = exp(x+y+z) sin(pi x) sin(pi y) sin(pi z) (tools/compare/poisson_problem.py).
source3="exp(x+y+z)*(3*(pi^2-1)*sin(pi*x)*sin(pi*y)*sin(pi*z) - 2*pi*(cos(pi*x)*sin(pi*y)*sin(pi*z) + sin(pi*x)*cos(pi*y)*sin(pi*z) + sin(pi*x)*sin(pi*y)*cos(pi*z)))"
row() {  # label, points, stencil, tolerance, then --set options
  local label=$1 points=$2 stencil=$3 tolerance=$4 dir="$work/$1"
  shift 4
  mkdir -p "$dir"
  local t0 t1 rc error="-" snap
  t0=$(date +%s.%N)
  "$fdsolve" run "$example" --backend "$backend" --output "$dir/out" --set "grid.points=$points" \
    --set "stencil=$stencil" --set "solve.tolerance=$tolerance" --set solve.max_iterations=100 \
    --set solve.diagnostics=false --set output.every=0 "$@" > "$dir/run.log" 2>&1
  rc=$?
  t1=$(date +%s.%N)
  snap=$(ls "$dir"/out/*.h5 2>/dev/null | grep -v checkpoint | sort | tail -1)
  if [[ -n $snap ]] && python3 -c "import h5py, numpy" 2>/dev/null; then
    error=$(python3 "$tools/poisson_error.py" "$snap" 2>&1 | tail -1)
  fi
  rm -f "$dir"/out/*.h5
  python3 - "$dir" "$label" "$rc" "$t0" "$t1" "$error" <<'PY'
import json, sys
d, label, rc, t0, t1, error = sys.argv[1:]
try:
    s = json.load(open(f"{d}/out/summary.json"))
    cycles, solve = s["iterations"], s["timings"]["solve"]
    e = s.get("error_estimate")
    estimate = f"{e['discretization']:.3e} (algebraic {e['algebraic']:.2e})" if e else "-"
    coarse = e["coarse_seconds"] if e else 0.0
except Exception as x:  # noqa: BLE001
    cycles, solve, estimate, coarse = f"no summary ({x.__class__.__name__})", float("nan"), "-", 0.0
print(f"{label:30s} exit {rc}  cycles {cycles!s:>3}  solve {1e3 * float(solve):8.2f} ms"
      f" + coarse grid {1e3 * coarse:7.2f} ms  process {float(t1) - float(t0):6.2f} s"
      f"  estimate {estimate}  true error {error}")
PY
}
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
