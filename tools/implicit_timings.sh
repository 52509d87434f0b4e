#!/usr/bin/env bash
# Implicit heat against explicit at equal accuracy: examples/heat_plate.yaml to t = 0.1 (2D
# 1025x513 and 3D 257^3 with the 7-point stencil: the same 1D problem, insulated on the other
# faces), explicit with dt auto beside Crank-Nicolson at several dt. One line per run: steps,
# cycles per step (from the log), the loop time from summary.json, the whole process's wall
# time, and the max error against the series solution (tools/heat_plate_error.py; needs NumPy
# and h5py, "-" without them). Usage:
#   tools/implicit_timings.sh FDSOLVE BACKEND WORKDIR [2d|3d|all]
# Measurement knobs: FDSOLVE_CYCLE_CHECKS=every (the "checked" rows) makes each step's host
# read every cycle's residual, as before the predicted schedule; FDSOLVE_BOTTOM_LEVELS_CELLS=N
# moves the bottom levels' one-kernel threshold (0: every level launched by itself).
set -uo pipefail
fdsolve=$(realpath "$1") backend=$2 work=$3 which=${4:-all}
tools=$(cd "$(dirname "$0")" && pwd)
example=$(cd "$tools/.." && pwd)/examples/heat_plate.yaml
mkdir -p "$work"
row() {  # label, points, stencil, then --set options
  local label=$1 points=$2 stencil=$3 dir="$work/$1"
  shift 3
  mkdir -p "$dir"
  local t0 t1 rc
  t0=$(date +%s.%N)
  "$fdsolve" run "$example" --backend "$backend" --output "$dir/out" \
    --set "grid.points=$points" --set "stencil=$stencil" --set output.every=0 \
    --set checkpoint.every=0 --set solve.diagnostics=false "$@" > "$dir/run.log" 2>&1
  rc=$?
  t1=$(date +%s.%N)
  local error="-" snap
  snap=$(ls "$dir"/out/*.h5 2>/dev/null | grep -v checkpoint | sort | tail -1)
  if [[ -n $snap ]] && python3 -c "import h5py, numpy" 2>/dev/null; then
    error=$(python3 "$tools/heat_plate_error.py" "$snap" 2>&1 | tail -1)
  fi
  rm -f "$dir"/out/*.h5  # 136 MB per 3D snapshot
  python3 - "$dir" "$label" "$rc" "$t0" "$t1" "$error" <<'PY'
import json, re, sys
d, label, rc, t0, t1, error = sys.argv[1:]
log = open(f"{d}/run.log").read()
m = re.search(r"(\d+) steps, (\d+) cycles \(([\d.]+) per step", log)
per_step = m.group(3) if m else "-"
try:
    s = json.load(open(f"{d}/out/summary.json"))
    steps, loop = s.get("iterations"), s["timings"]["solve"]
except Exception as e:  # noqa: BLE001
    steps, loop = f"no summary ({e.__class__.__name__})", float("nan")
ms = 1e3 * float(loop) / steps if isinstance(steps, int) and steps else float("nan")
print(f"{label:34s} exit {rc}  steps {steps!s:>7}  cycles/step {per_step:>5}  loop {float(loop):8.4f} s"
      f"  ({ms:7.4f} ms/step)  process {float(t1) - float(t0):7.2f} s  max error {error}")
PY
}
cn="--set time.scheme=crank-nicolson"
# "before": the step as it was built first (no Rannacher start, the old u as the first guess,
# a full multigrid start, every cycle checked, every level launched by itself).
before="--set time.startup_steps=0 --set time.extrapolate=false --set solve.multigrid.fmg=true"
if [[ $which == 2d || $which == all ]]; then
  p2="[1025,513]"
  row 2d-explicit "$p2" 5
  FDSOLVE_CYCLE_CHECKS=every FDSOLVE_BOTTOM_LEVELS_CELLS=0 row 2d-cn-8e-5-before "$p2" 5 $cn \
    --set time.dt=8e-5 $before
  for dt in 8e-5 1.25e-4 2e-4 2.5e-4 5e-4; do
    row "2d-cn-$dt" "$p2" 5 $cn --set time.dt=$dt
  done
  row 2d-cn-2.5e-4-fmg "$p2" 5 $cn --set time.dt=2.5e-4 --set solve.multigrid.fmg=true
  row 2d-cn-2.5e-4-no-extrapolation "$p2" 5 $cn --set time.dt=2.5e-4 --set time.extrapolate=false
  FDSOLVE_CYCLE_CHECKS=every row 2d-cn-2.5e-4-checked "$p2" 5 $cn --set time.dt=2.5e-4
  FDSOLVE_BOTTOM_LEVELS_CELLS=0 row 2d-cn-2.5e-4-levels "$p2" 5 $cn --set time.dt=2.5e-4
  FDSOLVE_BOTTOM_LEVELS_CELLS=16384 row 2d-cn-2.5e-4-bottom16k "$p2" 5 $cn --set time.dt=2.5e-4
  row 2d-cn-2.5e-4-float "$p2" 5 $cn --set time.dt=2.5e-4 --set precision=float
fi
if [[ $which == 3d || $which == all ]]; then
  p3="[257,257,257]"
  row 3d-explicit "$p3" 7 --set grid.extent=[1,1,1]
  FDSOLVE_CYCLE_CHECKS=every FDSOLVE_BOTTOM_LEVELS_CELLS=0 row 3d-cn-5e-4-before "$p3" 7 \
    --set grid.extent=[1,1,1] $cn --set time.dt=5e-4 $before
  for dt in 5e-4 7e-4 1e-3; do
    row "3d-cn-$dt" "$p3" 7 --set grid.extent=[1,1,1] $cn --set time.dt=$dt
  done
fi
