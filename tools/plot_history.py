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

--columns NAME[,NAME...] draws instead the named columns of any CSV whose rows are checks or
times (history.csv, a file with a column `iteration` or `time`) against --x, one line each with
a legend, on a linear axis (--log: a log axis); a norm column among them is named by the
criterion as above. A name the file lacks is an error that lists the file's columns; --list
prints them, one a line, and draws nothing.

    tools/plot_history.py out/plate --columns min,max,mean      # out/plate/history_min_max_mean.png
    tools/plot_history.py out/plate --columns norm_l2,p99 --log
    tools/plot_history.py run/probes.csv probes.png --columns centre,corner --x time
    tools/plot_history.py run/probes.csv --list

Given a run directory it reads the directory's history.csv; without an output path the PNG is
written beside the CSV (history.png; with --columns <csv name>_<columns>.png). Needs matplotlib (Debian: python3-matplotlib); without it
it prints one line naming this interpreter and exits 2, as it does when the file cannot be read.
"""
import argparse
import csv
import json
import math
import os
import re
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
    parser.add_argument("--x", choices=["iteration", "time"],
                        help="horizontal axis (default: iteration; with --columns, time for a "
                             "file without an iteration column)")
    parser.add_argument("--title", help="plot title (default: the file name)")
    parser.add_argument("--criterion", choices=["update", "residual"],
                        help="what the norms measure (default: summary.json beside the CSV)")
    parser.add_argument("--columns", metavar="NAME[,NAME...]",
                        help="draw these columns (linear axis) instead of the norms")
    parser.add_argument("--log", action="store_true", help="--columns: a log vertical axis")
    parser.add_argument("--list", action="store_true",
                        help="print the file's columns, one a line, and draw nothing")
    return parser.parse_intermixed_args()  # the output path may follow the options


def run_criterion(history_path):
    """The criterion recorded in the summary.json beside the CSV, or None without one."""
    path = os.path.join(os.path.dirname(history_path) or ".", "summary.json")
    try:
        with open(path) as f:
            criterion = json.load(f).get("criterion")
    except (OSError, ValueError, AttributeError):
        return None
    return criterion if criterion in MEASURES else None


def read_header(path):
    """The CSV's column names, in the file's order."""
    with open(path, newline="") as f:
        header = next(csv.reader(f), None)
    if not header:
        raise ValueError("no header line")
    return [name.strip() for name in header]


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


def chosen_columns(text, available):
    """The names of --columns, or an error message naming the file's columns."""
    names = [name.strip() for name in text.split(",")]
    missing = [name for name in names if name not in available]
    if not missing and names:
        return list(dict.fromkeys(names)), None  # in the order given, once each
    what = ", ".join(f"'{name}'" for name in missing) if missing else "''"
    return None, (f"no column{'s' if len(missing) > 1 else ''} {what} "
                  f"(columns: {', '.join(available)})")


def default_png(history, columns):
    """history.png beside the CSV, or with --columns <csv name>_<columns>.png."""
    directory = os.path.dirname(history)
    if columns is None:
        return os.path.join(directory, "history.png")
    stem = os.path.splitext(os.path.basename(history))[0]
    words = "_".join(re.sub(r"[^A-Za-z0-9._-]+", "-", name) for name in columns)
    return os.path.join(directory, f"{stem}_{words}.png")


def draw_columns(args, cols, columns):
    """The named columns against --x, one line each, on a linear or (--log) log axis."""
    x = cols[args.x]
    criterion = args.criterion or run_criterion(args.history)
    words, symbol = MEASURES.get(criterion, (None, None))
    fig, ax = plt.subplots(figsize=(8, 5), dpi=100)
    for name in columns:
        values = positive(cols[name]) if args.log else cols[name]
        label = name
        if name in NORMS:
            label += f" ({name[5:]} of {words} {symbol})" if words else " (criterion unknown)"
        ax.plot(x, values, marker="." if len(x) < 50 else None, label=label)
    if args.log:
        ax.set_yscale("log")
    ax.set_xlabel(args.x)
    ax.set_ylabel(columns[0] if len(columns) == 1 else "value")
    ax.set_title(args.title or args.history)
    ax.grid(True, which="major", alpha=0.4)
    ax.legend(loc="best", fontsize="small")
    fig.tight_layout()
    fig.savefig(args.out)
    said = f"{args.out}: {', '.join(columns)} against {args.x}"
    if any(name in NORMS for name in columns):
        said += "; the norms of " + (f"{words} {symbol}" if words else UNKNOWN)
    print(said)
    return 0


def main():
    args = parse_args()
    if os.path.isdir(args.history):
        args.history = os.path.join(args.history, "history.csv")
    if args.log and args.columns is None:
        print("plot_history: --log is for --columns (the norms are always on a log axis)",
              file=sys.stderr)
        return 2
    if args.list:
        try:
            print("\n".join(read_header(args.history)))
        except (OSError, ValueError) as e:
            print(f"plot_history: {args.history}: {e}", file=sys.stderr)
            return 2
        return 0
    try:
        cols = read_columns(args.history)
    except (OSError, ValueError) as e:
        print(f"plot_history: {args.history}: {e}", file=sys.stderr)
        return 2
    columns = None
    if args.columns is not None:
        columns, error = chosen_columns(args.columns, list(cols))
        if error:
            print(f"plot_history: {args.history}: {error}", file=sys.stderr)
            return 2
        if args.x is None:
            args.x = "iteration" if "iteration" in cols or "time" not in cols else "time"
    args.x = args.x or "iteration"
    if args.out is None:
        args.out = default_png(args.history, columns)
    if args.x not in cols:
        also = f" (columns: {', '.join(cols)})" if columns else ""
        print(f"plot_history: {args.history}: no column '{args.x}'{also}", file=sys.stderr)
        return 2
    if columns is not None:
        return draw_columns(args, cols, columns)
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
