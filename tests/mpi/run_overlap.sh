#!/usr/bin/env bash
# Overlap of the interior sweep with the halo exchange must not show in the results: for each
# rank count, a run with parallel.overlap true and one with false give fields bit-identical to
# the 1-rank run (no mpirun) and history norms identical to each other (the interior and rim
# statistics merge in the same fixed order; only the wall_seconds column may differ).
#   run_overlap.sh FDSOLVE MPIEXEC WORKDIR CASE RANKS...
set -uo pipefail
fdsolve=$1 mpiexec=$2 work=$3 case=$4
shift 4

export OMP_NUM_THREADS=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
rm -rf "$work" && mkdir -p "$work"

# CPU ranks on every machine: the log line checked below is the host-memory exchange's (GPU
# ranks have their own test, mpi_gpu_overlap).
"$fdsolve" run "$case" --output "$work/n1" --quiet --backend cpu
expected=$?
# history.csv without its last column (wall_seconds).
norms() { sed 's/,[^,]*$//' "$1/history.csv"; }

status=0
for n in "$@"; do
  for overlap in true false; do
    out=$work/n$n-$overlap
    "$mpiexec" -n "$n" --oversubscribe "$fdsolve" run "$case" --output "$out" --backend cpu \
      --set "parallel.overlap=$overlap" > "$out.log" 2>&1
    code=$?
    if [ "$code" -ne "$expected" ]; then
      echo "FAIL: $n ranks, overlap $overlap: exit $code, 1 rank $expected"; cat "$out.log"
      status=1; continue
    fi
    # The ranks must write the same snapshots: compare names one of one run only, and passes.
    if ! "$fdsolve" compare "$work/n1" "$out" --rtol 0 --atol 0 > "$out.cmp" ||
      grep -q '^not compared:' "$out.cmp"; then
      echo "FAIL: $n ranks, overlap $overlap: fields differ from 1 rank"; cat "$out.cmp"
      status=1; continue
    fi
    # The log says what ran (several ranks only: one rank has no exchange).
    if [ "$n" -gt 1 ]; then
      want="overlapped with the interior sweep"
      [ "$overlap" = false ] && want="not overlapped"
      if ! grep -q "halo exchange host memory, $want" "$out.log"; then
        echo "FAIL: $n ranks, overlap $overlap: the log does not say '$want'"; cat "$out.log"
        status=1; continue
      fi
      if ! grep -q "\"overlap\": $overlap" "$out/summary.json"; then
        echo "FAIL: $n ranks: summary.json's parallel object lacks overlap $overlap"
        status=1; continue
      fi
    fi
  done
  [ -f "$work/n$n-true/history.csv" ] && [ -f "$work/n$n-false/history.csv" ] || continue
  if ! diff <(norms "$work/n$n-true") <(norms "$work/n$n-false") > "$work/n$n.diff"; then
    echo "FAIL: $n ranks: history norms differ with and without overlap"; cat "$work/n$n.diff"
    status=1; continue
  fi
  echo "ok: $n ranks, overlap on and off: fields bit-identical to 1 rank, identical norms"
done
exit $status
