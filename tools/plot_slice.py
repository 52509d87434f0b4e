#!/usr/bin/env python3
"""Draws a field of an fdsolve snapshot to a PNG with physical coordinates: a 2D field whole,
a 3D field as the slice at one index of one axis (default: the middle of z).

    tools/plot_slice.py out/plate               # the last snapshot: out/plate/plate_<it>_u.png
    tools/plot_slice.py out/plate/plate_00001000.h5 plate.png [--field u]
    tools/plot_slice.py box.h5 box.png --axis y --index 10

--line x|y|z draws instead the profile of the field along that axis: the line of nodes nearest
to the point --through X,Y[,Z] (physical coordinates, one per axis of the field; default: the
domain's centre), against the physical coordinate; --csv PATH writes the profile too, as rows
iteration,time,<axis>,<field> (numbers read back bit-identical), to compare with an analytic
curve.

    tools/plot_slice.py out/heat_plate --line x --through 0,0.25 --csv profile.csv
    tools/plot_slice.py out/heat_plate --line x --snapshot all    # every snapshot, one axes
    tools/plot_slice.py out/poisson_box --line z --through 0.5,0.25,0

Given a run directory, --snapshot picks its snapshot: N (of iteration N), last (the default),
first, index:K (the K-th in order of iteration, 0 the first, -1 the last), or all: with --line
every snapshot's profile on one axes, labelled by time (by iteration for a steady solve, whose
snapshots record the iteration as the time); without, one PNG per snapshot, beside each or in the directory given as the
output path. Without an output path a line's PNG is <snapshot>_<field>_line_<axis>.png beside
the snapshot (with all: <name>_<field>_line_<axis>.png in the run directory).

Snapshots hold each field as a dataset [ny][nx] or [nz][ny][nx] (x fastest) and the root
attributes origin and spacing (x, y[, z]), dims, time and iteration. Nodes are drawn as cells
centred on their coordinates; NaN shows grey. Given a run directory it draws the snapshot of
the highest iteration (unless --snapshot says otherwise); without an output path the PNG is written beside the snapshot
(<snapshot>_<field>.png). Needs numpy, h5py and matplotlib (Debian: python3-h5py,
python3-matplotlib); without them it prints one line naming this interpreter and exits 2, as it
does when the file, field or slice does not exist.
"""
import argparse
import glob
import os
import re
import sys

try:
    import h5py
    import matplotlib
    import numpy as np
except ImportError as e:
    print(f"plot_slice: {sys.executable} cannot import {e.name or 'a module'}: install "
          f"python3-h5py python3-matplotlib (Debian) or run "
          f"`{sys.executable} -m pip install h5py matplotlib`", file=sys.stderr)
    sys.exit(2)

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (after the backend is chosen)

AXES = "xyz"


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("snapshot", help="an fdsolve snapshot (.h5), or a run directory")
    parser.add_argument("out", nargs="?",
                        help="PNG to write (default: beside the snapshot; with --snapshot all "
                             "and no --line, a directory for the PNGs)")
    parser.add_argument("--field", default="u", help="dataset to draw (default: u)")
    parser.add_argument("--axis", choices=list(AXES),
                        help="3D: the axis normal to the slice (default: z)")
    parser.add_argument("--index", type=int,
                        help="3D: node index of the slice along --axis (default: the middle)")
    parser.add_argument("--cmap", default="viridis", help="matplotlib colour map")
    parser.add_argument("--line", choices=list(AXES),
                        help="draw the profile of the field along this axis instead of a slice")
    parser.add_argument("--through", metavar="X,Y[,Z]",
                        help="--line: a point of the line in physical coordinates, one per axis "
                             "(default: the domain's centre); the nearest line of nodes is drawn")
    parser.add_argument("--csv", metavar="PATH",
                        help="--line: also write the profile as CSV (iteration,time,<axis>,"
                             "<field>)")
    parser.add_argument("--snapshot", dest="snapshot_spec", metavar="N|last|first|all|index:K",
                        help="which snapshot of a run directory: of iteration N, the last "
                             "(default), the first, every one, or the K-th (0 first, -1 last)")
    # A point with a negative first coordinate (--through -1,0) is the option's value, not an
    # option of its own.
    argv = sys.argv[1:]
    for k in range(len(argv) - 1, 0, -1):
        if argv[k - 1] == "--through" and re.match(r"-[\d.]", argv[k]):
            argv[k - 1:k + 1] = [f"--through={argv[k]}"]
    return parser.parse_intermixed_args(argv)  # the output path may follow the options


def attribute(f, name, dims, default):
    """A per-axis attribute (x first) as a list of `dims` floats."""
    if name not in f.attrs:
        return [default] * dims
    values = np.atleast_1d(f.attrs[name]).astype(float).tolist()
    return (values + [default] * dims)[:dims]


def edges(origin, spacing, n):
    """Cell edges around n nodes at origin + i*spacing (unit cells for a degenerate axis)."""
    h = spacing if np.isfinite(spacing) and spacing > 0 else 1.0
    return origin - h / 2, origin + (n - 0.5) * h


def snapshots_of(directory):
    """The snapshots <name>_<iteration:08d>.h5 of a run directory as (iteration, path), in
    order of iteration."""
    found = []
    for path in glob.glob(os.path.join(directory, "*.h5")):
        m = re.fullmatch(r".+_(\d{8,})\.h5", os.path.basename(path))
        if m:
            found.append((int(m.group(1)), path))
    return sorted(found)


def pick(found, spec):
    """The paths --snapshot names among (iteration, path), or an error message."""
    iterations = ", ".join(str(it) for it, _ in found)
    if spec == "all":
        return [path for _, path in found], None
    if spec in ("last", "first"):
        return [found[-1 if spec == "last" else 0][1]], None
    m = re.fullmatch(r"index:(-?\d+)", spec)
    if m:
        k = int(m.group(1))
        if -len(found) <= k < len(found):
            return [found[k][1]], None
        return None, f"no snapshot of index {k}: {len(found)} snapshot(s) (iterations {iterations})"
    if re.fullmatch(r"\d+", spec):
        paths = [path for it, path in found if it == int(spec)]
        if len(paths) == 1:
            return paths, None
        if len(paths) > 1:
            return None, f"several snapshots of iteration {spec}: {', '.join(paths)}"
        return None, f"no snapshot of iteration {spec} (iterations {iterations})"
    return None, f"--snapshot {spec}: expected N, last, first, all or index:K"


def read_snapshot(path, field, line=None):
    """(data, origin, spacing, time, iteration) of a snapshot's field, or an error message. With
    line = (axis, through) data is the profile along that axis and origin gains the node index
    of the line on every axis (key 'index')."""
    try:
        f = h5py.File(path, "r")
    except OSError as e:
        return None, f"{path}: {e}"
    with f:
        if field not in f or not isinstance(f[field], h5py.Dataset):
            fields = [k for k, v in f.items() if isinstance(v, h5py.Dataset) and v.ndim >= 2]
            return None, f"{path}: no field '{field}' (fields: {', '.join(fields) or 'none'})"
        dataset = f[field]
        dims = dataset.ndim
        if dims not in (2, 3):
            return None, f"{field} has {dims} dimensions, expected 2 or 3"
        origin = attribute(f, "origin", dims, 0.0)
        spacing = attribute(f, "spacing", dims, 1.0)
        time = float(np.atleast_1d(f.attrs.get("time", np.nan))[0])
        iteration = int(np.atleast_1d(f.attrs.get("iteration", -1))[0])
        if line is None:
            data = np.asarray(dataset[...], dtype=float)
            return {"data": data, "origin": origin, "spacing": spacing, "time": time,
                    "iteration": iteration}, None
        index, error = line_nodes(dataset.shape[::-1], origin, spacing, *line)
        if error:
            return None, f"{path}: {error}"
        a = AXES.index(line[0])
        select = [slice(None) if b == a else index[b] for b in range(dims)]
        data = np.asarray(dataset[tuple(select[::-1])], dtype=float)  # [z][y][x]: reversed
    return {"data": data, "origin": origin, "spacing": spacing, "time": time,
            "iteration": iteration, "index": index}, None


def line_nodes(shape, origin, spacing, axis, through):
    """The node index on every axis of the line along `axis` nearest to the point `through`
    (physical coordinates, None: the domain's centre), or an error message."""
    dims = len(shape)
    a = AXES.index(axis)
    if a >= dims:
        return None, f"--line {axis}: the field is {dims}D"
    if through is not None and len(through) != dims:
        return None, f"--through has {len(through)} coordinate(s), the field is {dims}D"
    index = []
    for b in range(dims):
        if b == a:
            index.append(0)
            continue
        h = spacing[b] if np.isfinite(spacing[b]) and spacing[b] > 0 else 1.0
        if through is None:
            i = shape[b] // 2
        else:
            i = int(np.floor((through[b] - origin[b]) / h + 0.5))
            if not 0 <= i < shape[b]:
                last = origin[b] + (shape[b] - 1) * h
                return None, (f"{AXES[b]} = {through[b]:g} is outside the nodes "
                              f"{origin[b]:g}..{last:g}")
        index.append(i)
    return index, None


def coordinates(origin, spacing, n):
    """Physical coordinates of n nodes from origin at spacing."""
    return origin + spacing * np.arange(n)


def where(snap, axis):
    """Where a line along `axis` lies: 'y = 0.25 (index 16)' for each other axis."""
    a = AXES.index(axis)
    return ", ".join(f"{AXES[b]} = {snap['origin'][b] + i * snap['spacing'][b]:g} (index {i})"
                     for b, i in enumerate(snap["index"]) if b != a)


def draw_line(args, paths, out):
    """The profile along --line of each snapshot on one axes, and the CSV with --csv."""
    through = None
    if args.through is not None:
        try:
            through = [float(v) for v in args.through.split(",")]
        except ValueError:
            print(f"plot_slice: --through {args.through}: expected X,Y[,Z]", file=sys.stderr)
            return 2
    snaps = []
    for path in paths:
        snap, error = read_snapshot(path, args.field, (args.line, through))
        if error:
            print(f"plot_slice: {error}", file=sys.stderr)
            return 2
        snaps.append(snap)
    a = AXES.index(args.line)
    # A steady solve records its iteration as the time: such lines are named by iteration.
    times = [s["time"] for s in snaps]
    by_time = (len(set(times)) == len(times) and all(np.isfinite(times))
               and any(s["time"] != s["iteration"] for s in snaps))
    fig, ax = plt.subplots(figsize=(8, 5), dpi=100)
    colours = plt.get_cmap("viridis")(np.linspace(0, 0.9, len(snaps))) if len(snaps) > 1 \
        else [None]
    rows = []
    for snap, colour in zip(snaps, colours):
        x = coordinates(snap["origin"][a], snap["spacing"][a], len(snap["data"]))
        label = (f"t = {snap['time']:g}" if by_time else f"iteration {snap['iteration']}")
        ax.plot(x, snap["data"], color=colour, marker="." if len(x) < 50 else None, label=label)
        rows += [(snap["iteration"], snap["time"], xi, v) for xi, v in zip(x, snap["data"])]
    last = snaps[-1]
    title = f"{args.field} along {args.line} through {where(last, args.line)}"
    if len(snaps) == 1:
        title += f"\niteration {last['iteration']}  time {last['time']:g}"
    else:
        ax.legend(loc="best", fontsize="small", ncol=2 if len(snaps) > 12 else 1)
    ax.set_xlabel(args.line)
    ax.set_ylabel(args.field)
    ax.set_title(title, fontsize="medium")
    ax.grid(True, alpha=0.4)
    fig.tight_layout()
    fig.savefig(out)
    print(f"{out}: {args.field} along {args.line} through {where(last, args.line)}")
    if args.csv:
        with open(args.csv, "w") as f:
            f.write(f"iteration,time,{args.line},{args.field}\n")
            for it, t, xi, v in rows:
                f.write(f"{it},{float(t)!r},{float(xi)!r},{float(v)!r}\n")
        print(args.csv)
    return 0


def draw_slice(args, path, out):
    """The 2D field, or the slice of a 3D one, of one snapshot to a PNG."""
    snap, error = read_snapshot(path, args.field)
    if error:
        print(f"plot_slice: {error}", file=sys.stderr)
        return 2
    data, origin, spacing = snap["data"], snap["origin"], snap["spacing"]
    time, iteration, dims = snap["time"], snap["iteration"], snap["data"].ndim
    shape = data.shape[::-1]  # nodes per axis, x first
    title = f"{args.field}  iteration {iteration}  time {time:g}"
    if dims == 2:
        image, (h_axis, v_axis) = data, (0, 1)
    else:
        a = AXES.index(args.axis)
        index = shape[a] // 2 if args.index is None else args.index
        if not 0 <= index < shape[a]:
            print(f"plot_slice: index {index} outside 0..{shape[a] - 1} on axis {args.axis}",
                  file=sys.stderr)
            return 2
        # data is [z][y][x]: array axis 2 - a is physical axis a.
        image = np.take(data, index, axis=2 - a)
        h_axis, v_axis = [b for b in range(3) if b != a]
        title += f"  {args.axis} = {origin[a] + index * spacing[a]:g} (index {index})"

    x0, x1 = edges(origin[h_axis], spacing[h_axis], shape[h_axis])
    y0, y1 = edges(origin[v_axis], spacing[v_axis], shape[v_axis])
    cmap = plt.get_cmap(args.cmap).copy()
    cmap.set_bad("0.6")
    finite = image[np.isfinite(image)]
    vmin, vmax = (finite.min(), finite.max()) if finite.size else (0.0, 1.0)
    if vmin == vmax:
        vmin, vmax = vmin - 0.5, vmax + 0.5

    # True proportions unless the slice is so elongated that it would shrink to a line.
    ratio = (y1 - y0) / (x1 - x0)
    aspect = "equal" if 1 / 20 <= ratio <= 20 else "auto"
    fig, ax = plt.subplots(figsize=(7, 6), dpi=100)
    im = ax.imshow(np.ma.masked_invalid(image), origin="lower", extent=(x0, x1, y0, y1),
                   cmap=cmap, vmin=vmin, vmax=vmax, interpolation="nearest", aspect=aspect)
    fig.colorbar(im, ax=ax, label=args.field)
    ax.set_xlabel(AXES[h_axis])
    ax.set_ylabel(AXES[v_axis])
    ax.set_title(title, fontsize="medium")
    fig.tight_layout()
    fig.savefig(out)
    plt.close(fig)
    print(out)
    return 0


def main():
    args = parse_args()
    if args.line is None and (args.through is not None or args.csv is not None):
        print("plot_slice: --through and --csv are for --line", file=sys.stderr)
        return 2
    if args.line is not None and (args.axis is not None or args.index is not None):
        print("plot_slice: --axis and --index choose a slice; with --line the point is "
              "--through", file=sys.stderr)
        return 2
    args.axis = args.axis or "z"
    if os.path.isdir(args.snapshot):
        found = snapshots_of(args.snapshot)
        if not found:
            print(f"plot_slice: {args.snapshot}: no snapshot (<name>_<iteration>.h5) in the "
                  f"directory", file=sys.stderr)
            return 2
        paths, error = pick(found, args.snapshot_spec or "last")
        if error:
            print(f"plot_slice: {args.snapshot}: {error}", file=sys.stderr)
            return 2
    elif args.snapshot_spec is not None:
        print(f"plot_slice: --snapshot picks among a run directory's snapshots; "
              f"{args.snapshot} is not a directory", file=sys.stderr)
        return 2
    else:
        paths = [args.snapshot]
    if args.line is not None:
        out = args.out
        if out is None:
            if len(paths) == 1:
                out = f"{os.path.splitext(paths[0])[0]}_{args.field}_line_{args.line}.png"
            else:  # <name>_<iteration>.h5 less the iteration
                name = re.sub(r"_\d{8,}\.h5$", "", paths[-1])
                out = f"{name}_{args.field}_line_{args.line}.png"
        return draw_line(args, paths, out)
    if len(paths) == 1 and args.snapshot_spec != "all":
        out = args.out or f"{os.path.splitext(paths[0])[0]}_{args.field}.png"
        return draw_slice(args, paths[0], out)
    if args.out is not None:
        os.makedirs(args.out, exist_ok=True)
    for path in paths:
        name = f"{os.path.splitext(path)[0]}_{args.field}.png"
        out = os.path.join(args.out, os.path.basename(name)) if args.out else name
        status = draw_slice(args, path, out)
        if status:
            return status
    return 0


if __name__ == "__main__":
    sys.exit(main())
