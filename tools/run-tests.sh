#!/usr/bin/env bash
# One command on a fresh Debian machine: install dependencies, build, run the whole test suite.
#
#   tools/run-tests.sh            every stage (what CI runs, .ci/run)
#   tools/run-tests.sh --quick    only the build and the test suite; the ParaView test runs if
#                                 pvpython is installed and reports a skip otherwise
#   tools/run-tests.sh --stage S  one stage: tests, sanitizers or fuzz (after the installs)
#
# Stages:
#   tests       build/ (Release; CUDA where nvcc is found) and ctest: unit, regression,
#               robustness, verification, the ParaView round trip (required: a missing
#               pvpython fails it), tools, and the GPU tests (skipped without a GPU)
#   sanitizers  build-asan/ (CUDA off, -fsanitize=address,undefined) and ctest -L
#               'unit|regression'; any report fails the run
#   fuzz        build-fuzz/ (clang, libFuzzer) and tools/run-fuzz.sh for FDSOLVE_FUZZ_SECONDS
#               (default 60); any crash, hang or sanitizer report fails the run
set -euo pipefail
cd "$(dirname "$0")/.."

stages=(tests sanitizers fuzz)
quick=0
while [ $# -gt 0 ]; do
  case $1 in
    --quick) quick=1; stages=(tests) ;;
    --stage) stages=("$2"); shift ;;
    *) echo "usage: tools/run-tests.sh [--quick | --stage tests|sanitizers|fuzz]"; exit 2 ;;
  esac
  shift
done

jobs=$(nproc)
timings=()
stage_start() { echo "=== run-tests: $1"; stage_began=$SECONDS; }
stage_end() { timings+=("$(printf '%-12s %4d s' "$1" $((SECONDS - stage_began)))"); }

stage_start install
tools/install-deps.sh
if [ "$quick" -eq 0 ]; then tools/install-verify-deps.sh; fi
stage_end install

for stage in "${stages[@]}"; do
  case $stage in
    tests)
      stage_start tests
      # CUDA wherever nvcc is, GPU or not: the kernels' compile errors show here (a build/ that
      # tools/quickstart.sh configured without CUDA, where there is no GPU, gets it back).
      cuda_args=()
      if command -v nvcc >/dev/null 2>&1 || [ -x /usr/local/cuda/bin/nvcc ]; then
        cuda_args=(-DFDSOLVE_ENABLE_CUDA=ON)
      fi
      tools/build.sh "${cuda_args[@]}"
      # The ParaView round trip must run, not skip, wherever the verification packages are
      # installed (always in CI); --quick leaves it optional.
      if [ "$quick" -eq 0 ]; then export FDSOLVE_REQUIRE_PARAVIEW=1; fi
      ctest --test-dir build --output-on-failure
      stage_end tests
      ;;
    sanitizers)
      stage_start sanitizers
      # -O1 -g1 (line tables, assertions on): half the compile time of -O2 -g, and what the
      # sanitizers' documentation suggests; the CPU kernels keep their own -O3. Without the
      # precompiled headers and the unity group (cmake/FdsolvePrecompiled.cmake), so that a
      # source missing an include of its own fails here.
      cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1" -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -g1" \
        -DFDSOLVE_ENABLE_CUDA=OFF -DFDSOLVE_SANITIZE=address,undefined \
        -DFDSOLVE_PRECOMPILE_HEADERS=OFF -DFDSOLVE_UNITY_GROUPS=OFF
      cmake --build build-asan -j "$jobs"
      # exitcode 99: a sanitizer report can never pass for an expected exit code (1, 2) of
      # the CLI tests. libgomp needs no suppression (docs/testing.md); OMP_WAIT_POLICY=passive
      # because instrumented threads spinning at OpenMP barriers made small runs 10x slower.
      ASAN_OPTIONS=exitcode=99:strict_string_checks=1:check_initialization_order=1 \
      UBSAN_OPTIONS=print_stacktrace=1:exitcode=99 OMP_WAIT_POLICY=passive \
        ctest --test-dir build-asan -L 'unit|regression' --output-on-failure
      stage_end sanitizers
      ;;
    fuzz)
      stage_start fuzz
      CC=clang CXX=clang++ cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        -DFDSOLVE_ENABLE_CUDA=OFF -DFDSOLVE_BUILD_FUZZERS=ON -DFDSOLVE_BUILD_TESTS=OFF
      cmake --build build-fuzz -j "$jobs" --target fdsolve_fuzz_case_loader
      tools/run-fuzz.sh build-fuzz "${FDSOLVE_FUZZ_SECONDS:-60}"
      stage_end fuzz
      ;;
    *)
      echo "run-tests: unknown stage '$stage' (tests, sanitizers, fuzz)"
      exit 2
      ;;
  esac
done

echo "=== run-tests: all stages passed"
printf '  %s\n' "${timings[@]}"
