#!/usr/bin/env bash
# One command on a fresh Debian machine: install dependencies, build the program (fdsolve
# alone: the tests are tools/run-tests.sh's to build), run the default example
# (examples/plate.yaml). Results land in out/plate/; open out/plate/plate.xmf in ParaView.
# Arguments go to CMake's configure step (e.g. -DFDSOLVE_ENABLE_CUDA=OFF);
# FDSOLVE_SKIP_DEPS=1 skips the package check, FDSOLVE_BUILD_DIR builds elsewhere than build/.
#
# The CUDA backend is built where it can run: on a machine with an NVIDIA GPU (nvidia-smi lists
# one), for that GPU's architecture. Without a GPU it is left out (two fifths of the compile
# time, for a backend that could not run) unless asked for:
# -DFDSOLVE_ENABLE_CUDA=ON, -DCMAKE_CUDA_ARCHITECTURES=..., or CUDAARCHS in the environment.
# A build directory configured before keeps its choice.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${FDSOLVE_SKIP_DEPS:-0}" != 1 ]; then
  tools/install-deps.sh
fi
build=${FDSOLVE_BUILD_DIR:-build}
cuda_args=()
asked=0
for arg in "$@"; do
  if [[ $arg =~ ^-D(FDSOLVE_ENABLE_CUDA|CMAKE_CUDA_ARCHITECTURES)(:[A-Z]+)?= ]]; then asked=1; fi
done
if [ -n "${CUDAARCHS:-}" ]; then asked=1; fi
if [ "$asked" -eq 0 ] && [ ! -f "$build/CMakeCache.txt" ]; then
  gpus=$(nvidia-smi -L 2>/dev/null || true)
  if [[ $gpus == GPU\ * ]]; then
    echo "quickstart: an NVIDIA GPU is here: building the CUDA backend for it too (if nvcc is found)"
  else
    echo "quickstart: no NVIDIA GPU here: building the CPU backend alone" \
      "(-DFDSOLVE_ENABLE_CUDA=ON builds the CUDA one too)"
    cuda_args=(-DFDSOLVE_ENABLE_CUDA=OFF)
  fi
fi
tools/build.sh --target fdsolve "${cuda_args[@]}" "$@"
"$build/solver/fdsolve" run examples/plate.yaml
