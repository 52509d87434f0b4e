#!/usr/bin/env bash
# The time split of multigrid and implicit heat runs over ranks (summary.json's `parallel`
# object, CPU ranks): each level's sweep / transfer / exchange / bottom seconds on rank 0 and
# their largest over the ranks; the loop's sweep and exchange figures are those levels' sums,
# the split does not exceed the loop, and no rank's figure is below rank 0's in `max`.
#   run_level_times.sh FDSOLVE MPIEXEC WORKDIR CASE RANKS
set -uo pipefail
fdsolve=$1 mpiexec=$2 work=$3 case=$4 ranks=$5
export OMP_NUM_THREADS=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
rm -rf "$work" && mkdir -p "$work"
# Exit 3: the cases stop at max_iterations on purpose (a fixed number of cycles).
"$mpiexec" -n "$ranks" --oversubscribe "$fdsolve" run "$case" --output "$work/out" \
  > "$work/run.log" 2>&1
code=$?
if [ "$code" -ne 0 ] && [ "$code" -ne 3 ]; then
  echo "FAIL: the run exited $code"; cat "$work/run.log"; exit 1
fi
grep -q "loop over $ranks ranks" "$work/run.log" || { echo "FAIL: no split in the log"; exit 1; }
python3 - "$work/out/summary.json" "$ranks" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
ranks = int(sys.argv[2])
p = s.get("parallel")
fail = []
if p is None:
    sys.exit("FAIL: summary.json has no parallel object")
if p["ranks"] != ranks:
    fail.append(f"ranks {p['ranks']}, expected {ranks}")
levels = p.get("levels", [])
if len(levels) < 2:
    fail.append(f"{len(levels)} levels in the split")
r0, mx = p["seconds_rank0"], p["seconds_max"]
parts = ("sweep", "transfer", "exchange", "bottom")
sweep = sum(l["rank0"]["sweep"] + l["rank0"]["transfer"] + l["rank0"]["bottom"] for l in levels)
exchange = sum(l["rank0"]["exchange"] for l in levels)
if abs(sweep - r0["sweep"]) > 1e-9 * max(1.0, sweep):
    fail.append(f"sweep {r0['sweep']} is not the levels' sum {sweep}")
if abs(exchange - r0["exchange"]) > 1e-9 * max(1.0, exchange):
    fail.append(f"exchange {r0['exchange']} is not the levels' sum {exchange}")
if not r0["sweep"] > 0:
    fail.append("no sweep time on rank 0")
if r0["sweep"] + r0["exchange"] + r0["reductions"] > r0["loop"] * 1.001 + 1e-6:
    fail.append(f"the split {r0['sweep']} + {r0['exchange']} + {r0['reductions']} exceeds the loop {r0['loop']}")
for l in levels:
    for k in parts:
        if l["rank0"][k] < 0 or l["max"][k] < l["rank0"][k]:
            fail.append(f"level {l['level']} {k}: rank 0 {l['rank0'][k]}, largest {l['max'][k]}")
if levels[0]["points"] != s["grid"]["points"]:
    fail.append(f"level 0 has {levels[0]['points']} nodes, the grid {s['grid']['points']}")
if fail:
    print("FAIL: " + "; ".join(fail))
    sys.exit(1)
print(f"ok: {ranks} ranks, {len(levels)} levels; rank 0: sweeps and transfers {r0['sweep']:.4f} s, "
      f"exchanges {r0['exchange']:.4f} s, reductions {r0['reductions']:.4f} s of a {r0['loop']:.4f} s loop")
PY
