# The timing rows of tools/discretization_timings.sh and tools/mixed_precision_timings.sh
# (sourced, with $fdsolve, $backend, $work and $tools set): the anchors' Poisson problem
# (examples/poisson_multigrid.yaml) in 2D and its 3D form, one line per run: cycles, the solve
# time (summary.json timings.solve) and the coarse grid's solve before it
# (error_estimate.coarse_seconds), the whole process's wall time, the estimate the run wrote,
# and the true error against the exact solution (tools/poisson_error.py; needs NumPy and h5py,
# "-" without them).
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
