#!/usr/bin/env bash
# Runs that share cores must not collapse (issue 11): 2 x cores copies of a small CPU case
# started together must each finish within 20x the wall time of the same run alone, measured
# here. Before the fix libgomp's threads spun at every sweep's barrier and such runs took
# about 1000x longer; fair sharing alone would be 2x, so 20x leaves room for a loaded machine
# (ctest -j) and cannot pass by chance for the old behaviour. A second case is big enough to
# use every allowed thread, so the passive waiting of a full team is covered too. Each run's
# summary.json must report the threads its sweeps used: 1 for the small case, and
# min(cores, cells / 32768) (kernels/cpu/thread_policy.hpp) for the big one.
#
#   tests/regression/concurrency.sh FDSOLVE SOURCE_DIR
set -uo pipefail

fdsolve=$1
src=$2
cores=$(nproc)  # the affinity mask, as fdsolve's thread policy sees it
copies=$((2 * cores))
limit=20
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
failures=0

now() { date +%s%N; }

# run_case OUTDIR ARGS...: one run; prints its wall time in ms, or "fail" when it exits with
# anything but 0 (converged) or 3 (max_iterations: tolerance 0 may never be met).
run_case() {
  local out=$1
  shift
  local t0 t1 status=0
  t0=$(now)
  "$fdsolve" run "$src/examples/plate.yaml" --backend cpu --quiet --output "$out" "$@" \
    >"$out.log" 2>&1 || status=$?
  t1=$(now)
  if [ "$status" -ne 0 ] && [ "$status" -ne 3 ]; then
    echo "run exited $status: $(head -c 300 "$out.log")" >&2
    echo fail
    return
  fi
  echo $(((t1 - t0) / 1000000))
}

fail() {
  echo "FAIL $*"
  failures=$((failures + 1))
}

threads_of() { sed -n 's/^ *"threads": \([0-9]*\),*$/\1/p' "$1/summary.json"; }

# check NAME EXPECTED_THREADS ARGS...
check() {
  local name=$1 expected=$2
  shift 2
  local alone=999999999 t
  for rep in 1 2 3; do  # the best of three: the machine's load only ever adds time
    t=$(run_case "$scratch/$name-alone-$rep" "$@")
    if [ "$t" = fail ]; then
      fail "$name: the run alone failed"
      return
    fi
    [ "$t" -lt "$alone" ] && alone=$t
  done
  local pids=()
  for i in $(seq "$copies"); do
    (run_case "$scratch/$name-$i" "$@" >"$scratch/$name-$i.ms") &
    pids+=($!)
  done
  wait "${pids[@]}"
  local worst=0
  for i in $(seq "$copies"); do
    t=$(cat "$scratch/$name-$i.ms")
    if [ "$t" = fail ]; then
      fail "$name: concurrent run $i failed"
      continue
    fi
    [ "$t" -gt "$worst" ] && worst=$t
    local got
    got=$(threads_of "$scratch/$name-$i")
    [ "$got" = "$expected" ] || fail "$name: summary.json threads '$got', expected $expected"
  done
  local allowed=$((limit * (alone > 10 ? alone : 10)))  # 10 ms floor: process start jitter
  echo "$name: alone $alone ms (best of 3), $copies at once: slowest $worst ms, allowed $allowed ms"
  [ "$worst" -le "$allowed" ] || fail "$name: $worst ms > $limit x $alone ms"
}

common=(--set solve.tolerance=0 --set output.every=0)
check small 1 "${common[@]}" --set 'grid.points=[33,33]' --set solve.max_iterations=20000

# A square grid whose update box (n - 2)^2 holds at least cores x 32768 nodes.
n=$(awk -v c="$cores" 'BEGIN { n = int(sqrt(c * 32768)) + 3; print n }')
cells=$(((n - 2) * (n - 2)))
team=$((cells / 32768))
[ "$team" -gt "$cores" ] && team=$cores
check team "$team" "${common[@]}" --set "grid.points=[$n,$n]" \
  --set solve.max_iterations=$((200000000 / cells + 1))

[ "$failures" -eq 0 ] || exit 1
echo "ok"
