#!/usr/bin/env bash
# Failures over several ranks: each ends every rank with its exit code and one error
# message, never a hang (CTest's timeout would catch one).
#   run_failures.sh FDSOLVE MPIEXEC WORKDIR CASES_DIR
set -uo pipefail
fdsolve=$1 mpiexec=$2 work=$3 cases=$4
export OMP_NUM_THREADS=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
rm -rf "$work" && mkdir -p "$work"
failures=0

# expect LABEL CODE RANKS ARGS...: exit CODE and exactly one spdlog error line.
expect() {
  local label=$1 code=$2 n=$3
  shift 3
  "$mpiexec" -n "$n" --oversubscribe "$fdsolve" "$@" > "$work/$label.out" 2> "$work/$label.err"
  local status=$?
  local errors
  errors=$(grep -c "] error: " "$work/$label.err")
  if [ "$status" -ne "$code" ] || [ "$errors" -ne 1 ]; then
    echo "FAIL: $label: exit $status (expected $code), $errors error lines (expected 1)"
    cat "$work/$label.err"
    failures=$((failures + 1))
  else
    echo "ok: $label: exit $status, one message: $(grep "] error: " "$work/$label.err")"
  fi
}

case2d=$cases/poisson_2d_x.yaml
casemg=$cases/mg_poisson_2d_x.yaml
# A data file that does not exist: every rank reads it and fails; rank 0 reports.
expect missing_data 2 3 run "$case2d" --output "$work/o1" \
  --set 'initial={file: nowhere.h5, dataset: /u}'
# More ranks than the grid allows (3 ranks on 5 nodes leave one rank a single node).
expect too_many_ranks 2 3 run "$case2d" --output "$work/o2" --set 'grid.points=[5,5]'
# Multigrid on a grid too small for its ranks: the split aligned for the first coarser grid
# (7 -> 4 nodes over 3 ranks, equal spacings so that both axes coarsen) would leave a rank a
# single node.
expect multigrid_too_many_ranks 2 3 run "$casemg" --output "$work/o4" --set 'grid.points=[7,7]' \
  --set 'grid.extent=[1,1]'
# An output directory that cannot be created: only rank 0 touches it, all exit 1.
expect unwritable 1 2 run "$case2d" --output /proc/fdsolve-cannot-write
# A failure of rank 0 alone in the middle of the run, while the others go on to the next
# exchange: the snapshot of iteration 20 cannot replace a directory of its name. MPI_Abort
# ends the job with the exit code.
mkdir -p "$work/o3/poisson_2d_x_00000020.h5/blocked"
expect midrun_output 1 2 run "$case2d" --output "$work/o3"
# With parallel HDF5 every rank creates the snapshot file together: a directory in the way of
# its collective temporary name fails on every rank at once; they agree, one message, exit 1.
if "$fdsolve" --version > /dev/null && "$mpiexec" -n 2 --oversubscribe "$fdsolve" check "$case2d" \
     2> /dev/null | grep -q "snapshots written collectively"; then
  mkdir -p "$work/o4/poisson_2d_x_00000020.h5.tmp.mpi/blocked"
  expect collective_output 1 3 run "$case2d" --output "$work/o4"
else
  echo "skip: collective_output (serial HDF5: rank 0 writes, midrun_output covers it)"
fi
# check under mpirun prints once.
"$mpiexec" -n 3 --oversubscribe "$fdsolve" check "$case2d" > "$work/check.out" 2>&1
if [ "$(grep -c '^# parallel: 3 ranks' "$work/check.out")" -ne 1 ] ||
   [ "$(grep -c '^grid:' "$work/check.out")" -ne 1 ]; then
  echo "FAIL: check under mpirun"; cat "$work/check.out"; failures=$((failures + 1))
else
  echo "ok: check: $(grep '^# parallel' "$work/check.out")"
fi
# check of a multigrid case under mpirun: each level's boxes and where they are gathered.
"$mpiexec" -n 3 --oversubscribe "$fdsolve" check "$casemg" > "$work/check_mg.out" 2>&1
if [ "$(grep -c '^#   level 1: 6x9 .. 5x9 nodes per rank' "$work/check_mg.out")" -ne 1 ] ||
   [ "$(grep -c '^#   level 2-4: gathered (9x5 nodes' "$work/check_mg.out")" -ne 1 ]; then
  echo "FAIL: check of multigrid under mpirun"; cat "$work/check_mg.out"; failures=$((failures + 1))
else
  echo "ok: check: $(grep 'gathered (' "$work/check_mg.out")"
fi
exit $failures
