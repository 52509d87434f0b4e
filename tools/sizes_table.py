#!/usr/bin/env python3
"""Reads the rows of `fdsolve bench --sizes --json FILE` and prints (1) a Markdown table per
rung: the chosen default beside the best variant, us/sweep, Gcell/s, %copy and the default's
gap to the best, and (2) the per-rung winners in the order solver/tuning/kernel_tables.cpp lists them
(2D 5-point, 3D 7-point, 3D 27-point; float then double each), ready to paste.

usage: tools/sizes_table.py bench_sizes.json [GPU-label]
"""
import json
import sys
from collections import OrderedDict


def main():
    rows = json.load(open(sys.argv[1]))
    label = sys.argv[2] if len(sys.argv) > 2 else "GPU"
    groups = OrderedDict()
    for r in rows:
        if "role" not in r:
            continue
        groups.setdefault((r["dims"], r["points"], r["precision"], r["size"]), []).append(r)
    print(f"| {label} | grid | precision | default | us/sweep | Gcell/s | %copy | best | us/sweep | "
          "Gcell/s | %copy | default / best |")
    print("| --- " * 12 + "|")
    winners = {}
    for (dims, points, precision, size), g in groups.items():
        best = min(g, key=lambda r: r["us/sweep"])
        default = next((r for r in g if "default" in r["role"]), None)
        winners[(dims, points, precision, size)] = best["kernel"]
        d = default or {"kernel": "-", "us/sweep": float("nan"), "Gcell/s": float("nan"),
                        "%copy": float("nan")}
        print(f"| {dims}D {points}-pt | {size}^{dims} | {precision} | {d['kernel']} | "
              f"{d['us/sweep']:.2f} | {d['Gcell/s']:.1f} | {d['%copy']:.1f} | {best['kernel']} | "
              f"{best['us/sweep']:.2f} | {best['Gcell/s']:.1f} | {best['%copy']:.1f} | "
              f"{d['us/sweep'] / best['us/sweep']:.3f} |")
    print()
    for dims, points in ((2, 5), (3, 7), (3, 27)):
        for precision in ("float", "double"):
            sizes = sorted({k[3] for k in winners if k[:3] == (dims, points, precision)})
            names = ", ".join(f'"{winners[(dims, points, precision, s)]}"' for s in sizes)
            print(f"  {{{names}}},  // {dims}D {points}-point {precision}")


if __name__ == "__main__":
    main()
