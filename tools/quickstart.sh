#!/usr/bin/env bash
# One command on a fresh Debian machine: install dependencies, build, run the default example
# (examples/plate.yaml). Results land in out/plate/; open out/plate/plate.xmf in ParaView.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/install-deps.sh
tools/build.sh
build/solver/fdsolve run examples/plate.yaml
