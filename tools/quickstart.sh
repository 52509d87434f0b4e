#!/usr/bin/env bash
# One command on a fresh Debian machine: install dependencies, build the program (fdsolve
# alone: the tests are tools/run-tests.sh's to build), run the default example
# (examples/plate.yaml). Results land in out/plate/; open out/plate/plate.xmf in ParaView.
# Arguments go to CMake's configure step (e.g. -DFDSOLVE_ENABLE_CUDA=OFF);
# FDSOLVE_SKIP_DEPS=1 skips the package check, FDSOLVE_BUILD_DIR builds elsewhere than build/.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${FDSOLVE_SKIP_DEPS:-0}" != 1 ]; then
  tools/install-deps.sh
fi
tools/build.sh --target fdsolve "$@"
"${FDSOLVE_BUILD_DIR:-build}/solver/fdsolve" run examples/plate.yaml
