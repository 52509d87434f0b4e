#!/usr/bin/env bash
# Installs, from Debian 12's packages, what the verification stages of tools/run-tests.sh need
# beyond tools/install-deps.sh: ParaView's pvpython and a virtual X server for the ParaView
# round trip (paraview python3-paraview xvfb xauth), and clang with its runtime libraries for
# the libFuzzer target and the sanitizers (clang libclang-rt-14-dev: libFuzzer and the
# sanitizer runtimes; libomp-dev: OpenMP for clang).
set -euo pipefail

packages=(paraview python3-paraview xvfb xauth clang libclang-rt-14-dev libomp-dev)

missing=()
for p in "${packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-verify-deps: all packages present"
  exit 0
fi

sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
echo "install-verify-deps: installing ${missing[*]}"
$sudo apt-get update -q
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
