#!/usr/bin/env bash
# Snapshots written by several ranks: the same files as one rank's, whether the ranks write
# them collectively (parallel HDF5) or gather them to rank 0 (serial HDF5, the log says which):
# bit-identical fields (compare --rtol 0 --atol 0), the same .xmf, the same HDF5 layout and
# attributes (h5dump -A), and no temporary file left behind.
#   run_parallel_output.sh FDSOLVE MPIEXEC WORKDIR CASE RANKS
set -uo pipefail
fdsolve=$1 mpiexec=$2 work=$3 case=$4 n=$5
name=$(basename "$case" .yaml)
export OMP_NUM_THREADS=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
rm -rf "$work" && mkdir -p "$work"
fail() { echo "FAIL: $*"; exit 1; }

"$fdsolve" run "$case" --output "$work/n1" --quiet
expected=$?
"$mpiexec" -n "$n" --oversubscribe "$fdsolve" run "$case" --output "$work/n$n" > "$work/n$n.log" 2>&1
code=$?
[ "$code" -eq "$expected" ] || { cat "$work/n$n.log"; fail "$n ranks exit $code, 1 rank $expected"; }
grep -o "snapshots and checkpoints [^;]*" "$work/n$n.log" | head -1
"$fdsolve" compare "$work/n1" "$work/n$n" --rtol 0 --atol 0 > "$work/cmp" ||
  { cat "$work/cmp"; fail "$n ranks: snapshots differ from 1 rank"; }
diff "$work/n1/$name.xmf" "$work/n$n/$name.xmf" || fail "$n ranks: the .xmf differs"
count=0
for f in "$work"/n1/*.h5; do
  b=$(basename "$f")
  diff <(h5dump -A "$f" | tail -n +2) <(h5dump -A "$work/n$n/$b" | tail -n +2) ||
    fail "$n ranks: $b has another layout or other attributes"
  count=$((count + 1))
done
[ "$count" -gt 0 ] || fail "no snapshot written"
leftover=$(find "$work/n$n" -name '*.tmp*' | head -1)
[ -z "$leftover" ] || fail "temporary file left: $leftover"
echo "ok: $n ranks wrote $count snapshots identical to 1 rank's (fields, .xmf, layout, attributes)"
