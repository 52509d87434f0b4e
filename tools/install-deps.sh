#!/usr/bin/env bash
# Installs everything fdsolve needs to build and test from Debian's packages.
# CUDA is optional: when nvcc is on the PATH (or in /usr/local/cuda/bin) the GPU backend is built.
set -euo pipefail

packages=(cmake ninja-build g++ pkg-config
          libhdf5-dev libyaml-cpp-dev libspdlog-dev libfmt-dev libcli11-dev libmuparser-dev
          doctest-dev hdf5-tools
          libopenmpi-dev openmpi-bin  # mpirun -n N fdsolve run (tests labelled mpi)
          libhdf5-openmpi-dev  # parallel HDF5: every rank writes its part of a snapshot
          python3-matplotlib python3-h5py  # tools/plot_*.py and their test
          python3-numpy python3-scipy)  # tests/media (SciPy's direct solve as the reference)

exec "$(dirname "$0")/install-packages.sh" install-deps "${packages[@]}"
