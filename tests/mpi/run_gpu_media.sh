#!/usr/bin/env bash
# The variable-coefficient operator over ranks on the CUDA backend (ranks share device
# node_rank % devices, so one GPU is enough): conjugate gradients and cycles alone, steady and
# implicit heat, with a coefficient field and held nodes, on 2 and 4 CUDA ranks bit-identical
# to one CUDA rank (exactly summed inner products, the cycles on rank 0); one CUDA rank within
# rounding of the CPU. Exit 77 (skip) without a CUDA device or without mpirun.
#   run_gpu_media.sh FDSOLVE MPIEXEC WORKDIR CASES_DIR
set -uo pipefail
fdsolve=$1 mpiexec=$2 work=$3 cases=$4
if ! command -v "$mpiexec" > /dev/null 2>&1; then echo "SKIP: no mpirun"; exit 77; fi
if ! "$fdsolve" --version | grep -q "^CUDA device 0:"; then echo "SKIP: no CUDA device"; exit 77; fi
export OMP_NUM_THREADS=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
rm -rf "$work" && mkdir -p "$work"
status=0
fail() { echo "FAIL: $*"; status=1; }

for name in media_cg_2d_x media_cycles_3d_27pt_y media_cg_float_cycles_2d_y \
            media_be_2d_y_periodic media_cn_3d_7pt_z; do
  case=$cases/$name.yaml
  "$fdsolve" run "$case" --backend cpu --output "$work/$name-cpu" --quiet
  expected=$?
  "$fdsolve" run "$case" --backend cuda --output "$work/$name-cuda" --quiet
  code=$?
  [ "$code" -eq "$expected" ] || fail "$name: 1 CUDA rank exit $code, CPU $expected"
  "$fdsolve" compare "$work/$name-cpu" "$work/$name-cuda" --rtol 1e-9 --atol 1e-11 \
    > "$work/$name-cuda.cmp" || { fail "$name: 1 CUDA rank differs from the CPU"; cat "$work/$name-cuda.cmp"; }
  for n in 2 4; do
    out=$work/$name-n$n
    "$mpiexec" -n "$n" --oversubscribe "$fdsolve" run "$case" --backend cuda --output "$out" \
      > "$out.log" 2>&1
    code=$?
    if [ "$code" -ne "$expected" ]; then fail "$name: $n CUDA ranks: exit $code"; cat "$out.log"; continue; fi
    { "$fdsolve" compare "$work/$name-cuda" "$out" --rtol 0 --atol 0 > "$out.cmp" &&
      ! grep -q '^not compared:' "$out.cmp"; } ||
      { fail "$name: $n CUDA ranks differ from 1 CUDA rank"; cat "$out.cmp"; continue; }
    echo "ok: $name: $n CUDA ranks bit-identical to 1 CUDA rank"
  done
done
exit $status
