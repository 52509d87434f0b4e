#!/usr/bin/env python3
"""Runs tools/plot_history.py and tools/plot_slice.py on small inputs and checks each PNG:
it exists, is over 5 KB and is not one colour, and a history's p50..p99 band is drawn exactly
when the file has those columns; the norms are named by the run's criterion (summary.json's
`criterion`, or --criterion). Inputs: history files with and without the percentile columns,
2D and 3D snapshots written here with h5py in fdsolve's layout (see output/snapshot.cpp), and,
with --fdsolve, the history.csv (its columns and values checked too) and snapshot of a real
run of a tiny case, and a multigrid run of it. Exit 0 when every check passes, 1 otherwise,
77 (skip) when matplotlib or h5py is missing.

    test_plots.py --tools TOOLS_DIR --work DIR [--fdsolve BIN --case CASE.yaml]
"""
import argparse
import glob
import json
import math
import os
import shutil
import subprocess
import sys

try:
    import h5py
    import matplotlib
    import numpy as np

    matplotlib.use("Agg")
    import matplotlib.image as mpimg
except ImportError as e:  # a skip, never a pass
    print(f"SKIP: {e} (install python3-matplotlib and python3-h5py)")
    sys.exit(77)

MIN_BYTES = 5 * 1024
failures = []


def check(condition, what):
    print(("ok   " if condition else "FAIL ") + what)
    if not condition:
        failures.append(what)


def check_png(path, what):
    if not os.path.exists(path):
        check(False, f"{what}: {path} was written")
        return
    size = os.path.getsize(path)
    check(size > MIN_BYTES, f"{what}: {size} bytes > {MIN_BYTES}")
    image = mpimg.imread(path)
    check(image.ndim == 3 and image.shape[2] >= 3, f"{what}: an RGB image")
    if image.ndim != 3:
        return
    rgb = image[:, :, :3].reshape(-1, 3)
    # Axes, ticks and text are grey; the data are drawn in colour.
    coloured = rgb[rgb.max(axis=1) - rgb.min(axis=1) > 0.1]
    colours = len(np.unique(coloured, axis=0))
    share = len(coloured) / len(rgb)
    check(colours > 16 and share > 0.005,
          f"{what}: {colours} distinct colours over {100 * share:.1f}% of the pixels")


def run_tool(args, tool, *argv, expect=0):
    """Runs a tool, checks its exit status and returns its stdout."""
    cmd = [sys.executable, os.path.join(args.tools, tool), *argv]
    result = subprocess.run(cmd, capture_output=True, text=True)
    ok = result.returncode == expect
    check(ok, f"{' '.join(cmd[1:])} exits {expect} (got {result.returncode})")
    if not ok:
        print(result.stdout + result.stderr)
    return result.stdout


HEADER = ("iteration,time,norm_l2,norm_linf,min,max,mean,nonfinite,p50,p90,p99,"
          "linf_i,linf_j,linf_k,factor,cycles,wall_seconds")  # output/history_csv.hpp
HEADER_PLAIN = "iteration,time,norm_l2,norm_linf,min,max,mean,wall_seconds"  # before diagnostics


def write_history(path, rows, percentiles):
    with open(path, "w") as f:
        f.write((HEADER if percentiles else HEADER_PLAIN) + "\n")
        for it in range(1, rows + 1):
            l2 = 0.5 * 0.97 ** it
            cells = [it, 0.0, l2, 3 * l2, 0.0, 1.0, 0.25]
            if percentiles:  # zero p50 early on: a log axis must cope
                cells += [0 if it < rows - 3 else 7, 0.0 if it < 5 else l2 / 4, 1.5 * l2,
                          2.5 * l2, 3, 4, 0, 0.97, ""]
            cells.append(0.01 * it)
            f.write(",".join(repr(float(c)) if isinstance(c, float) else str(c) for c in cells)
                    + "\n")


# What plot_history.py says its norms measure, by the run's criterion (summary.json).
SAYS = {"update": "the norms of the update u' - u",
        "residual": "the norms of the residual f - A u",
        None: "criterion unknown"}


def labelled_by_criterion(args):
    """The norms are named by the criterion in the summary.json beside the CSV, or by
    --criterion; with neither they are of unknown kind, never called the update."""
    for criterion in ("update", "residual", None):
        run = os.path.join(args.work, f"criterion_{criterion}")
        os.makedirs(run, exist_ok=True)
        write_history(os.path.join(run, "history.csv"), 20, True)
        summary = os.path.join(run, "summary.json")
        if criterion:
            with open(summary, "w") as f:
                json.dump({"method": "any", "criterion": criterion}, f)
        elif os.path.exists(summary):
            os.remove(summary)
        said = run_tool(args, "plot_history.py", run)
        check(SAYS[criterion] in said, f"criterion {criterion}: says '{SAYS[criterion]}' ({said!r})")
        if criterion is None:
            check("update u' - u" not in said, "without a criterion the norms are not the update's")
    bare = os.path.join(args.work, "criterion_None", "history.csv")
    said = run_tool(args, "plot_history.py", bare, os.path.join(args.work, "given.png"),
                    "--criterion", "residual")
    check(SAYS["residual"] in said, f"--criterion residual is used ({said!r})")


def band_share(path):
    """Share of the pixels in the percentile band's colour: tab:green at alpha 0.25 on white,
    as tools/plot_history.py fills it."""
    image = mpimg.imread(path)[:, :, :3].reshape(-1, 3)
    green = np.array([0x2c, 0xa0, 0x2c]) / 255.0
    band = 0.25 * green + 0.75
    return float(np.mean(np.abs(image - band).max(axis=1) < 0.03))


def write_snapshot(path, dims):
    """A snapshot as output/snapshot.cpp writes it: [ny][nx] or [nz][ny][nx], x fastest."""
    n = (33, 25) if dims == 2 else (21, 17, 13)  # nodes per axis, x first
    origin = (-1.0, 0.5, 2.0)[:dims]
    spacing = (0.1, 0.05, 0.2)[:dims]
    coords = [origin[a] + spacing[a] * np.arange(n[a]) for a in range(dims)]
    grids = np.meshgrid(*coords[::-1], indexing="ij")[::-1]  # x, y[, z] shaped [z][y][x]
    u = np.sin(3 * grids[0]) * np.cos(5 * grids[1])
    if dims == 3:
        u = u + grids[2]
    u.flat[7] = math.nan  # drawn grey, must not break the colour scale
    with h5py.File(path, "w") as f:
        f.create_dataset("u", data=u)
        f.create_dataset("update", data=1e-3 * u.astype(np.float32))
        f.attrs["time"] = 0.5
        f.attrs["iteration"] = np.int64(1000)
        f.attrs["origin"] = np.array(origin)
        f.attrs["spacing"] = np.array(spacing)
        f.attrs["dims"] = np.int32(dims)
        f["config"] = "name: synthetic\n"


def synthetic(args):
    work = args.work
    for percentiles in (True, False):
        csv = os.path.join(work, f"history_{'p' if percentiles else 'plain'}.csv")
        write_history(csv, 60, percentiles)
        png = csv[:-4] + ".png"
        run_tool(args, "plot_history.py", csv, png)
        check_png(png, f"history {'with' if percentiles else 'without'} percentiles")
        if os.path.exists(png):
            share = band_share(png)
            if percentiles:
                check(share > 0.01, f"the percentile band covers {100 * share:.1f}% > 1%")
            else:
                check(share < 0.001, f"no band without percentiles ({100 * share:.2f}%)")
    run_tool(args, "plot_history.py", os.path.join(work, "missing.csv"),
             os.path.join(work, "missing.png"), expect=2)
    labelled_by_criterion(args)

    for dims in (2, 3):
        h5 = os.path.join(work, f"snapshot_{dims}d.h5")
        write_snapshot(h5, dims)
        png = os.path.join(work, f"slice_{dims}d.png")
        run_tool(args, "plot_slice.py", h5, png)
        check_png(png, f"{dims}D slice of u")
    h5 = os.path.join(work, "snapshot_3d.h5")
    for axis, index in (("x", "0"), ("y", "16")):
        png = os.path.join(work, f"slice_3d_{axis}.png")
        run_tool(args, "plot_slice.py", h5, png, "--field", "update", "--axis", axis,
                 "--index", index)
        check_png(png, f"3D slice of update normal to {axis}")
    run_tool(args, "plot_slice.py", h5, os.path.join(work, "bad.png"), "--index", "13", expect=2)
    run_tool(args, "plot_slice.py", h5, os.path.join(work, "bad.png"), "--field", "v", expect=2)


def real_run(args):
    out = os.path.join(args.work, "run")
    shutil.rmtree(out, ignore_errors=True)  # no snapshot of an earlier run may stand in
    cmd = [args.fdsolve, "run", args.case, "--backend", "cpu", "--output", out, "--quiet",
           "--set", "grid.points=[33,33]", "--set", "solve.check_every=10",
           "--set", "solve.tolerance=1e-4", "--set", "output.every=0"]
    result = subprocess.run(cmd, capture_output=True, text=True)
    check(result.returncode in (0, 3), f"{' '.join(cmd)} exits 0 or 3 (got {result.returncode})")
    if result.returncode not in (0, 3):
        print(result.stdout + result.stderr)
        return
    csv = os.path.join(out, "history.csv")
    with open(csv) as f:
        lines = f.read().splitlines()
    check(lines[0] == HEADER, f"the run's history.csv has the columns {HEADER}")
    rows = [dict(zip(lines[0].split(","), line.split(","))) for line in lines[1:]]
    check(len(rows) > 5, f"the run checked {len(rows)} times")
    check(all(int(r.get("nonfinite", -1)) == 0 for r in rows), "no non-finite value in any row")
    check(all(float(r["p50"]) <= float(r["p90"]) <= float(r["p99"]) for r in rows),
          "p50 <= p90 <= p99 in every row")
    png = os.path.join(args.work, "run_history.png")
    run_tool(args, "plot_history.py", csv, png)
    check_png(png, "history of a run")
    if os.path.exists(png):
        share = band_share(png)
        check(share > 0.01, f"the run's percentile band covers {100 * share:.1f}% > 1%")
    snapshots = sorted(glob.glob(os.path.join(out, "*.h5")))
    snapshots = [s for s in snapshots if not s.endswith("checkpoint.h5")]
    check(bool(snapshots), "the run wrote a snapshot")
    if snapshots:
        png = os.path.join(args.work, "run_slice.png")
        run_tool(args, "plot_slice.py", snapshots[-1], png)
        check_png(png, "slice of a run's snapshot")
    # Given the run directory alone: its history.csv and its last snapshot, the PNGs beside
    # them (a second snapshot of a later iteration is added first: the last one must be drawn).
    for stale in glob.glob(os.path.join(out, "*.png")):
        os.remove(stale)
    if snapshots:
        later = os.path.join(out, os.path.basename(snapshots[-1])[:-12] + "_99999999.h5")
        shutil.copy(snapshots[-1], later)
        run_tool(args, "plot_slice.py", out)
        check_png(later[:-3] + "_u.png", "slice of a run directory's last snapshot, beside it")
        check(not os.path.exists(snapshots[-1][:-3] + "_u.png"),
              "an earlier snapshot of the directory is not the one drawn")
    said = run_tool(args, "plot_history.py", out)
    check_png(os.path.join(out, "history.png"), "history of a run directory, beside its CSV")
    # The case runs Jacobi: its norms are of the update. Multigrid's are of the residual.
    check(SAYS["update"] in said, f"a Jacobi run's norms are of the update ({said!r})")
    mg = os.path.join(args.work, "run_multigrid")
    shutil.rmtree(mg, ignore_errors=True)
    cmd = [args.fdsolve, "run", args.case, "--backend", "cpu", "--output", mg, "--quiet",
           "--set", "grid.points=[33,33]", "--set", "solve.method=multigrid"]
    result = subprocess.run(cmd, capture_output=True, text=True)
    check(result.returncode == 0, f"{' '.join(cmd)} exits 0 (got {result.returncode})")
    with open(os.path.join(mg, "summary.json")) as f:
        check(json.load(f).get("criterion") == "residual", "a multigrid run records criterion residual")
    said = run_tool(args, "plot_history.py", mg)
    check(SAYS["residual"] in said, f"a multigrid run's norms are of the residual ({said!r})")


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tools", required=True, help="the tools/ directory")
    parser.add_argument("--work", required=True, help="scratch directory for the files")
    parser.add_argument("--fdsolve", help="the fdsolve binary: also plot a real run")
    parser.add_argument("--case", help="the case file of that run")
    args = parser.parse_args()
    os.makedirs(args.work, exist_ok=True)
    synthetic(args)
    if args.fdsolve:
        real_run(args)
    print(f"{len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
