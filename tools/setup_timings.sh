#!/usr/bin/env bash
# Where a large run's time goes: the whole process beside the solve (summary.json) for the
# set-up issue's cases, and `fdsolve check` alone. One line per run. Usage:
#   tools/setup_timings.sh FDSOLVE BACKEND WORKDIR
# SETUP_SET=media runs the media rows alone (electrode_box at 257^3 and 513^3, the 4097^2
# checkerboard at contrast 1e6, heat_two_materials at 2049^2 with 100 Crank-Nicolson steps);
# SETUP_SET=media-twins runs each media row's grid with a constant coefficient (no fixed
# regions), whose set-up the media rows' is compared with, and electrode_box 257^3 on the CPU
# backend (its set-up against its solve).
# all (the default) runs every row; constant the constant-coefficient rows alone.
set -uo pipefail
fdsolve=$1 backend=$2 work=$3
here=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$work"
# The disk's own speed on this file system, as dd measures it (1 GiB, flushed).
dd if=/dev/zero of="$work/dd.bin" bs=1M count=1024 conv=fdatasync 2>&1 | tail -1 | sed 's/^/dd: /'
rm -f "$work/dd.bin"
row() {  # label, then fdsolve arguments (run or check ...)
  local label=$1 dir="$work/$1"
  shift
  mkdir -p "$dir"
  local t0 t1 rc
  t0=$(date +%s.%N)
  (cd "$dir" && "$fdsolve" "$@" --log-level debug > run.log 2>&1)
  rc=$?
  t1=$(date +%s.%N)
  python3 - "$dir" "$label" "$rc" "$t0" "$t1" <<'PY'
import glob, json, sys
d, label, rc, t0, t1 = sys.argv[1:]
solve = "-"
for f in glob.glob(f"{d}/out/summary.json"):
    s = json.load(open(f))
    solve = f"{s.get('wall_seconds', float('nan')):.4f} s"
    timings = s.get("timings")
    if timings:
        solve += "  timings " + " ".join(
            f"{k} {v:.3f}" for k, v in timings.items() if isinstance(v, (int, float)))
print(f"{label:34s} exit {rc}  process {float(t1) - float(t0):6.2f} s  solve {solve}")
# Where set-up went (RunClock::mark, debug level): "stage at seconds" in order.
stages = []
for line in open(f"{d}/run.log", errors="replace"):
    if "set-up: " in line:
        stages.append(line.split("set-up: ", 1)[1].strip().replace(" at ", " "))
if stages:
    print("    set-up: " + "; ".join(stages))
PY
  find "$dir" -name '*.h5' -delete 2>/dev/null || true
}
cat > "$work/poisson3d.yaml" <<YAML
name: poisson3d
grid: {points: [513, 513, 513], extent: [1, 1, 1]}
stencil: 7
problem: {equation: poisson, source: "exp(-((x-0.5)^2+(y-0.5)^2+(z-0.5)^2)/0.01)*sin(pi*x)"}
solve: {method: multigrid, tolerance: 1.0e-8}
output: {directory: out}
YAML
mg2d="$here/examples/poisson_multigrid.yaml"
set=${SETUP_SET:-all}
if [ "$set" = media ] || [ "$set" = all ]; then
  electrode=(run "$here/examples/electrode_box.yaml" --backend "$backend" --output out)
  row media-electrode-257 "${electrode[@]}" --set "grid.points=[257,257,257]"
  row media-electrode-513 "${electrode[@]}" --set "grid.points=[513,513,513]"
  row media-checker-4097-1e6 run "$mg2d" --backend "$backend" --output out \
    --set "grid.points=[4097,4097]" --set problem.source=1 --set solve.check_every=1 \
    --set 'problem.coefficient="mod(floor(4*x) + floor(4*y), 2) == 0 ? 1e6 : 1"'
  row media-heat2-2049-cn-100 run "$here/examples/heat_two_materials.yaml" --backend "$backend" \
    --output out --set "grid.points=[2049,2049]" --set time.scheme=crank-nicolson \
    --set time.dt=0.002 --set time.end=0.2 --set solve.check_every=1 --set output.every=0
fi
if [ "$set" = media-twins ]; then
  electrode=(run "$here/examples/electrode_box.yaml" --backend "$backend" --output out
             --set problem.coefficient=1 --set "problem.fixed=[]" --set "output.fields=[u]")
  row twin-electrode-257 "${electrode[@]}" --set "grid.points=[257,257,257]"
  row twin-electrode-513 "${electrode[@]}" --set "grid.points=[513,513,513]"
  row twin-checker-4097 run "$mg2d" --backend "$backend" --output out \
    --set "grid.points=[4097,4097]" --set problem.source=1 --set solve.check_every=1
  row twin-heat2-2049-cn-100 run "$here/examples/heat_two_materials.yaml" --backend "$backend" \
    --output out --set "grid.points=[2049,2049]" --set time.scheme=crank-nicolson \
    --set time.dt=0.002 --set time.end=0.2 --set solve.check_every=1 --set output.every=0 \
    --set problem.diffusivity=1
  row cpu-electrode-257 run "$here/examples/electrode_box.yaml" --backend cpu --output out \
    --set "grid.points=[257,257,257]"
  exit 0
fi
[ "$set" = media ] && exit 0
big=(--set "grid.points=[8193,8193]" --output out)
row 2d-8193-expression   run "$mg2d" --backend "$backend" "${big[@]}"
row 2d-8193-source-1     run "$mg2d" --backend "$backend" "${big[@]}" --set problem.source=1
row 2d-8193-check        check "$mg2d" --set "grid.points=[8193,8193]"
row 3d-513-expression    run "$work/poisson3d.yaml" --backend "$backend"
row 3d-513-check         check "$work/poisson3d.yaml"
row 3d-513-check-full    check --full "$work/poisson3d.yaml"
# Explicit heat, 4097 x 2049, 2000 steps: without snapshots, and with one every 100 steps
# (20 snapshots of 67 MB).
heat=(run "$here/examples/heat_plate.yaml" --backend "$backend" --output out
      --set "grid.points=[4097,2049]" --set time.dt=1.3e-8 --set time.end=2.6e-5
      --set checkpoint.every=0 --set solve.diagnostics=false)
row heat-4097x2049-no-output "${heat[@]}" --set output.every=0
row heat-4097x2049-every-100 "${heat[@]}" --set output.every=100
row heat-every-100-queue-0   "${heat[@]}" --set output.every=100 --set output.queue=0
row heat-every-100-queue-8   "${heat[@]}" --set output.every=100 --set output.queue=8
row heat-every-100-float     "${heat[@]}" --set output.every=100 --set output.precision=float
