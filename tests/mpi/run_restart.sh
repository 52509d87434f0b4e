#!/usr/bin/env bash
# Restart across rank counts: a checkpoint written by 3 ranks, resumed on 2, must end
# bit-identical to an uninterrupted run on 1 rank.
#   run_restart.sh FDSOLVE MPIEXEC WORKDIR CASE FIRST TOTAL [PROBES]
# (a steady case with tolerance 0: FIRST iterations on 3 ranks, then up to TOTAL on 2). With
# PROBES (an output.probes list) both runs sample them, and the resumed run's probes.csv must
# be the uninterrupted run's, byte for byte (a case whose every iteration is a check).
# Then the final field, as a data file for the initial state and the source, starts the same
# case on 1 and 3 ranks: each rank reads its own box of the file.
set -uo pipefail
fdsolve=$1 mpiexec=$2 work=$3 case=$4 first=$5 total=$6 probes=${7:-}
probe_args=()
[ -n "$probes" ] && probe_args=(--set "output.probes=$probes")
name=$(basename "$case" .yaml)
export OMP_NUM_THREADS=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
rm -rf "$work" && mkdir -p "$work"
fail() { echo "FAIL: $*"; exit 1; }

"$fdsolve" run "$case" --output "$work/whole" --quiet --set solve.max_iterations="$total" \
  "${probe_args[@]}"
[ $? -eq 3 ] || fail "uninterrupted run did not stop at max_iterations"
"$mpiexec" -n 3 --oversubscribe "$fdsolve" run "$case" --output "$work/split" --quiet \
  --set solve.max_iterations="$first" --set checkpoint.every="$first" "${probe_args[@]}" \
  > "$work/first.log" 2>&1
[ $? -eq 3 ] || { cat "$work/first.log"; fail "3-rank run"; }
[ -f "$work/split/checkpoint.h5" ] || fail "3 ranks wrote no checkpoint"
"$mpiexec" -n 2 --oversubscribe "$fdsolve" run "$case" --output "$work/split" --quiet --resume \
  --set solve.max_iterations="$total" --set checkpoint.every="$first" "${probe_args[@]}" \
  > "$work/second.log" 2>&1
[ $? -eq 3 ] || { cat "$work/second.log"; fail "2-rank resumed run"; }
last=$(printf "%s_%08d.h5" "$name" "$total")
"$fdsolve" compare "$work/whole/$last" "$work/split/$last" --rtol 0 --atol 0 ||
  fail "resumed run differs from the uninterrupted one"
if [ -n "$probes" ]; then
  cmp "$work/whole/probes.csv" "$work/split/probes.csv" ||
    fail "the resumed run's probes.csv differs from the uninterrupted one's"
fi
echo "ok: $first iterations on 3 ranks + resume on 2 == $total iterations on 1 rank"
data="{file: '$work/whole/$last', dataset: /u}"
bash "$(dirname "$0")/run_parity.sh" "$fdsolve" "$mpiexec" "$work/data" "$case" 3 -- \
  --set "initial=$data" --set "problem.source=$data" || fail "data-file initial state and source"
