#!/usr/bin/env bash
# Configures and builds fdsolve into build/ (Release). Extra arguments go to CMake's configure
# step, e.g. -DFDSOLVE_ENABLE_CUDA=OFF or -DCMAKE_CUDA_ARCHITECTURES=80.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v nvcc >/dev/null 2>&1 && [ -x /usr/local/cuda/bin/nvcc ]; then
  export PATH="/usr/local/cuda/bin:$PATH"
fi
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release "$@"
cmake --build build -j "$(nproc)"
