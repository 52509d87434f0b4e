#!/usr/bin/env bash
# A multigrid run over 3 ranks stopped by its wall-time limit: the ranks agree on the stop
# with the cycle's norms (one collective a cycle), all exit 3 at the same cycle boundary with a
# checkpoint, and the run resumed on 2 ranks ends bit-identical to an unstopped run on 1 rank.
#   run_time_limit.sh FDSOLVE MPIEXEC WORKDIR CASE
# A limit of 1 ns is reached by the first check: the stop comes after the full-multigrid start,
# cycle 1, whatever the machine's speed.
set -uo pipefail
fdsolve=$1 mpiexec=$2 work=$3 case=$4
export OMP_NUM_THREADS=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
rm -rf "$work" && mkdir -p "$work"
fail() { echo "FAIL: $*"; exit 1; }
settings=(--set solve.max_iterations=12 --set output.every=0)

"$fdsolve" run "$case" --output "$work/whole" --quiet "${settings[@]}"
[ $? -eq 3 ] || fail "the unstopped run did not end at max_iterations"
"$mpiexec" -n 3 --oversubscribe "$fdsolve" run "$case" --output "$work/split" --quiet \
  "${settings[@]}" --time-limit 1e-9 > "$work/first.log" 2>&1
[ $? -eq 3 ] || { cat "$work/first.log"; fail "3 ranks at the time limit did not exit 3"; }
[ -f "$work/split/checkpoint.h5" ] || fail "3 ranks wrote no checkpoint at the time limit"
python3 - "$work/split/summary.json" <<'PY' || fail "summary.json of the stopped run"
import json, sys
s = json.load(open(sys.argv[1]))
assert s["status"] == "time_limit", s["status"]
assert s["iterations"] == 1, s["iterations"]
PY
"$mpiexec" -n 2 --oversubscribe "$fdsolve" run "$case" --output "$work/split" --quiet --resume \
  "${settings[@]}" > "$work/second.log" 2>&1
[ $? -eq 3 ] || { cat "$work/second.log"; fail "the resumed run on 2 ranks"; }
last=$(printf "%s_%08d.h5" "$(basename "$case" .yaml)" 12)  # the stop's own snapshot is extra
"$fdsolve" compare "$work/whole/$last" "$work/split/$last" --rtol 0 --atol 0 > "$work/compare.log" ||
  { cat "$work/compare.log"; fail "the resumed run differs from the unstopped one"; }
echo "ok: 3 ranks stopped together at cycle 1 by the time limit; resumed on 2 == 1 rank"
