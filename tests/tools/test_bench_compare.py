#!/usr/bin/env python3
"""tools/bench_compare.py: rows matched by their key, a drop beyond the threshold flagged and
the exit status 1, a drop within it and faster rows passed, one-sided rows listed, not judged."""
import json
import os
import subprocess
import sys
import tempfile

tools = sys.argv[1]
sys.path.insert(0, tools)
import bench_compare  # noqa: E402


def row(kernel, gcells, dims=2, precision="float", size=16384, norm=0, points=None,
        backend="cuda"):
    r = {"backend": backend, "kernel": kernel, "dims": dims, "precision": precision,
         "size": size, "iterations": 100, "Gcell/s": gcells, "GB/s": 0, "%copy": 0,
         "norm_every": norm, "copy_GB/s": 0}
    if points is not None:
        r["points"] = points
    return r


recorded = [row("tb128x128/k8", 642.9), row("tb128x64/k8", 600.0), row("rows128g4", 334.0),
            row("vring16s3", 100.0, dims=3, points=27), row("gone", 50.0),
            row("omp", 8.5, size=8192, backend="cpu")]
new = [row("tb128x128/k8", 315.8), row("tb128x64/k8", 560.0), row("rows128g4", 340.0),
       row("vring16s3", 100.0, dims=3, points=7), row("added", 10.0),
       row("omp", 5.5, size=8192, backend="cpu")]

lines, slower = bench_compare.compare(recorded, new, 0.10)
text = "\n".join(lines)
failures = []
# 315.8 / 642.9 = 0.49: flagged; 560 / 600 = 0.933: within 10 %; 340 / 334: faster.
if slower != 1:
    failures.append(f"expected 1 slower row, got {slower}:\n{text}")
flagged = [l for l in lines if l.endswith("SLOWER")]
if len(flagged) != 1 or not flagged[0].startswith("tb128x128/k8"):
    failures.append(f"the flagged row is not tb128x128/k8:\n{text}")
if not flagged or "0.491" not in flagged[0]:
    failures.append(f"the ratio 315.8 / 642.9 = 0.491 is not printed:\n{text}")
# A CPU row's drop is shown, not judged: the record is the GPU's.
if not any(l.startswith("omp") and "cpu: not judged" in l for l in lines):
    failures.append(f"the CPU row's drop is not shown as not judged:\n{text}")
# Another stencil is another row: the 27-point record and the 7-point run are one-sided.
for name, side in (("gone", "recorded only"), ("added", "new only"),
                   ("vring16s3 (27-pt)", "recorded only"), ("vring16s3 (7-pt)", "new only")):
    if not any(l.startswith(name) and side in l for l in lines):
        failures.append(f"{name} not listed as {side}:\n{text}")
if bench_compare.record_name("NVIDIA H100 80GB HBM3") != "nvidia-h100-80gb-hbm3.json":
    failures.append("record_name of the H100")

# The command: exit 1 with a slower row, 0 without.
with tempfile.TemporaryDirectory() as d:
    paths = {}
    for name, rows in (("recorded", recorded), ("new", new), ("same", recorded)):
        paths[name] = os.path.join(d, name + ".json")
        with open(paths[name], "w") as f:
            json.dump(rows, f)
    script = os.path.join(tools, "bench_compare.py")
    slow = subprocess.run([sys.executable, script, paths["recorded"], paths["new"]],
                          capture_output=True, text=True)
    same = subprocess.run([sys.executable, script, paths["recorded"], paths["same"]],
                          capture_output=True, text=True)
    if slow.returncode != 1:
        failures.append(f"exit {slow.returncode} with a slower row, expected 1")
    if same.returncode != 0:
        failures.append(f"exit {same.returncode} against itself, expected 0")

for f in failures:
    print("FAIL:", f)
print("PASS" if not failures else f"{len(failures)} failure(s)")
sys.exit(1 if failures else 0)
