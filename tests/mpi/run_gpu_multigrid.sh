#!/usr/bin/env bash
# Multigrid on CUDA ranks sharing one GPU (device node_rank % devices, the staged exchange)
# against one CUDA rank, bit for bit. One rank runs its levels through the fused single-GPU
# kernels (the 2D two-sweep pass with the correction inside, the residual restricted down a
# column, the whole bottom in one kernel); split levels run the same arithmetic as separate
# kernels. The two agree only if no kernel shape rounds differently from another (no contracted
# multiply-adds: kernels/cuda/CMakeLists.txt), so this catches on one GPU what the two-GPU
# parity checks (run_gpu_nccl.sh, tools/mpi-gpu-parity.sh) would show. Levels split to the
# bottom, gathered onto rank 0 and redundant on every rank; 5, 7 and 27 points; float cycles and
# float W-cycles on a periodic axis. Exit 77 (skip) without a CUDA device or without mpirun.
#   run_gpu_multigrid.sh FDSOLVE MPIEXEC WORKDIR CASES_DIR
set -uo pipefail
fdsolve=$1 mpiexec=$2 work=$3 cases=$4
if ! command -v "$mpiexec" > /dev/null 2>&1; then echo "SKIP: no mpirun"; exit 77; fi
if ! "$fdsolve" --version | grep -q "^CUDA device 0:"; then echo "SKIP: no CUDA device"; exit 77; fi
export OMP_NUM_THREADS=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# The staged path whatever the machine has: ranks sharing a GPU take it anyway, and on a
# machine of several GPUs this keeps the test about the kernels, not the transport.
export FDSOLVE_TRANSPORT=mpi
rm -rf "$work" && mkdir -p "$work"
status=0
fail() { echo "FAIL: $*"; status=1; }

for spec in "mg_poisson_2d_x 2 3" "redundant_mg_poisson_2d_x 2" "mg_poisson_3d_7pt_z 2" \
            "redundant_mg_poisson_3d_7pt_z 2" "mg_poisson_3d_27pt_y 2" \
            "mg_poisson_2d_periodic_float_w 2" "mg_poisson_3d_27pt_y_float_cycles 2"; do
  read -r name ranks <<< "$spec"
  case=$cases/$name.yaml
  "$fdsolve" run "$case" --backend cuda --output "$work/$name-1" --quiet
  expected=$?
  for n in $ranks; do
    out=$work/$name-n$n
    "$mpiexec" -n "$n" --oversubscribe -x FDSOLVE_TRANSPORT "$fdsolve" run "$case" --backend cuda \
      --output "$out" > "$out.log" 2>&1
    code=$?
    if [ "$code" -ne "$expected" ]; then fail "$name: $n ranks: exit $code, 1 rank $expected"; cat "$out.log"; continue; fi
    if "$fdsolve" compare "$work/$name-1" "$out" --rtol 0 --atol 0 > "$out.cmp" &&
       ! grep -q '^not compared:' "$out.cmp"; then
      echo "ok: $name: $n CUDA ranks on one GPU bit-identical to 1 CUDA rank"
    else
      fail "$name: $n CUDA ranks differ from 1 CUDA rank"; tail -3 "$out.cmp"
    fi
  done
done
exit $status
