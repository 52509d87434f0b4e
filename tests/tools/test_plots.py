#!/usr/bin/env python3
"""Runs tools/plot_history.py and tools/plot_slice.py on small inputs and checks each PNG:
it exists, is over 5 KB and is not one colour, and a history's p50..p99 band is drawn exactly
when the file has those columns; the norms are named by the run's criterion (summary.json's
`criterion`, or --criterion). Inputs: history files with and without the percentile columns,
2D and 3D snapshots written here with h5py in fdsolve's layout (see output/snapshot.cpp), and,
with --fdsolve, the history.csv (its columns and values checked too) and snapshot of a real
run of a tiny case, and a multigrid run of it. Exit 0 when every check passes, 1 otherwise,
77 (skip) when matplotlib or h5py is missing.

The options: plot_history.py --columns on hand-written CSVs (each named column's line is drawn
in its colour, an unknown name exits 2 naming the file's columns and writes nothing), --list
against the header written here; plot_slice.py --line's --csv against the array read here
with h5py at the nodes nearest to --through (or the centre) and the coordinates from the
snapshot's attributes; --snapshot N|first|last|index:K|all in a directory of snapshots of
different values, checked by the CSV's values and the PNGs' names.

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


def run_tool(args, tool, *argv, expect=0, stderr=False):
    """Runs a tool, checks its exit status and returns its stdout (and stderr)."""
    cmd = [sys.executable, os.path.join(args.tools, tool), *argv]
    result = subprocess.run(cmd, capture_output=True, text=True)
    ok = result.returncode == expect
    check(ok, f"{' '.join(cmd[1:])} exits {expect} (got {result.returncode})")
    if not ok:
        print(result.stdout + result.stderr)
    return (result.stdout, result.stderr) if stderr else result.stdout


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


def colour_share(path, colour):
    """Share of the pixels within 0.1 of an RGB colour (0..1 per channel)."""
    image = mpimg.imread(path)[:, :, :3].reshape(-1, 3)
    return float(np.mean(np.abs(image - np.array(colour)).max(axis=1) < 0.1))


# matplotlib's first two line colours (tab:blue, tab:orange): --columns draws one line a column.
LINE_COLOURS = ((0x1f / 255, 0x77 / 255, 0xb4 / 255), (0xff / 255, 0x7f / 255, 0x0e / 255))


def columns(args):
    """plot_history.py --columns and --list on hand-written CSVs: a probes file (time first),
    history.csv (its default PNG does not replace history.png), a file with only `time`."""
    work = os.path.join(args.work, "columns")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    probes = os.path.join(work, "probes.csv")
    header = ["time", "iteration", "centre", "corner", "flux_x_min"]
    with open(probes, "w") as f:
        f.write(",".join(header) + "\n")
        for k in range(1, 41):
            f.write(f"{0.05 * k},{10 * k},{math.sin(0.2 * k)},{-0.5 + 0.01 * k},"
                    f"{'' if k == 7 else 2.0 / k}\n")
    listed = run_tool(args, "plot_history.py", probes, "--list")
    check(listed.split() == header, f"--list prints the columns {header} ({listed!r})")

    for names in (["centre"], ["centre", "corner"]):
        png = os.path.join(work, f"probes_{len(names)}.png")
        run_tool(args, "plot_history.py", probes, png, "--columns", ",".join(names), "--x", "time")
        check(os.path.exists(png) and os.path.getsize(png) > 0, f"--columns {names}: {png} drawn")
        if not os.path.exists(png):
            continue
        for k, colour in enumerate(LINE_COLOURS):
            share = colour_share(png, colour)
            if k < len(names):
                check(share > 0.0005, f"--columns {names}: line {k + 1} drawn "
                                      f"({100 * share:.2f}% of the pixels)")
            else:
                check(share < 0.0001, f"--columns {names}: no line {k + 1} "
                                      f"({100 * share:.3f}% of the pixels)")
    png = os.path.join(work, "log.png")
    run_tool(args, "plot_history.py", probes, png, "--columns", "flux_x_min,corner", "--log")
    check(os.path.exists(png) and os.path.getsize(png) > 0, "--columns with --log (a gap, "
          "negative values) is drawn")

    png = os.path.join(work, "unknown.png")
    _, err = run_tool(args, "plot_history.py", probes, png, "--columns", "centre,middle",
                      expect=2, stderr=True)
    check("middle" in err and all(name in err for name in header),
          f"an unknown column is named with the file's columns ({err.strip()!r})")
    check("\n" not in err.strip(), "one line on stderr")
    check(not os.path.exists(png), "nothing is written for an unknown column")

    # history.csv in a run directory: --columns writes history_<columns>.png, history.png stays
    # the norms' (absent here), and a norm column is named by the run's criterion.
    run = os.path.join(work, "run")
    os.makedirs(run)
    write_history(os.path.join(run, "history.csv"), 30, True)
    with open(os.path.join(run, "summary.json"), "w") as f:
        json.dump({"criterion": "residual"}, f)
    said = run_tool(args, "plot_history.py", run, "--columns", "min,norm_l2")
    check(os.path.getsize(os.path.join(run, "history_min_norm_l2.png")) > 0
          if os.path.exists(os.path.join(run, "history_min_norm_l2.png")) else False,
          "--columns without an output path: history_min_norm_l2.png beside the CSV")
    check(not os.path.exists(os.path.join(run, "history.png")), "history.png is not written")
    check(SAYS["residual"] in said, f"a norm column is named by the criterion ({said!r})")

    only_time = os.path.join(work, "only_time.csv")
    with open(only_time, "w") as f:
        f.write("time,energy\n0.1,3\n0.2,2.5\n0.3,2.2\n")
    said = run_tool(args, "plot_history.py", only_time, "--columns", "energy")
    check("against time" in said, f"a file without `iteration` is drawn against time ({said!r})")
    run_tool(args, "plot_history.py", only_time, os.path.join(work, "x.png"), "--columns",
             "energy", "--x", "iteration", expect=2)
    run_tool(args, "plot_history.py", probes, os.path.join(work, "y.png"), "--log", expect=2)


def read_profile(path):
    """A --csv profile as (header, columns as arrays)."""
    with open(path) as f:
        lines = f.read().splitlines()
    header = lines[0].split(",")
    rows = [[float(c) for c in line.split(",")] for line in lines[1:]]
    return header, np.array(rows).T if rows else np.zeros((len(header), 0))


def reference_line(h5, field, axis, point):
    """The nodes of `field` along `axis` nearest to `point` (None: the domain's centre), read
    here with h5py: (coordinates along the axis, values, iteration, time)."""
    with h5py.File(h5, "r") as f:
        data = f[field][...]
        origin = np.atleast_1d(f.attrs["origin"])
        spacing = np.atleast_1d(f.attrs["spacing"])
        iteration, time = int(f.attrs["iteration"]), float(f.attrs["time"])
    dims = data.ndim
    n = data.shape[::-1]
    a = "xyz".index(axis)
    select = []
    for b in range(dims):
        nodes = origin[b] + spacing[b] * np.arange(n[b])
        target = (nodes[0] + nodes[-1]) / 2 if point is None else point[b]
        select.append(slice(None) if b == a else int(np.argmin(np.abs(nodes - target))))
    values = data[tuple(select[::-1])]
    return origin[a] + spacing[a] * np.arange(n[a]), values, iteration, time


def same_profile(csv, h5, field, axis, point, what):
    """The --csv file holds the line of h5 read directly."""
    if not os.path.exists(csv):
        check(False, f"{what}: {csv} was written")
        return
    header, cols = read_profile(csv)
    check(header == ["iteration", "time", axis, field], f"{what}: header {header}")
    if header != ["iteration", "time", axis, field]:
        return
    coords, values, iteration, time = reference_line(h5, field, axis, point)
    check(cols.shape[1] == len(values), f"{what}: {cols.shape[1]} rows, {len(values)} nodes")
    if cols.shape[1] != len(values):
        return
    check(np.array_equal(cols[3], values.astype(float), equal_nan=True),
          f"{what}: the values are the snapshot's (read with h5py)")
    check(np.allclose(cols[2], coords, rtol=0, atol=1e-12), f"{what}: at the nodes' coordinates")
    check(np.all(cols[0] == iteration) and np.all(cols[1] == time),
          f"{what}: iteration {iteration}, time {time}")


def lines(args):
    """plot_slice.py --line on the synthetic 2D and 3D snapshots: the CSV against the arrays
    read with h5py at the nearest nodes; points beside a node, the default centre, errors."""
    work = args.work
    h2 = os.path.join(work, "snapshot_2d.h5")  # nodes (33, 25), origin (-1, 0.5), h (0.1, 0.05)
    h3 = os.path.join(work, "snapshot_3d.h5")  # (21, 17, 13), (-1, 0.5, 2), (0.1, 0.05, 0.2)
    cases = [
        (h2, "u", "x", (0.0, 0.5 + 7.4 * 0.05)),       # y nearer node 7 than node 8
        (h2, "u", "x", (0.0, 0.5 + 7.6 * 0.05)),       # nearer node 8 (nan at node 7 of row 0)
        (h2, "u", "y", None),                          # the centre
        (h2, "u", "x", (0.0, 0.5 + 0.3 * 0.05)),       # row 0, with the NaN
        (h3, "u", "z", (-1 + 3.3 * 0.1, 0.5 + 12.8 * 0.05, 0.0)),
        (h3, "update", "x", None),                     # float32
        (h3, "u", "y", (-1 + 20 * 0.1, 0.0, 2 + 0.49 * 0.2)),
    ]
    for k, (h5, field, axis, point) in enumerate(cases):
        csv = os.path.join(work, f"line_{k}.csv")
        png = os.path.join(work, f"line_{k}.png")
        argv = [h5, png, "--field", field, "--line", axis, "--csv", csv]
        if point is not None:
            argv += ["--through", ",".join(repr(v) for v in point)]
        run_tool(args, "plot_slice.py", *argv)
        what = f"{os.path.basename(h5)} {field} along {axis} through {point or 'the centre'}"
        check(os.path.exists(png) and os.path.getsize(png) > 0, f"{what}: PNG drawn")
        same_profile(csv, h5, field, axis, point, what)
    bad = os.path.join(work, "bad_line.png")
    for argv in (["--line", "z"],                                  # 2D: no z
                 ["--line", "x", "--through", "0,2"],              # y outside 0.5..1.7
                 ["--line", "x", "--through", "0,1,2"],            # 3 coordinates for 2D
                 ["--line", "x", "--index", "3"],                  # a slice's option
                 ["--csv", os.path.join(work, "bad.csv")]):        # --csv without --line
        run_tool(args, "plot_slice.py", h2, bad, *argv, expect=2)
    check(not os.path.exists(bad), "no PNG for a refused line")


def snapshot_choice(args):
    """plot_slice.py --snapshot in a run directory of three snapshots of different fields: the
    profile's CSV and the PNG's name say which file was read."""
    run = os.path.join(args.work, "choice")
    shutil.rmtree(run, ignore_errors=True)
    os.makedirs(run)
    iterations = (10, 20, 100)
    for k, it in enumerate(iterations):
        path = os.path.join(run, f"case_{it:08d}.h5")
        write_snapshot(path, 2)
        with h5py.File(path, "r+") as f:
            f["u"][...] = f["u"][...] * (k + 2) + it
            f.attrs["iteration"] = np.int64(it)
            f.attrs["time"] = 0.25 * it
    shutil.copy(os.path.join(run, "case_00000010.h5"), os.path.join(run, "checkpoint.h5"))
    h5 = {it: os.path.join(run, f"case_{it:08d}.h5") for it in iterations}
    for spec, it in (("20", 20), ("first", 10), ("last", 100), (None, 100), ("index:1", 20),
                     ("index:-3", 10)):
        csv = os.path.join(args.work, f"choice_{spec}.csv")
        argv = [run, "--line", "x", "--csv", csv] + (["--snapshot", spec] if spec else [])
        run_tool(args, "plot_slice.py", *argv)
        same_profile(csv, h5[it], "u", "x", None, f"--snapshot {spec}")
        png = h5[it][:-3] + "_u_line_x.png"
        check(os.path.exists(png), f"--snapshot {spec}: {os.path.basename(png)} beside it")
        if os.path.exists(png):
            os.remove(png)
    run_tool(args, "plot_slice.py", run, "--snapshot", "20")
    check(os.path.exists(h5[20][:-3] + "_u.png"), "--snapshot 20: its slice, beside it")
    check(not any(os.path.exists(h5[it][:-3] + "_u.png") for it in (10, 100)),
          "--snapshot 20: no other snapshot drawn")
    _, err = run_tool(args, "plot_slice.py", run, "--snapshot", "15", expect=2, stderr=True)
    check(all(str(it) in err for it in iterations), f"no iteration 15: names 10, 20, 100 "
                                                    f"({err.strip()!r})")
    for spec in ("index:3", "middle"):
        run_tool(args, "plot_slice.py", run, "--snapshot", spec, expect=2)
    run_tool(args, "plot_slice.py", h5[10], "--snapshot", "last", expect=2)  # not a directory

    # all, with --line: every profile in one CSV, one PNG; without: one PNG per snapshot.
    csv = os.path.join(args.work, "choice_all.csv")
    run_tool(args, "plot_slice.py", run, "--line", "y", "--snapshot", "all", "--csv", csv)
    check(os.path.exists(os.path.join(run, "case_u_line_y.png")), "all: case_u_line_y.png")
    if os.path.exists(csv):
        header, cols = read_profile(csv)
        check(sorted(set(cols[0].astype(int))) == list(iterations),
              f"all: the CSV holds iterations {sorted(set(cols[0].astype(int)))}")
        for it in iterations:
            coords, values, _, time = reference_line(h5[it], "u", "y", None)
            rows = cols[:, cols[0] == it]
            check(np.array_equal(rows[3], values, equal_nan=True) and np.all(rows[1] == time)
                  and np.allclose(rows[2], coords, rtol=0, atol=1e-12),
                  f"all: the rows of iteration {it} are its snapshot's line")
    slices = os.path.join(args.work, "choice_slices")
    shutil.rmtree(slices, ignore_errors=True)
    run_tool(args, "plot_slice.py", run, slices, "--snapshot", "all")
    drawn = sorted(os.listdir(slices)) if os.path.isdir(slices) else []
    check(drawn == [f"case_{it:08d}_u.png" for it in iterations], f"all: one slice each {drawn}")
    for name in drawn:
        check_png(os.path.join(slices, name), f"all: {name}")


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
    columns(args)
    lines(args)
    snapshot_choice(args)


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
    # The example is 2D Laplace: the balance columns stand before wall_seconds.
    balance = "integral,flux_x_min,flux_x_max,flux_y_min,flux_y_max,"
    header = HEADER.replace("wall_seconds", balance + "wall_seconds")
    check(lines[0] == header, f"the run's history.csv has the columns {header}")
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
    # A line of the real snapshot, and columns of the real history.csv.
    if snapshots:
        line_csv = os.path.join(args.work, "run_line.csv")
        run_tool(args, "plot_slice.py", out, os.path.join(args.work, "run_line.png"),
                 "--snapshot", "first", "--line", "y", "--through", "0.3,0", "--csv", line_csv)
        same_profile(line_csv, snapshots[0], "u", "y", (0.3, 0.0), "a line of a run's snapshot")
    png = os.path.join(args.work, "run_columns.png")
    run_tool(args, "plot_history.py", csv, png, "--columns", "min,max,mean")
    check(os.path.exists(png) and os.path.getsize(png) > 0, "columns of a run's history.csv")
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
