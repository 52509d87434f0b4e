#!/usr/bin/env bash
# Runs one case on 1 rank (no mpirun) and on each given rank count (mpirun --oversubscribe, CPU
# ranks), and requires the same exit code, bit-identical fields (compare --rtol 0 --atol 0) and,
# where the case has probes, the same probes.csv byte for byte: the Jacobi update and the
# explicit heat step are pointwise, so the split must not show.
#   run_parity.sh FDSOLVE MPIEXEC WORKDIR CASE RANKS... [-- EXTRA fdsolve run ARGS]
set -uo pipefail
fdsolve=$1 mpiexec=$2 work=$3 case=$4
shift 4
ranks=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do ranks+=("$1"); shift; done
[ "${1:-}" = "--" ] && shift
extra=("$@")

export OMP_NUM_THREADS=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
rm -rf "$work" && mkdir -p "$work"

"$fdsolve" run "$case" --output "$work/n1" --quiet "${extra[@]}"
expected=$?
status=0
for n in "${ranks[@]}"; do
  "$mpiexec" -n "$n" --oversubscribe "$fdsolve" run "$case" --output "$work/n$n" --quiet \
    "${extra[@]}" > "$work/n$n.log" 2>&1
  code=$?
  if [ "$code" -ne "$expected" ]; then
    echo "FAIL: $n ranks exited $code, 1 rank $expected"; cat "$work/n$n.log"; status=1; continue
  fi
  # The ranks must write the same snapshots: compare names one of one run only, and passes.
  if ! "$fdsolve" compare "$work/n1" "$work/n$n" --rtol 0 --atol 0 > "$work/n$n.cmp" ||
    grep -q '^not compared:' "$work/n$n.cmp"; then
    echo "FAIL: $n ranks differ from 1 rank"; cat "$work/n$n.cmp"; status=1; continue
  fi
  # Probes (output.probes): the same file, byte for byte.
  if [ -f "$work/n1/probes.csv" ] && ! cmp "$work/n1/probes.csv" "$work/n$n/probes.csv"; then
    echo "FAIL: $n ranks: probes.csv differs from 1 rank's"; status=1; continue
  fi
  echo "ok: $n ranks bit-identical to 1 rank (exit $code)"
done
exit $status
