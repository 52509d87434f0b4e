#!/usr/bin/env python3
"""Draws a run's history.csv to a PNG: the l2 and linf norms (log scale) and, when the file
has the columns p50, p90 and p99, the band of the update's distribution |u' - u| from the 50th
to the 99th percentile with the 90th as a dashed line. A `nonfinite` column, when present,
marks the first check that found non-finite values.

The norms measure what the run's criterion says: the update u' - u (Jacobi, explicit heat) or
the residual f - A u (multigrid, CG, implicit heat, Jacobi with solve.criterion: residual).
The criterion is read from `criterion` in the summary.json beside the CSV; --criterion gives it
for a CSV without one (a run still going, a copied file), else the norms are labelled as of
unknown kind. It prints the PNG's path and what its norms measure.

    tools/plot_history.py out/plate                  # writes out/plate/history.png
    tools/plot_history.py out/plate/history.csv plate_history.png [--x iteration|time]
    tools/plot_history.py copied_history.csv --criterion residual

Given a run directory it reads the directory's history.csv; without an output path the PNG is
written beside the CSV (history.png). Needs matplotlib (Debian: python3-matplotlib); without it
it prints one line naming this interpreter and exits 2, as it does when the file cannot be read.
"""
import argparse
import csv
import json
import math
import os
import sys

try:
    import matplotlib
except ImportError:
    print(f"plot_history: {sys.executable} cannot import matplotlib: install python3-matplotlib "
          f"(Debian) or run `{sys.executable} -m pip install matplotlib`", file=sys.stderr)
    sys.exit(2)

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (after the backend is chosen)

NORMS = ("norm_l2", "norm_linf")
# What the norms measure, by the run's criterion (summary.json's `criterion`): the legend's
# words and the axis label's.
MEASURES = {"update": ("the update", "u' - u"), "residual": ("the residual", "f - A u")}
UNKNOWN = "the update or the residual (no summary.json beside the CSV: criterion unknown)"
PERCENTILES = ("p50", "p90", "p99")


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("history", help="history.csv written by fdsolve run, or its run directory")
    parser.add_argument("out", nargs="?",
                        help="PNG to write (default: history.png beside the CSV)")
    parser.add_argument("--x", choices=["iteration", "time"], default="iteration",
                        help="horizontal axis (default: iteration)")
    parser.add_argument("--title", help="plot title (default: the file name)")
    parser.add_argument("--criterion", choices=["update", "residual"],
                        help="what the norms measure (default: summary.json beside the CSV)")
    return parser.parse_args()


def run_criterion(history_path):
    """The criterion recorded in the summary.json beside the CSV, or None without one."""
    path = os.path.join(os.path.dirname(history_path) or ".", "summary.json")
    try:
        with open(path) as f:
            criterion = json.load(f).get("criterion")
    except (OSError, ValueError, AttributeError):
        return None
    return criterion if criterion in MEASURES else None


def read_columns(path):
    """The CSV as {column: [float]}; empty cells read as NaN."""
    with open(path, newline="") as f:
        reader = csv.DictReader(f)
        if not reader.fieldnames:
            raise ValueError("no header line")
        columns = {name.strip(): [] for name in reader.fieldnames}
        for row in reader:
            for name, value in row.items():
                if name is None:
                    raise ValueError("a row has more cells than the header")
                text = (value or "").strip()
                columns[name.strip()].append(float(text) if text else math.nan)
    return columns


def positive(values):
    """Values a log axis can show: NaN for zero, negative or non-finite ones."""
    return [v if v > 0 and math.isfinite(v) else math.nan for v in values]


def main():
    args = parse_args()
    if os.path.isdir(args.history):
        args.history = os.path.join(args.history, "history.csv")
    if args.out is None:
        args.out = os.path.join(os.path.dirname(args.history), "history.png")
    try:
        cols = read_columns(args.history)
    except (OSError, ValueError) as e:
        print(f"plot_history: {args.history}: {e}", file=sys.stderr)
        return 2
    if args.x not in cols:
        print(f"plot_history: {args.history}: no column '{args.x}'", file=sys.stderr)
        return 2
    x = cols[args.x]
    criterion = args.criterion or run_criterion(args.history)
    words, symbol = MEASURES.get(criterion, (None, None))

    fig, ax = plt.subplots(figsize=(8, 5), dpi=100)
    if all(p in cols for p in PERCENTILES):
        lo, mid, hi = (positive(cols[p]) for p in PERCENTILES)
        ax.fill_between(x, lo, hi, color="tab:green", alpha=0.25, linewidth=0,
                        label="|update| p50..p99")
        ax.plot(x, mid, color="tab:green", linestyle="--", linewidth=1, label="|update| p90")
    for name in NORMS:
        if name in cols:
            label = f"{name[5:]} of {words}" if words else name[5:]
            ax.plot(x, positive(cols[name]), marker="." if len(x) < 50 else None, label=label)
    if "nonfinite" in cols:
        bad = [xi for xi, n in zip(x, cols["nonfinite"]) if n > 0]
        if bad:
            ax.axvline(bad[0], color="tab:red", linestyle=":",
                       label=f"non-finite values ({args.x} {bad[0]:g})")
    ax.set_yscale("log")
    ax.set_xlabel(args.x)
    ax.set_ylabel(f"norm of {symbol}" if symbol else "norm (criterion unknown)")
    ax.set_title(args.title or args.history)
    ax.grid(True, which="major", alpha=0.4)
    ax.grid(True, which="minor", alpha=0.1)
    ax.legend(loc="best", fontsize="small")
    fig.tight_layout()
    fig.savefig(args.out)
    print(f"{args.out}: the norms of " + (f"{words} {symbol}" if words else UNKNOWN))
    return 0


if __name__ == "__main__":
    sys.exit(main())
