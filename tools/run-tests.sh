#!/usr/bin/env bash
# One command on a fresh Debian machine: install dependencies, build, run the whole test suite
# (unit, regression, and GPU tests, which report a skip where there is no GPU).
set -euo pipefail
cd "$(dirname "$0")/.."
tools/install-deps.sh
tools/build.sh
ctest --test-dir build --output-on-failure
