#!/usr/bin/env python3
"""Compares `fdsolve bench --json` rows with the rows recorded for the same GPU.

    tools/bench_compare.py RECORDED.json NEW.json [--threshold 0.10]

Rows are matched by (backend, kernel, dims, precision, size, norm_every, points); for each pair it
prints the recorded and new Gcell/s and the ratio, and marks SLOWER every row more than the
threshold (default 10 %) below the recorded one. Exit 1 when a row is slower, 0 otherwise;
rows present on one side only are listed, not judged, and so are the CPU backend's rows: the
record is the GPU's, and the device machine's CPU rows moved between 0.65x and 1.8x of their
record from run to run (H100 machine, 2026-11-25), with nothing changed in their kernels. tools/device-test.sh runs it after its
bench with the file recorded for the GPU it found (tools/bench-records/<model>.json), so that a
kernel that lost half its speed is seen the day it happens.

The recorded file is a bench --json output copied into the repository with the date and the
command in docs/performance.md; `record_name` gives its file name for a GPU model.
"""
import argparse
import json
import re
import sys

KEY = ("backend", "kernel", "dims", "precision", "size", "norm_every", "points")


def record_name(model):
    """tools/bench-records/ file name for a GPU model: 'NVIDIA H100 80GB HBM3' ->
    'nvidia-h100-80gb-hbm3.json'."""
    return re.sub(r"[^a-z0-9]+", "-", model.lower()).strip("-") + ".json"


def rows_by_key(rows):
    """Gcell/s by row key; rows without a rate (none measured) are left out."""
    return {tuple(str(row.get(k, "")) for k in KEY): float(row["Gcell/s"])
            for row in rows if row.get("Gcell/s") is not None}


def compare(recorded, new, threshold):
    """Lines of the comparison and the number of rows slower than threshold."""
    before, after = rows_by_key(recorded), rows_by_key(new)
    lines, slower = [], 0
    lines.append(f"{'kernel':22s} {'dims':>4s} {'precision':>9s} {'size':>6s} {'norm':>4s} "
                 f"{'recorded':>9s} {'new':>9s} {'ratio':>6s}")
    for key in sorted(set(before) | set(after)):
        _, kernel, dims, precision, size, norm, points = key
        if points:
            kernel = f"{kernel} ({points}-pt)"
        if key not in before or key not in after:
            where = "new only" if key not in before else "recorded only"
            lines.append(f"{kernel:22s} {dims:>4s} {precision:>9s} {size:>6s} {norm:>4s}  ({where})")
            continue
        ratio = after[key] / before[key] if before[key] > 0 else float("inf")
        mark = ""
        if key[0] != "cuda":
            mark = "  (cpu: not judged)" if ratio < 1 - threshold else ""
        elif ratio < 1 - threshold:
            mark = "  SLOWER"
            slower += 1
        lines.append(f"{kernel:22s} {dims:>4s} {precision:>9s} {size:>6s} {norm:>4s} "
                     f"{before[key]:9.1f} {after[key]:9.1f} {ratio:6.3f}{mark}")
    return lines, slower


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("recorded")
    parser.add_argument("new")
    parser.add_argument("--threshold", type=float, default=0.10,
                        help="flag rows slower than recorded by more than this fraction")
    args = parser.parse_args()
    with open(args.recorded) as f:
        recorded = json.load(f)
    with open(args.new) as f:
        new = json.load(f)
    lines, slower = compare(recorded, new, args.threshold)
    print("\n".join(lines))
    if slower:
        print(f"{slower} row(s) more than {args.threshold:.0%} slower than recorded in "
              f"{args.recorded}")
        return 1
    print(f"no row more than {args.threshold:.0%} slower than recorded in {args.recorded}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
