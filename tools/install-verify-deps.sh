#!/usr/bin/env bash
# Installs, from Debian 12's packages, what the verification stages of tools/run-tests.sh need
# beyond tools/install-deps.sh: ParaView's pvpython and a virtual X server for the ParaView
# round trip (paraview python3-paraview xvfb xauth), and clang with its runtime libraries for
# the libFuzzer target and the sanitizers (clang libclang-rt-14-dev: libFuzzer and the
# sanitizer runtimes; libomp-dev: OpenMP for clang).
set -euo pipefail

packages=(paraview python3-paraview xvfb xauth clang libclang-rt-14-dev libomp-dev)

exec "$(dirname "$0")/install-packages.sh" install-verify-deps "${packages[@]}"
