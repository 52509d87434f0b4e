#!/usr/bin/env bash
# Implicit heat over CUDA ranks of a GPU each (the halo through NCCL where fdsolve was built
# with it, the cycles then recorded as CUDA graphs over the ranks) stopped two ways:
#  1. by its wall-time limit, agreed with each step's norms: every rank exits 3 after step 1
#     with a checkpoint, and the run resumed on the same ranks ends bit-identical to an
#     unstopped run on one rank;
#  2. by SIGTERM to mpirun part-way through the steps: every rank stops at the same step with a
#     checkpoint (summary.json `interrupted`), and the run resumed on one rank ends
#     bit-identical to the unstopped one.
# 2 ranks, and 4 where there are four GPUs. Exit 77 (skip) without mpirun or two GPUs.
#   run_gpu_interrupt.sh FDSOLVE MPIEXEC WORKDIR CASE
set -uo pipefail
fdsolve=$1 mpiexec=$2 work=$3 case=$4
if ! command -v "$mpiexec" > /dev/null 2>&1; then echo "SKIP: no mpirun"; exit 77; fi
gpus=$("$fdsolve" --version | grep -c "^CUDA device [0-9]*:")
if [ "$gpus" -lt 2 ]; then echo "SKIP: fewer than two CUDA devices"; exit 77; fi
export OMP_NUM_THREADS=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
rm -rf "$work" && mkdir -p "$work"
status=0
fail() { echo "FAIL: $*"; status=1; }
name=$(basename "$case" .yaml)
field() {  # DIR KEY: summary.json's KEY
  python3 -c 'import json, sys; print(json.load(open(sys.argv[1] + "/summary.json"))[sys.argv[2]])' "$1" "$2"
}
# same A B LABEL: the last snapshots of A and B bit for bit.
same() {
  local last
  last=$(printf "%s_%08d.h5" "$name" "$(field "$1" iterations)")
  "$fdsolve" compare "$1/$last" "$2/$last" --rtol 0 --atol 0 > "$2.cmp" ||
    { fail "$3: differ"; cat "$2.cmp"; return 1; }
}

# Every run under a limit, so that a hang fails with its name instead of the test's timeout.
limited() { timeout 100 "$@"; }
start=$(date +%s)
elapsed() { echo "$(( $(date +%s) - start )) s"; }
short=(--set time.end=0.005)  # 51 steps
limited "$fdsolve" run "$case" --backend cuda --output "$work/short-1" --quiet "${short[@]}" ||
  fail "the unstopped short run on 1 rank"
limited "$fdsolve" run "$case" --backend cuda --output "$work/long-1" --quiet || fail "the unstopped run on 1 rank"
echo "the unstopped runs on 1 rank done at $(elapsed)"
ranks="2"
[ "$gpus" -ge 4 ] && ranks="2 4"
for n in $ranks; do
  # 1. The time limit: the first check stops the run after step 1, on every rank.
  out=$work/limit-n$n
  limited "$mpiexec" -n "$n" --oversubscribe "$fdsolve" run "$case" --backend cuda --output "$out" \
    --quiet "${short[@]}" --time-limit 1e-9 > "$out.log" 2>&1
  code=$?
  if [ "$code" -ne 3 ] || [ ! -f "$out/checkpoint.h5" ] || [ "$(field "$out" status)" != time_limit ]; then
    fail "$n ranks at the time limit: exit $code"; cat "$out.log"
  else
    at=$(field "$out" iterations)
    limited "$mpiexec" -n "$n" --oversubscribe "$fdsolve" run "$case" --backend cuda --output "$out" \
      --quiet --resume "${short[@]}" > "$out.resume.log" 2>&1 ||
      { fail "$n ranks: the resumed run"; cat "$out.resume.log"; }
    same "$work/short-1" "$out" "$n ranks stopped by the time limit, resumed" &&
      echo "ok: $n ranks stopped together by the time limit after step $at; resumed == 1 rank"
  fi
  # 2. SIGTERM to mpirun once the steps are under way (the first progress line).
  out=$work/term-n$n
  "$mpiexec" -n "$n" --oversubscribe "$fdsolve" run "$case" --backend cuda --output "$out" \
    > "$out.log" 2>&1 &
  pid=$!
  for _ in $(seq 600); do
    grep -q "info: step [0-9]*/" "$out.log" && break
    sleep 0.1
  done
  sleep 0.5
  echo "$n ranks: SIGTERM at $(elapsed)"
  kill -TERM "$pid"
  # Every rank must stop within a step or two; a minute without an exit is a hang.
  for _ in $(seq 600); do
    kill -0 "$pid" 2> /dev/null || break
    sleep 0.1
  done
  if kill -0 "$pid" 2> /dev/null; then
    fail "$n ranks, SIGTERM: still running 60 s after the signal"; tail -20 "$out.log"
    kill -KILL "$pid"; pkill -KILL -f "fdsolve run $case" ; wait "$pid"; continue
  fi
  wait "$pid"
  echo "$n ranks: stopped at $(elapsed)"
  if [ ! -f "$out/summary.json" ] || [ "$(field "$out" status)" != interrupted ] || [ ! -f "$out/checkpoint.h5" ]; then
    fail "$n ranks, SIGTERM: no interrupted summary and checkpoint"; tail -20 "$out.log"; continue
  fi
  stopped=$(field "$out" iterations)
  if [ "$stopped" -ge "$(field "$work/long-1" iterations)" ]; then
    fail "$n ranks, SIGTERM: the run ended (step $stopped) before the signal; lengthen the case"
    continue
  fi
  limited "$fdsolve" run "$case" --backend cuda --output "$out" --quiet --resume > "$out.resume.log" 2>&1 ||
    { fail "$n ranks, SIGTERM: the resumed run on 1 rank"; cat "$out.resume.log"; continue; }
  same "$work/long-1" "$out" "$n ranks stopped by SIGTERM at step $stopped, resumed on 1 rank" &&
    echo "ok: $n ranks stopped together by SIGTERM at step $stopped; resumed on 1 rank == 1 rank"
done
exit $status
