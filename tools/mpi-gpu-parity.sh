#!/usr/bin/env bash
# The regression cases on N GPU ranks against 1 rank, bit for bit (issue 12's device check):
#   tools/mpi-gpu-parity.sh FDSOLVE [RANKS] [OUTDIR]
# Runs every tests/regression/<case>/case.yaml (multigrid cases included: their levels split
# over the ranks, docs/parallel.md) with --backend cuda on 1 rank and under
# `mpirun -n RANKS` (one GPU per rank of the node), then `fdsolve compare --rtol 0 --atol 0`.
# PARITY_TRANSPORTS (default: the run's own choice) lists FDSOLVE_TRANSPORT values to run the
# RANKS-rank side with, each against the same 1-rank run (docs/parallel.md, "Transports"):
# "nccl mpi" checks the NCCL exchange and the staged fallback.
set -uo pipefail
fdsolve=${1:?usage: tools/mpi-gpu-parity.sh FDSOLVE [RANKS] [OUTDIR]}
ranks=${2:-2}
out=${3:-mpi-gpu-parity}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mkdir -p "$out"
failed=0 passed=0
for case_file in tests/regression/*/case.yaml; do
  name=$(basename "$(dirname "$case_file")")
  "$fdsolve" run "$case_file" --backend cuda --quiet --output "$out/$name-1" > "$out/$name-1.log" 2>&1
  one=$?
  for transport in ${PARITY_TRANSPORTS:-auto}; do
    tag=$ranks
    [[ $transport != auto ]] && tag=$ranks-$transport
    FDSOLVE_TRANSPORT=$transport mpirun -n "$ranks" --oversubscribe -x FDSOLVE_TRANSPORT \
      "$fdsolve" run "$case_file" --backend cuda --quiet --output "$out/$name-$tag" \
      > "$out/$name-$tag.log" 2>&1
    many=$?
    if [[ $one -ne $many ]]; then
      echo "FAIL $name: exit $one on 1 rank, $many on $ranks ($transport)"
      failed=$((failed + 1)); continue
    fi
    if "$fdsolve" compare "$out/$name-1" "$out/$name-$tag" --rtol 0 --atol 0 \
        > "$out/$name-$tag.cmp"; then
      echo "ok   $name: $ranks GPU ranks ($transport) bit-identical to 1 (exit $one)"
      passed=$((passed + 1))
    else
      echo "FAIL $name: $ranks GPU ranks ($transport) differ"; tail -3 "$out/$name-$tag.cmp"
      failed=$((failed + 1))
    fi
  done
done
grep -h "MPI:\|CUDA-aware\|device\|halo exchange" "$out"/*-"$ranks"*.log 2>/dev/null | sort | uniq -c | head -8
echo "$passed passed, $failed failed"
[[ $failed -eq 0 ]]
