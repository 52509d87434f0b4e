#!/usr/bin/env bash
# Builds fdsolve with CUDA on the device machine, runs every test (GPU tests must pass, not
# skip), compute-sanitizer memcheck + racecheck, and `fdsolve bench`; logs go to $OUT.
# Run from the repository root. Knobs (environment):
#   DEVICE_TEST_TARGETS  build only these targets (default: all)
#   CTEST_ARGS           extra ctest arguments (e.g. "-L gpu"; "-R none" runs no test)
#   CTEST_JOBS           ctest -j (default 1; $(nproc) checks that the suite passes in parallel)
#   BENCH_ARGS           extra `fdsolve bench` arguments (e.g. "--dims 3 --precision float")
#   SKIP_SANITIZERS=1    skip compute-sanitizer;  SKIP_BENCH=1  skip the bench
#   SKIP_RUN_TIMINGS=1   skip the whole-run timings (check diagnostics on/off, Neumann faces)
#   SKIP_SIZES=1         skip the size ladder (`bench --sizes`, `tune`, plate runs per size)
#   SKIP_MG_BENCH=1      skip `fdsolve bench --multigrid` and the comparison time-to-solution runs
#   SKIP_ANY_SIZE=1      skip multigrid at sizes off 2^k + 1 (tools/mg_sizes.py) and the SIGTERM
#                        latencies (tools/interrupt_latency.py)
#   MG_BENCH_ARGS        extra `fdsolve bench --multigrid` arguments
#   SKIP_MEDIA=1         skip the heterogeneous-media timings (tools/media_timings.sh)
#   MEDIA_SIZES          "N2D N3D" for them (default "4097 257")
#   SKIP_SETUP=1         skip the whole-process timings of large runs (tools/setup_timings.sh)
#   SKIP_MPI_CPU=0       run multigrid over 1-16 CPU ranks (tools/mpi-cpu-scaling.sh; off by
#                        default: a minute of the device's CPUs, no GPU)
#   SKIP_IMPLICIT=1      skip implicit heat against explicit (tools/implicit_timings.sh;
#                        IMPLICIT_SET=2d|3d|all, default all)
#   SKIP_DISCRETIZATION=1  skip solve.tolerance: discretization against 1e-8
#                        (tools/discretization_timings.sh)
#   SKIP_MIXED=1         skip float cycles in a double solve against double and float
#                        (tools/mixed_precision_timings.sh)
#   KNOB_AB=NAME         time a measurement knob (e.g. FDSOLVE_FUSED_CORRECTION) off and on in
#                        turn (tools/knob_ab.sh, its KNOB_AB_* and ROUNDS as there)
#   SKIP_MULTI_GPU=1     skip, on a machine of two or more GPUs, the regression parity on all of
#                        them (tools/mpi-gpu-parity.sh), the scaling tables (tools/mpi-scaling.sh,
#                        SCALING_PARTS / SCALING_SWEEPS as there) and NVIDIA's samples beside
#                        (tools/nvidia-jacobi-anchor.sh, when NVIDIA_SAMPLES names a checkout)
# The comparison runs use examples/poisson_multigrid.yaml and tools/compare/ (CuPy, when the
# device's Python has it).
#   SANITIZER_TIMEOUT    seconds per sanitizer run (default 200)
#   SANITIZERS           which compute-sanitizer tools run (default "memcheck racecheck")
#   SANITIZER_TESTS      doctest --test-case filter for the sanitizer runs (default: all)
#   PROFILE=1            Nsight Compute profiles of the key sweeps (tools/profile-kernels.sh)
set -euo pipefail
SECONDS=0

OUT=${OUT:-$PWD/device-out}
mkdir -p "$OUT"
# The device tool brings back at most 8 files: everything under $OUT leaves as one archive.
pack_out() {
  local tmp
  tmp=$(mktemp -d)
  tar -czf "$tmp/device-test.tar.gz" -C "$OUT" . && rm -rf "${OUT:?}"/* \
    && mv "$tmp/device-test.tar.gz" "$OUT/"
}
trap pack_out EXIT
trap 'exit 143' TERM  # under `timeout`, still pack what is there
BUILD=build-device
failures=()

# muparser is not in the device image: its .deb files travel in .deps (named in `carry`).
if compgen -G ".deps/*.deb" > /dev/null; then
  mkdir -p .deps/prefix
  for f in .deps/*.deb; do dpkg -x "$f" .deps/prefix; done
  export CMAKE_PREFIX_PATH="$PWD/.deps/prefix/usr${CMAKE_PREFIX_PATH:+:$CMAKE_PREFIX_PATH}"
  export LD_LIBRARY_PATH="$PWD/.deps/prefix/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi

{
  echo "== date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  nvidia-smi -q | head -40 || true
  nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,clocks.max.sm,power.limit --format=csv || true
  nvcc --version | tail -2
  cmake --version | head -1
} > "$OUT/env.log" 2>&1

# --- build -----------------------------------------------------------------------------------
cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
  -DFDSOLVE_ENABLE_CUDA=ON -DFDSOLVE_CUDA_PTXAS_VERBOSE=ON 2>&1 | tee "$OUT/build.log"
targets=()
for t in ${DEVICE_TEST_TARGETS:-}; do targets+=(--target "$t"); done
cmake --build "$BUILD" -j "$(nproc)" "${targets[@]}" 2>&1 | tee -a "$OUT/build.log"
# Registers, shared memory and spills of every kernel, as ptxas reported them.
grep -E "ptxas info *: (Compiling entry|Used)|spill" "$OUT/build.log" \
  | sed -E 's/_ZN7fdsolve4cuda[0-9]+_GLOBAL__N__[0-9a-f_]+cu_[0-9a-f]+_[0-9]+//' \
  > "$OUT/ptxas.log" || true

# --- tests -----------------------------------------------------------------------------------
set +e
(cd "$BUILD" && ctest --output-on-failure --timeout 600 -j "${CTEST_JOBS:-1}" ${CTEST_ARGS:-}) 2>&1 \
  | tee "$OUT/ctest.log"
ctest_rc=${PIPESTATUS[0]}
set -e
[[ $ctest_rc -eq 0 ]] || failures+=("ctest (rc $ctest_rc)")
if ! grep -Eq "Test +#[0-9]+: gpu \.+ +Passed" "$OUT/ctest.log"; then
  failures+=("gpu tests did not pass (skipped or failed)")
fi

# --- bench -----------------------------------------------------------------------------------
if [[ "${SKIP_BENCH:-0}" != 1 ]]; then
  set +e
  # shellcheck disable=SC2086
  "$BUILD/solver/fdsolve" bench --json "$OUT/bench.json" ${BENCH_ARGS:-} 2>&1 \
    | tee "$OUT/bench.log"
  rc=${PIPESTATUS[0]}
  set -e
  [[ $rc -eq 0 ]] || failures+=("bench (rc $rc)")
  # Against the rows recorded for this GPU model (tools/bench-records/): a row more than 10 %
  # slower fails the run, so that a kernel's drop is seen the day it happens.
  model=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)
  record=tools/bench-records/$(python3 -c 'import sys; sys.path.insert(0, "tools")
import bench_compare; print(bench_compare.record_name(sys.argv[1]))' "${model:-unknown}")
  if [[ -f "$record" && -z "${BENCH_ARGS:-}" ]]; then
    python3 tools/bench_compare.py "$record" "$OUT/bench.json" 2>&1 | tee "$OUT/bench-compare.log"
    [[ ${PIPESTATUS[0]} -eq 0 ]] || failures+=("bench rows slower than $record")
  else
    echo "bench: nothing recorded to compare with for '${model:-unknown}' ($record; BENCH_ARGS" \
      "'${BENCH_ARGS:-}'): copy $OUT/bench.json there to record it" | tee "$OUT/bench-compare.log"
  fi
fi

# --- size ladder: the default beside the best variant per size, tune, small-grid runs ---------
# With an empty cache directory, so that the defaults are the built-in table's; then `tune`
# into its own directory and `check` naming that cache. The plate runs give wall time per
# sweep of the whole loop (graph-replayed blocks between the two checks) per kernel.
if [[ "${SKIP_SIZES:-0}" != 1 ]]; then
  set +e
  fd="$BUILD/solver/fdsolve"
  {
    XDG_CACHE_HOME="$BUILD/xdg-empty" "$fd" bench --sizes --backend cuda \
      --json "$OUT/bench_sizes.json"
    echo "# plate, 20000 sweeps, checks at 1 and 20000: wall us per sweep"
    for p in float double; do for n in 257 1025; do for k in default plain rows128g4 rows32g4; do
      args=(--set grid.points=[$n,$n] --set precision=$p --set solve.max_iterations=20000
            --set solve.tolerance=0 --set solve.check_every=100000 --set output.every=0)
      [[ $k != default ]] && args+=(--set tuning.kernel=$k)
      dir="$BUILD/sizes/$p-$n-$k"
      XDG_CACHE_HOME="$BUILD/xdg-empty" "$fd" run examples/plate.yaml --backend cuda --quiet \
        --output "$dir" "${args[@]}"
      python3 -c "import json; s=json.load(open('$dir/summary.json')); \
print('plate $p ${n}^2 $k:', s['kernel'], '%.3f us/sweep' % (1e6 * s['wall_seconds'] / s['iterations']), \
'(' + s['kernel_reason'] + ')')"
    done; done; done
    XDG_CACHE_HOME="$BUILD/xdg-tune" "$fd" tune --backend cuda --quick
    XDG_CACHE_HOME="$BUILD/xdg-tune" "$fd" check examples/plate.yaml | grep "# kernel"
  } 2>&1 | tee "$OUT/sizes.log"
  set -e
fi

# --- multigrid: work units, and time to solution beside CuPy (tools/compare/) -----------------
if [[ "${SKIP_MG_BENCH:-0}" != 1 ]]; then
  set +e
  # shellcheck disable=SC2086
  "$BUILD/solver/fdsolve" bench --multigrid --backend cuda --json "$OUT/bench_mg.json" \
    ${MG_BENCH_ARGS:-} 2>&1 | tee "$OUT/bench_mg.log"
  rc=${PIPESTATUS[0]}
  [[ $rc -eq 0 ]] || failures+=("bench --multigrid (rc $rc)")
  {
    for n in 1025 4097; do
      # fdsolve run, multigrid, stopped at a residual 1e-8 of the initial one, as the CG script
      # (double rounding floors the residual near 1e-10 of it at 4097^2); the bench's
      # fmg-solve rows find where the discretization error is reached.
      "$BUILD/solver/fdsolve" run examples/poisson_multigrid.yaml --backend cuda --quiet \
        --output "$BUILD/compare$n" --set grid.points=[$n,$n] --set solve.tolerance=1e-8 \
        --set solve.max_iterations=100 --set solve.diagnostics=false
      python3 -c "import json; s=json.load(open('$BUILD/compare$n/summary.json')); \
print('fdsolve multigrid $n^2:', s['iterations'], 'cycles', '%.4f s' % s['wall_seconds'])"
    done
    if python3 -c "import cupy" 2>/dev/null; then
      for n in 1025 4097; do
        python3 tools/compare/cg_poisson.py --n $n --dims 2
        python3 tools/compare/dst_poisson.py --n $n --dims 2
      done
    else
      echo "tools/compare: skipped, $(command -v python3) has no cupy"
    fi
  } 2>&1 | tee "$OUT/compare.log"
  set -e
fi

# --- any grid size: multigrid beside the nearest 2^k + 1 size; SIGTERM in long solves ---------
if [[ "${SKIP_ANY_SIZE:-0}" != 1 ]]; then
  set +e
  fd="$BUILD/solver/fdsolve"
  {
    python3 tools/mg_sizes.py --fdsolve "$fd" --backend cuda --set gpu
    python3 tools/mg_sizes.py --fdsolve "$fd" --backend cuda --set default
    latency() { python3 tools/interrupt_latency.py --fdsolve "$fd" --after 2 --delay 0.5 -- "$@"; }
    common=(--set output.every=0 --set output.fields=[u] --set solve.max_wall_time=60)
    # Long GPU runs: explicit and Crank-Nicolson heat (2D, and 3D by multigrid cycles), Jacobi
    # on 500^3. A steady multigrid solve on the GPU ends within a second at these sizes.
    latency examples/heat_plate.yaml --backend cuda "${common[@]}" --set grid.points=[4000,4000] \
      --set time.end=1e3
    latency examples/heat_plate_implicit.yaml --backend cuda "${common[@]}" \
      --set grid.points=[4000,4000] --set time.end=1e3
    latency examples/poisson_box.yaml --backend cuda "${common[@]}" \
      --set grid.points=[500,500,500] --set solve.method=jacobi --set solve.tolerance=0
    latency examples/heat_plate_implicit.yaml --backend cuda "${common[@]}" \
      --set grid.points=[500,500,500] --set grid.extent=[1,1,1] --set stencil=7 \
      --set checkpoint.every=0 --set time.end=1e3
    # The CPU backend on all cores: cycles of a second and more, abandoned part-way.
    latency examples/poisson_multigrid.yaml --backend cpu "${common[@]}" \
      --set grid.points=[8000,8000] --set solve.tolerance=1e-15
    latency examples/poisson_multigrid.yaml --backend cpu "${common[@]}" \
      --set grid.points=[500,500,500] --set grid.extent=[1,1,1] --set stencil=7 \
      --set solve.tolerance=1e-15
  } 2>&1 | tee "$OUT/any_size.log"
  set -e
fi

# --- heterogeneous media: CG + multigrid on checkerboards and an inclusion -----------------------
if [[ "${SKIP_MEDIA:-0}" != 1 ]]; then
  # shellcheck disable=SC2086
  tools/media_timings.sh "$PWD/$BUILD/solver/fdsolve" cuda "$OUT/media" ${MEDIA_SIZES:-4097 257} \
    2>&1 | tee "$OUT/media.log"
  find "$OUT/media" -name '*.h5' -delete 2>/dev/null || true
fi

# --- implicit heat against explicit at equal accuracy (heat_plate to t = 0.1, 2D and 3D) --------
if [[ "${SKIP_IMPLICIT:-0}" != 1 ]]; then
  tools/implicit_timings.sh "$PWD/$BUILD/solver/fdsolve" cuda "$OUT/implicit" "${IMPLICIT_SET:-all}" \
    2>&1 | tee "$OUT/implicit.log"
fi

# --- solve.tolerance: discretization against 1e-8 (anchors' Poisson problem, 2D and 3D) ----
if [[ "${SKIP_DISCRETIZATION:-0}" != 1 ]]; then
  tools/discretization_timings.sh "$PWD/$BUILD/solver/fdsolve" cuda "$OUT/discretization" \
    2>&1 | tee "$OUT/discretization.log"
fi

# --- a measurement knob off and on in turn (tools/knob_ab.sh), when KNOB_AB names one ----------
if [[ -n "${KNOB_AB:-}" ]]; then
  tools/knob_ab.sh "$PWD/$BUILD/solver/fdsolve" cuda "$OUT/knob_ab" "$KNOB_AB" \
    2>&1 | tee "$OUT/knob_ab.log"
fi

# --- solve.multigrid.precision: float against double and float cycles (anchors' problem) ----
if [[ "${SKIP_MIXED:-0}" != 1 ]]; then
  tools/mixed_precision_timings.sh "$PWD/$BUILD/solver/fdsolve" cuda "$OUT/mixed" \
    2>&1 | tee "$OUT/mixed.log"
fi

# --- several GPUs of the node: parity, scaling, NVIDIA's samples beside ----------------------
gpus=$(nvidia-smi -L 2>/dev/null | grep -c "^GPU" || true)
if [[ "${SKIP_MULTI_GPU:-0}" != 1 && ${gpus:-0} -ge 2 ]]; then
  set +e
  fd="$PWD/$BUILD/solver/fdsolve"
  tools/mpi-gpu-parity.sh "$fd" "$gpus" "$BUILD/multi-gpu/parity" 2>&1 | tee "$OUT/multi_gpu.log"
  [[ ${PIPESTATUS[0]} -eq 0 ]] || failures+=("regression parity on $gpus GPUs")
  tools/mpi-scaling.sh "$fd" "$gpus" "$BUILD/multi-gpu/scaling" 2>&1 | tee -a "$OUT/multi_gpu.log"
  if [[ -n "${NVIDIA_SAMPLES:-}" ]]; then
    tools/nvidia-jacobi-anchor.sh "$NVIDIA_SAMPLES" "$gpus" "$BUILD/multi-gpu/anchor" 2>&1 \
      | tee -a "$OUT/multi_gpu.log"
  fi
  find "$BUILD/multi-gpu" -name '*.h5' -delete 2>/dev/null
  set -e
fi

# --- multigrid over CPU ranks of the node (1-16 ranks of one thread, and 16 threads) ---------
if [[ "${SKIP_MPI_CPU:-1}" != 1 ]]; then
  tools/mpi-cpu-scaling.sh "$PWD/$BUILD/solver/fdsolve" "$OUT/mpi-cpu" 2>&1 | tee "$OUT/mpi-cpu.log"
  find "$OUT/mpi-cpu" -name '*.h5' -delete 2>/dev/null || true
fi

if [[ "${SKIP_SETUP:-0}" != 1 ]]; then
  tools/setup_timings.sh "$PWD/$BUILD/solver/fdsolve" cuda "$OUT/setup" 2>&1 | tee "$OUT/setup.log"
  # A snapshot's write beside dd's on the same file system (the 67 MB field of the heat run).
  "$BUILD/solver/fdsolve" bench --io --dir "$OUT/setup" 2>&1 | tee -a "$OUT/setup.log"
fi

# --- sanitizers ------------------------------------------------------------------------------
gpu_tests="$BUILD/tests/fdsolve_gpu_tests"
if [[ "${SKIP_SANITIZERS:-0}" != 1 ]]; then
  for tool in ${SANITIZERS:-memcheck racecheck}; do
    set +e
    # The out-of-memory test is left out: a refused cudaMalloc is the point there, not a bug.
    # racecheck slows kernels ~100x: the solver-level "problems" suite (thousands of sweeps of
    # kernels the parity tests already cover) runs under memcheck only.
    # FDSOLVE_GPU_TEST_QUICK=2 also trims the blocked 3D cases for racecheck.
    exclude_suite=""
    quick=1
    [[ $tool == racecheck ]] && exclude_suite="--test-suite-exclude=problems" && quick=2
    only=""
    [[ -n "${SANITIZER_TESTS:-}" ]] && only="--test-case=$SANITIZER_TESTS"
    FDSOLVE_GPU_TEST_QUICK=$quick timeout "${SANITIZER_TIMEOUT:-200}" compute-sanitizer --tool "$tool" --error-exitcode 9 \
      "$gpu_tests" --test-case-exclude="*out of device memory*" $exclude_suite $only 2>&1 | tail -n 60 \
      | sed "s/^/[$tool] /" | tee -a "$OUT/sanitizer.log"
    rc=${PIPESTATUS[0]}
    set -e
    [[ $rc -eq 0 ]] || failures+=("compute-sanitizer $tool (rc $rc)")
  done
fi

# --- whole-run timings -------------------------------------------------------------------------
# The cost of the check diagnostics in a real run (check_every 100, diagnostics on vs off) and of
# Neumann faces (their halo is filled before every sweep) against all-Dirichlet faces: the same
# fixed number of iterations, wall_seconds of the loop from summary.json, 3 repeats each.
if [[ "${SKIP_RUN_TIMINGS:-0}" != 1 ]]; then
  fd="$BUILD/solver/fdsolve"
  timed_run() {  # label, case, then --set arguments
    local label=$1 case=$2
    shift 2
    local dir="$BUILD/timing/$label"
    "$fd" run "$case" --backend cuda --quiet --output "$dir" --set solve.tolerance=0 \
      --set solve.method=jacobi \
      --set solve.check_every=100 --set output.every=0 --set output.fields=[u] "$@" || true
    python3 -c "import json,sys; s=json.load(open('$dir/summary.json')); \
print('$label', s['iterations'], '%.4f' % s['wall_seconds'], '%.4g' % s['cells_per_second'])"
  }
  {
    echo "# label iterations wall_seconds cells_per_second"
    for rep in 1 2 3; do
      for d in true false; do
        timed_run "2d-double-diag-$d" examples/plate.yaml --set grid.points=[16385,16385] \
          --set solve.max_iterations=3000 --set solve.diagnostics=$d
        timed_run "3d-float-diag-$d" examples/poisson_box.yaml --set grid.points=[513,513,513] \
          --set precision=float --set solve.max_iterations=3000 --set solve.diagnostics=$d
      done
      timed_run "3d-float-neumann" examples/poisson_box.yaml --set grid.points=[513,513,513] \
        --set precision=float --set solve.max_iterations=3000 --set solve.diagnostics=false \
        --set "boundary={default: {type: neumann, gradient: 0}, z_min: {type: dirichlet, value: 0}}"
    done
  } 2>&1 | tee "$OUT/run_timings.log"
fi

# --- profiles -------------------------------------------------------------------------------
if [[ "${PROFILE:-0}" == 1 ]]; then
  tools/profile-kernels.sh "$BUILD/solver/fdsolve" "$OUT/profile" > "$OUT/profile.log" 2>&1 || true
  cat "$OUT/profile/summary.txt" 2>/dev/null || true
fi

# --- summary (last, so that the reply's tail carries it) -------------------------------------
echo "===================== summary ($SECONDS s) ====================="
head -1 "$OUT/env.log"
grep -m1 "Product Name" "$OUT/env.log" || true
grep -E "tests passed|tests failed|\*\*\*|Skipped|Failed  " "$OUT/ctest.log" | tail -n 15 || true
grep -E "ERROR SUMMARY|RACECHECK SUMMARY|test cases" "$OUT/sanitizer.log" 2>/dev/null || true
[[ -f "$OUT/bench.log" ]] && cat "$OUT/bench.log"
[[ -f "$OUT/sizes.log" ]] && cat "$OUT/sizes.log"
[[ -f "$OUT/bench_mg.log" ]] && cat "$OUT/bench_mg.log"
[[ -f "$OUT/compare.log" ]] && cat "$OUT/compare.log"
[[ -f "$OUT/any_size.log" ]] && cat "$OUT/any_size.log"
[[ -f "$OUT/media.log" ]] && cat "$OUT/media.log"
[[ -f "$OUT/run_timings.log" ]] && cat "$OUT/run_timings.log"
[[ -f "$OUT/multi_gpu.log" ]] && cat "$OUT/multi_gpu.log"
if ((${#failures[@]})); then
  printf 'FAILED: %s\n' "${failures[@]}"
  exit 1
fi
echo "ALL PASSED"
