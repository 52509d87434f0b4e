#!/usr/bin/env bash
# The background writer keeps every guarantee of writing on the loop's thread:
#  1. snapshots and checkpoints are bit-identical to those of output.queue: 0, the .xmf the same;
#  2. SIGTERM while writes are queued (a slow writer: gzip 9 of a rough field, a snapshot every
#     few steps) writes every snapshot handed over, lists them all, exits 143, and the run
#     resumes to the same final field as a run never stopped;
#  3. SIGKILL in the middle of writes leaves an .xmf that lists only complete snapshots (each
#     opens and holds the whole grid), and the run resumes to the same final field.
# Usage: async_output.sh FDSOLVE
set -u
fdsolve=$1
# The checks read HDF5 through h5py: the first Python 3 that has it (Debian's python3-h5py is
# /usr/bin/python3's; another python3 may come first on PATH). None: a skip, not a pass.
py=
for candidate in python3 /usr/bin/python3; do
  if "$candidate" -c "import h5py, numpy" 2>/dev/null; then py=$candidate; break; fi
done
if [ -z "$py" ]; then echo "SKIP: no python3 with h5py and numpy"; exit 77; fi
work=$(mktemp -d)
trap 'kill -9 $pid 2>/dev/null; rm -rf "$work"' EXIT
pid=
cd "$work" || exit 1
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

cat > heat.yaml <<'YAML'
name: h
grid: {points: [257, 257], extent: [1.0, 1.0]}
problem: {equation: heat, diffusivity: 1.0}
boundary: {default: {type: dirichlet, value: 0}, x_min: {type: neumann, gradient: 0}}
initial: "sin(3170*x*y)*exp(x)+cos(2110*y)"
time: {end: 0.002}
solve: {check_every: 10}
output: {every: 20, fields: [u, update]}
checkpoint: {every: 50}
YAML
run() { "$fdsolve" run heat.yaml --backend cpu --quiet "$@"; }

# 1. The same files from both writers.
run --output sync --set output.queue=0 || fail "synchronous run: exit $?"
run --output async --set output.queue=2 || fail "background run: exit $?"
"$fdsolve" compare sync async --rtol 0 --atol 0 > compare.log || { fail "snapshots differ"; cat compare.log; }
"$fdsolve" compare sync/checkpoint.h5 async/checkpoint.h5 --rtol 0 --atol 0 > compare.log ||
  { fail "checkpoints differ"; cat compare.log; }
cmp -s sync/h.xmf async/h.xmf || fail "the .xmf files differ"
# history.csv: the same rows but for the wall-clock column.
without_wall() { "$py" -c "import csv,sys; [print(r[:-1]) for r in csv.reader(open(sys.argv[1]))]" "$1"; }
[ "$(without_wall sync/history.csv)" = "$(without_wall async/history.csv)" ] ||
  fail "history.csv differs"

# The reference for the resumed runs: the same case, never stopped, final state only.
run --output reference --set output.every=0 --set checkpoint.every=0 || fail "reference: exit $?"

# listed_complete DIR LABEL: no temporary file is listed, every listed snapshot exists and holds
# a whole /u; prints how many are listed.
listed_complete() {
  "$py" - "$1" "$2" <<'PY'
import re, sys, pathlib
import h5py
d, label = pathlib.Path(sys.argv[1]), sys.argv[2]
listed = sorted(set(re.findall(r'([A-Za-z0-9_.-]+\.h5):/u', (d / "h.xmf").read_text())))
for name in listed:
    with h5py.File(d / name, "r") as f:
        assert f["u"].shape == (257, 257), f"{label}: {name} has /u of shape {f['u'].shape}"
        f["u"][...]
print(len(listed))
PY
}

# start_slow DIR: the run with a slow writer in the background, once its first checkpoint is on
# disk (so that it can resume) and more writes are queued behind it.
start_slow() {
  "$fdsolve" run heat.yaml --backend cpu --quiet --output "$1" --set output.every=2 \
      --set output.compression='{gzip: 9}' --set output.queue=4 &
  pid=$!
  for _ in $(seq 600); do
    [ -f "$1/checkpoint.h5" ] && break
    sleep 0.1
  done
  [ -f "$1/checkpoint.h5" ] || fail "$1: no checkpoint after 60 s"
  sleep 0.5
}

# 2. SIGTERM: everything handed over is written and listed.
start_slow term
touch signalled
kill -TERM "$pid"
wait "$pid"
status=$?
[ "$status" = 143 ] || fail "SIGTERM: exit $status, expected 143"
stopped=$("$py" -c "import json; print(json.load(open('term/summary.json'))['iterations'])")
listed=$(listed_complete term SIGTERM) || fail "SIGTERM: a listed snapshot is incomplete"
expected=$("$py" -c "s=$stopped; print(s // 2 + s % 2)")  # 2, 4, ..., and s
[ "$listed" = "$expected" ] ||
  fail "SIGTERM at step $stopped: $listed snapshots listed, expected $expected (every 2 steps)"
[ -z "$(find term -name '*.tmp.*')" ] || fail "SIGTERM: temporary files left"
# Writes were queued when the signal came: besides the final one, snapshots handed over before
# it were written after it.
after=$(find term -name 'h_*.h5' -newer signalled | wc -l)
echo "SIGTERM at step $stopped: $after snapshots written after the signal"
[ "$after" -ge 2 ] || fail "SIGTERM: only $after snapshots written after the signal, no queue"
"$fdsolve" run --backend cpu --quiet --resume term --set output.every=0 > /dev/null ||
  fail "resume after SIGTERM: exit $?"

# 3. SIGKILL: whatever is listed is complete.
start_slow kill
kill -KILL "$pid"
wait "$pid" 2>/dev/null
pid=
listed_complete kill SIGKILL > /dev/null || fail "SIGKILL: a listed snapshot is incomplete"
"$fdsolve" run --backend cpu --quiet --resume kill --set output.every=0 > /dev/null ||
  fail "resume after SIGKILL: exit $?"

for dir in term kill; do
  final=$(cd reference && ls h_*.h5 | tail -1)
  "$fdsolve" compare "reference/$final" "$dir/$final" --rtol 0 --atol 0 > compare.log ||
    { fail "$dir: the resumed run's final field differs from the run never stopped"; cat compare.log; }
done

[ "$failures" = 0 ] && echo "PASS: background writer (identical files, SIGTERM, SIGKILL, resume)"
[ "$failures" = 0 ]
