#!/usr/bin/env bash
# Installs everything fdsolve needs to build and test from Debian's packages.
# CUDA is optional: when nvcc is on the PATH (or in /usr/local/cuda/bin) the GPU backend is built.
set -euo pipefail

packages=(cmake ninja-build g++ pkg-config
          libhdf5-dev libyaml-cpp-dev libspdlog-dev libfmt-dev libcli11-dev libmuparser-dev
          doctest-dev hdf5-tools
          python3-matplotlib python3-h5py)  # tools/plot_*.py and their test

missing=()
for p in "${packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all packages present"
  exit 0
fi

sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
echo "install-deps: installing ${missing[*]}"
$sudo apt-get update -q
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
