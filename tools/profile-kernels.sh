#!/usr/bin/env bash
# Nsight Compute profiles of the sweeps behind issue 14's missed targets, on the device machine:
# what bounds each kernel (DRAM, L2, shared memory, issue, occupancy) and how long each kernel
# of a sweep sequence takes, so that docs/performance.md can explain the limits with counters.
# Usage: tools/profile-kernels.sh FDSOLVE OUTDIR   (run from the repository root)
# The runs are short (a few hundred sweeps); ncu replays each profiled launch, with the
# clocks left alone (--clock-control none, as the device notes ask).
set -uo pipefail
fd=$1
out=$2
mkdir -p "$out"
work=$(mktemp -d)

if ! ncu --version > "$out/ncu-version.txt" 2>&1; then
  echo "ncu is not usable here; no profiles" | tee "$out/summary.txt"
  exit 0
fi

# The sections read for a bound: speed of light, memory, occupancy, launch, warp stalls.
sections=(--section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy
          --section LaunchStats --section WarpStateStats --section SchedulerStats
          --section ComputeWorkloadAnalysis)
# Per-kernel durations and traffic of every launch in a window of a run.
timeline=(--metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_bytes.sum,launch__registers_per_thread,launch__occupancy_limit_registers,sm__warps_active.avg.pct_of_peak_sustained_active)

# profile LABEL KERNEL_REGEX SKIP COUNT NCU_ARGS... -- CASE --set ...
profile() {
  local label=$1 regex=$2 skip=$3 count=$4
  shift 4
  local ncu_args=()
  while [[ $1 != -- ]]; do ncu_args+=("$1"); shift; done
  shift
  local case=$1
  shift
  echo "== $label" | tee -a "$out/summary.txt"
  timeout 240 ncu --clock-control none --kernel-name-base demangled -k "regex:$regex" \
    --launch-skip "$skip" --launch-count "$count" "${ncu_args[@]}" \
    "$fd" run "$case" --backend cuda --quiet --output "$work/$label" \
    --set solve.tolerance=0 --set solve.method=jacobi --set output.every=0 \
    --set output.fields=[u] --set solve.diagnostics=false "$@" > "$out/$label.txt" 2>&1
  echo "rc $?" >> "$out/$label.txt"
  grep -E "^  [a-z_:]+.*\(|Duration|DRAM Throughput|Memory Throughput|L2 Cache Throughput|L1/TEX Cache Throughput|Compute \(SM\) Throughput|Achieved Occupancy|Theoretical Occupancy|Registers Per Thread|Block Limit Registers|Block Limit Shared Mem|Issue Slots Busy|gpu__time_duration|dram__bytes|lts__t_bytes|launch__registers" \
    "$out/$label.txt" | head -n 60 | tee -a "$out/summary.txt"
}

plate=examples/plate.yaml
box=examples/poisson_box.yaml
p2=(--set solve.max_iterations=300 --set solve.check_every=100)
p3=(--set solve.max_iterations=120 --set solve.check_every=100)

# 1025^2 double, the default (plain): kernel time against the 4.6-4.8 us per sweep of runs. In
# a run the field stays in L2 (17 MB a buffer, 50 MB of L2), so the caches are left warm here.
profile 2d-1025-double-plain ".*plain_kernel.*" 150 2 --cache-control none "${sections[@]}" \
  -- "$plate" --set grid.points=[1025,1025] --set precision=double --set tuning.kernel=plain \
  "${p2[@]}"
profile 2d-1025-double-timeline ".*" 150 12 --cache-control none "${timeline[@]}" -- "$plate" \
  --set grid.points=[1025,1025] --set precision=double --set tuning.kernel=plain "${p2[@]}"

# 512^3 27-point: the default's unchecked sweeps, and its checked ones (checks on every sweep).
# (Kernels are picked by base name and by the run's checks: -k regexes over the template
# arguments matched nothing on the H100, 2026-11-23.)
for k in vmarch4p1 vring16s3; do
  base=${k%%[0-9]*}3d_kernel
  profile "3d-513-27pt-float-$k" ".*$base.*" 20 1 "${sections[@]}" -- "$box" \
    --set grid.points=[513,513,513] --set precision=float --set tuning.kernel=$k "${p3[@]}"
  profile "3d-513-27pt-float-$k-checked" ".*$base.*" 10 1 "${sections[@]}" -- "$box" \
    --set grid.points=[513,513,513] --set precision=float --set tuning.kernel=$k \
    --set solve.max_iterations=20 --set solve.check_every=1
done

# 3D faces: every kernel of a window of sweeps, Neumann faces (y/z fills + the ghost-writing
# sweep) against all Dirichlet, caches warm as in a run.
neumann='boundary={default: {type: neumann, gradient: 0}, z_min: {type: dirichlet, value: 0}}'
profile 3d-513-neumann-timeline ".*" 60 12 --cache-control none "${timeline[@]}" -- "$box" \
  --set grid.points=[513,513,513] --set precision=float "${p3[@]}" --set "$neumann"
profile 3d-513-dirichlet-timeline ".*" 30 6 --cache-control none "${timeline[@]}" -- "$box" \
  --set grid.points=[513,513,513] --set precision=float "${p3[@]}"
profile 3d-513-neumann-sweep ".*vmarch3d_kernel.*" 20 1 "${sections[@]}" -- "$box" \
  --set grid.points=[513,513,513] --set precision=float "${p3[@]}" --set "$neumann"

# 2D norm on a sweep: the 16385^2 double default, checked (every 2nd sweep) and unchecked.
profile 2d-16385-double-norm-timeline ".*rows2d.*" 40 4 "${timeline[@]}" --section LaunchStats \
  -- "$plate" \
  --set grid.points=[16385,16385] --set precision=double --set solve.max_iterations=60 \
  --set solve.check_every=2

# Temporal blocking at 16384^2 (2D) and 513^3 (3D 7-point).
profile 2d-16385-float-tb128x128 ".*tblock2d.*" 2 1 "${sections[@]}" -- "$plate" \
  --set grid.points=[16385,16385] --set precision=float --set tuning.blocked_kernel=tb128x128 \
  --set solve.max_iterations=64 --set solve.check_every=32
profile 3d-513-7pt-float-tb3d32 ".*tblock3d.*" 2 1 "${sections[@]}" -- "$box" \
  --set grid.points=[513,513,513] --set precision=float --set stencil=7 \
  --set tuning.blocked_kernel=tb3d32 --set solve.max_iterations=64 --set solve.check_every=32

rm -rf "$work"
