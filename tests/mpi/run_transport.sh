#!/usr/bin/env bash
# FDSOLVE_TRANSPORT on CPU ranks, whose halo is host memory: summary.json's parallel.transport
# says "host memory" with and without FDSOLVE_TRANSPORT=mpi (same fields); `nccl` (no GPU
# buffers to send) and an unknown value end every rank with exit 2 and one message naming the
# variable.
#   run_transport.sh FDSOLVE MPIEXEC WORKDIR CASE
set -uo pipefail
fdsolve=$1 mpiexec=$2 work=$3 case=$4
export OMP_NUM_THREADS=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
unset FDSOLVE_TRANSPORT
rm -rf "$work" && mkdir -p "$work"
status=0
fail() { echo "FAIL: $*"; status=1; }
transport() {
  python3 -c 'import json, sys; print(json.load(open(sys.argv[1] + "/summary.json"))["parallel"]["transport"])' "$1"
}

"$fdsolve" run "$case" --backend cpu --output "$work/one" --quiet
expected=$?  # the case may stop at its iteration limit (exit 3)
"$mpiexec" -n 2 --oversubscribe "$fdsolve" run "$case" --backend cpu --output "$work/default" \
  > "$work/default.log" 2>&1
code=$?
[ "$code" -eq "$expected" ] || { fail "default: exit $code, 1 rank $expected"; cat "$work/default.log"; }
FDSOLVE_TRANSPORT=mpi "$mpiexec" -x FDSOLVE_TRANSPORT -n 2 --oversubscribe "$fdsolve" run "$case" \
  --backend cpu --output "$work/mpi" > "$work/mpi.log" 2>&1
code=$?
[ "$code" -eq "$expected" ] || { fail "mpi: exit $code, 1 rank $expected"; cat "$work/mpi.log"; }
for run in default mpi; do
  t=$(transport "$work/$run")
  [ "$t" = "host memory" ] && echo "ok: $run: parallel.transport '$t'" ||
    fail "$run: parallel.transport '$t', expected 'host memory'"
done
grep -q "halo exchange: host memory (FDSOLVE_TRANSPORT=mpi)" "$work/mpi.log" ||
  fail "FDSOLVE_TRANSPORT=mpi: no log line"
"$fdsolve" compare "$work/default" "$work/mpi" --rtol 0 --atol 0 > "$work/cmp" ||
  { fail "FDSOLVE_TRANSPORT=mpi changed the fields"; cat "$work/cmp"; }

for value in nccl carrier-pigeon; do
  FDSOLVE_TRANSPORT=$value "$mpiexec" -x FDSOLVE_TRANSPORT -n 2 --oversubscribe "$fdsolve" run \
    "$case" --backend cpu --output "$work/$value" > "$work/$value.out" 2> "$work/$value.err"
  code=$?
  errors=$(grep -c "] error: " "$work/$value.err")
  if [ "$code" -ne 2 ] || [ "$errors" -ne 1 ] || ! grep -q "] error: .*FDSOLVE_TRANSPORT" "$work/$value.err"; then
    fail "FDSOLVE_TRANSPORT=$value: exit $code, $errors error lines"; cat "$work/$value.err"
  else
    echo "ok: FDSOLVE_TRANSPORT=$value: exit 2, $(grep "] error: " "$work/$value.err")"
  fi
done
exit $status
