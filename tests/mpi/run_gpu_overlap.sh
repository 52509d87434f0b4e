#!/usr/bin/env bash
# Ranks on the CUDA backend (they share device node_rank % devices, so one GPU is enough):
# with parallel.overlap true and false the fields must be bit-identical to one CUDA rank (the
# update is pointwise, the kernel the same), their norms identical to each other, and one CUDA
# rank must match the CPU within rounding. The exchange runs staged through pinned host
# buffers, or from device memory when the MPI library is CUDA-aware (the log says which).
# Exit 77 (skip) without a CUDA device or without mpirun.
#   run_gpu_overlap.sh FDSOLVE MPIEXEC WORKDIR CASES_DIR
set -uo pipefail
fdsolve=$1 mpiexec=$2 work=$3 cases=$4
if ! command -v "$mpiexec" > /dev/null 2>&1; then echo "SKIP: no mpirun"; exit 77; fi
if ! "$fdsolve" --version | grep -q "^CUDA device 0:"; then echo "SKIP: no CUDA device"; exit 77; fi
export OMP_NUM_THREADS=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
rm -rf "$work" && mkdir -p "$work"
norms() { sed 's/,[^,]*$//' "$1/history.csv"; }
status=0
fail() { echo "FAIL: $*"; status=1; }

# 2D split along x; 3D 27 points split along y (2 ranks) and along y and z (4 ranks), whose
# exchange carries edge ghosts axis after axis.
for spec in "poisson_2d_x 2 3" "poisson_3d_27pt_y 2 4"; do
  read -r name ranks_a ranks_b <<< "$spec"
  case=$cases/$name.yaml
  "$fdsolve" run "$case" --backend cpu --output "$work/$name-cpu" --quiet
  expected=$?
  "$fdsolve" run "$case" --backend cuda --output "$work/$name-cuda" --quiet
  code=$?
  [ "$code" -eq "$expected" ] || fail "$name: 1 CUDA rank exit $code, CPU $expected"
  "$fdsolve" compare "$work/$name-cpu" "$work/$name-cuda" --rtol 1e-10 --atol 1e-12 \
    > "$work/$name-cuda.cmp" || { fail "$name: 1 CUDA rank differs from the CPU"; cat "$work/$name-cuda.cmp"; }
  for n in $ranks_a $ranks_b; do
    for overlap in true false; do
      out=$work/$name-n$n-$overlap
      "$mpiexec" -n "$n" --oversubscribe "$fdsolve" run "$case" --backend cuda --output "$out" \
        --set "parallel.overlap=$overlap" > "$out.log" 2>&1
      code=$?
      if [ "$code" -ne "$expected" ]; then fail "$name: $n ranks, overlap $overlap: exit $code"; cat "$out.log"; continue; fi
      grep "halo exchange" "$out.log" | head -1
      # The ranks must write the same snapshots: compare names one of one run only, and passes.
      { "$fdsolve" compare "$work/$name-cuda" "$out" --rtol 0 --atol 0 > "$out.cmp" &&
        ! grep -q '^not compared:' "$out.cmp"; } ||
        { fail "$name: $n CUDA ranks, overlap $overlap: differ from 1 CUDA rank"; cat "$out.cmp"; continue; }
    done
    if diff <(norms "$work/$name-n$n-true") <(norms "$work/$name-n$n-false") > "$work/$name-n$n.diff"; then
      echo "ok: $name: $n CUDA ranks, overlap on and off bit-identical to 1 CUDA rank, same norms"
    else
      fail "$name: $n CUDA ranks: norms differ with and without overlap"; cat "$work/$name-n$n.diff"
    fi
  done
done
exit $status
