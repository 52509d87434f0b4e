#!/usr/bin/env bash
# tools/quickstart.sh on a copy of the source tree (the package check skipped, CUDA off):
# it must build the program and no test executable, run the example to its results, and end
# by naming the .xmf to open and the plot command. With ccache (which the build uses wherever
# it is installed) a rebuild takes seconds; without, it compiles the program once (about
# 3 CPU minutes).
#
#   tests/tools/quickstart_test.sh SOURCE_DIR
set -uo pipefail
src=$1
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
failures=0
fail() {
  echo "FAIL $*"
  failures=$((failures + 1))
}

tar -C "$src" --exclude='./build*' --exclude=./out --exclude=./.git -cf - . | tar -C "$scratch" -xf -
export CCACHE_BASEDIR="$scratch"  # relative paths: a second run of this test hits the cache
if ! (cd "$scratch" && FDSOLVE_SKIP_DEPS=1 tools/quickstart.sh -DFDSOLVE_ENABLE_CUDA=OFF \
    >"$scratch/log" 2>&1); then
  tail -20 "$scratch/log"
  fail "quickstart.sh exited non-zero"
fi
[ -x "$scratch/build/solver/fdsolve" ] || fail "build/solver/fdsolve was not built"
# Every executable the build produced, bar CMake's own probes: only fdsolve may be among them.
extra=$(find "$scratch/build" -path '*/CMakeFiles' -prune -o -type f -perm -u+x -print |
        grep -v '/solver/fdsolve$')
[ -z "$extra" ] || fail "quickstart built more than the program: $extra"
[ -f "$scratch/out/plate/plate.xmf" ] || fail "out/plate/plate.xmf was not written"
[ -f "$scratch/out/plate/summary.json" ] || fail "out/plate/summary.json was not written"
grep -q "open out/plate/plate.xmf in ParaView" "$scratch/log" ||
  fail "the run does not name the .xmf to open"
grep -q "tools/plot_history.py out/plate" "$scratch/log" || fail "the run does not name the plot command"
[ "$failures" -eq 0 ] || exit 1
echo ok
