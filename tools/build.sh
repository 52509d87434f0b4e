#!/usr/bin/env bash
# Configures and builds fdsolve (Release) into build/, or into $FDSOLVE_BUILD_DIR. Leading
# `--target NAME` options pick what to build (default: everything, tests included); the other
# arguments go to CMake's configure step, e.g. -DFDSOLVE_ENABLE_CUDA=OFF or
# -DCMAKE_CUDA_ARCHITECTURES=80.
set -euo pipefail
cd "$(dirname "$0")/.."
targets=()
while [ $# -ge 2 ] && [ "$1" = --target ]; do
  targets+=(--target "$2")
  shift 2
done
if ! command -v nvcc >/dev/null 2>&1 && [ -x /usr/local/cuda/bin/nvcc ]; then
  export PATH="/usr/local/cuda/bin:$PATH"
fi
build=${FDSOLVE_BUILD_DIR:-build}
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release "$@"
cmake --build "$build" -j "$(nproc)" "${targets[@]}"
