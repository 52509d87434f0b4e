#!/usr/bin/env bash
# summary.json's timings add up: set-up + solve + the time the run waited for output is the
# process's total (within 3 % or 0.1 s: a main thread descheduled for some 40 ms between the
# loop's end and the summary was seen under the sanitizers on a loaded 2-core machine; a write
# the clocks miss costs more than that), the total is the wall time measured outside the process
# (within 10 % or 0.3 s, the time before main() and after the summary), each figure is >= 0;
# with the background writer (output.queue auto) the output's time runs beside the loop, with
# output.queue: 0 the run waits for all of it. The set-up's stages (timings.setup_stages) are in
# order from "case read" to "first iteration", each >= 0, and add up to the set-up; a
# coefficient-field solve names its face arrays and hierarchy. Usage: run_timings.sh FDSOLVE
set -u
fdsolve=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1

cat > case.yaml <<'YAML'
name: t
grid: {points: [257, 257]}
problem: {equation: poisson, source: "sin(pi*x/256)*sin(pi*y/256)"}
solve: {method: jacobi, tolerance: 1.0e-30, max_iterations: 3000, check_every: 100}
output: {every: 500, fields: [u, update, source]}
YAML
for queue in auto 0; do
  rm -rf out
  start=$(date +%s%N)
  "$fdsolve" run case.yaml --backend cpu --output out --set output.queue=$queue > run.log 2>&1
  rc=$?
  wall_ms=$((($(date +%s%N) - start) / 1000000))
  [ "$rc" = 3 ] || { echo "FAIL: exit $rc, expected 3 (max_iterations)"; tail -5 run.log; exit 1; }
  grep -q "time: set-up .* s, solve .* s, output .* s (the loop waited .* s), total .* s" run.log ||
    { echo "FAIL: no timing line in the log"; tail -5 run.log; exit 1; }
  python3 - out/summary.json "$wall_ms" "$queue" <<'PY' || exit 1
import json, sys
t = json.load(open(sys.argv[1]))["timings"]
wall = int(sys.argv[2]) / 1000
print("timings", t, "wall measured outside", wall)
parts = t["setup"] + t["solve"] + t["output_wait"]
assert all(t[k] >= 0 for k in ("setup", "solve", "output", "output_wait", "total")), t
assert abs(parts - t["total"]) <= max(0.03 * t["total"], 0.1), f"parts {parts} vs total {t['total']}"
assert abs(wall - t["total"]) <= max(0.10 * wall, 0.3), f"total {t['total']} vs wall {wall}"
assert t["output"] > 0 and t["output_wait"] > 0, t
if sys.argv[3] == "0":  # every write on the loop's thread: all of it waited for
    assert t["output"] <= t["output_wait"] + 1e-6, t
stages = t["setup_stages"]
names = [s["stage"] for s in stages]
assert names[0] == "case read" and names[-1] == "first iteration", names
assert "initial state ready" in names, names
assert all(s["seconds"] >= 0 for s in stages), stages
assert abs(sum(s["seconds"] for s in stages) - t["setup"]) <= 1e-9, (stages, t["setup"])
PY
done

# A coefficient field: its set-up's stages name the face arrays and the hierarchy.
cat > media.yaml <<'YAML'
name: m
grid: {points: [65, 65]}
problem: {equation: poisson, source: 1, coefficient: "x < 32 ? 1 : 10"}
solve: {method: multigrid, tolerance: 1.0e-8}
YAML
rm -rf out
"$fdsolve" run media.yaml --backend cpu --output out > run.log 2>&1 ||
  { echo "FAIL: the coefficient-field run exited $?"; tail -5 run.log; exit 1; }
python3 - out/summary.json <<'PY' || exit 1
import json, sys
t = json.load(open(sys.argv[1]))["timings"]
names = [s["stage"] for s in t["setup_stages"]]
print("media set-up stages", t["setup_stages"])
for want in ("face arrays built", "hierarchy ready", "source ready"):
    assert want in names, (want, names)
assert names.index("face arrays built") < names.index("hierarchy ready"), names
assert abs(sum(s["seconds"] for s in t["setup_stages"]) - t["setup"]) <= 1e-9, t
PY
