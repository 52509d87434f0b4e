#!/usr/bin/env python3
"""Draws a field of an fdsolve snapshot to a PNG with physical coordinates: a 2D field whole,
a 3D field as the slice at one index of one axis (default: the middle of z).

    tools/plot_slice.py out/plate               # the last snapshot: out/plate/plate_<it>_u.png
    tools/plot_slice.py out/plate/plate_00001000.h5 plate.png [--field u]
    tools/plot_slice.py box.h5 box.png --axis y --index 10

Snapshots hold each field as a dataset [ny][nx] or [nz][ny][nx] (x fastest) and the root
attributes origin and spacing (x, y[, z]), dims, time and iteration. Nodes are drawn as cells
centred on their coordinates; NaN shows grey. Given a run directory it draws the snapshot of
the highest iteration; without an output path the PNG is written beside the snapshot
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
                        help="PNG to write (default: <snapshot>_<field>.png beside it)")
    parser.add_argument("--field", default="u", help="dataset to draw (default: u)")
    parser.add_argument("--axis", choices=list(AXES), default="z",
                        help="3D: the axis normal to the slice (default: z)")
    parser.add_argument("--index", type=int,
                        help="3D: node index of the slice along --axis (default: the middle)")
    parser.add_argument("--cmap", default="viridis", help="matplotlib colour map")
    return parser.parse_args()


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


def last_snapshot(directory):
    """The snapshot <name>_<iteration:08d>.h5 of the highest iteration in a run directory."""
    found = []
    for path in glob.glob(os.path.join(directory, "*.h5")):
        m = re.fullmatch(r".+_(\d{8,})\.h5", os.path.basename(path))
        if m:
            found.append((int(m.group(1)), path))
    return max(found)[1] if found else None


def main():
    args = parse_args()
    if os.path.isdir(args.snapshot):
        snapshot = last_snapshot(args.snapshot)
        if snapshot is None:
            print(f"plot_slice: {args.snapshot}: no snapshot (<name>_<iteration>.h5) in the "
                  f"directory", file=sys.stderr)
            return 2
        args.snapshot = snapshot
    if args.out is None:
        args.out = f"{os.path.splitext(args.snapshot)[0]}_{args.field}.png"
    try:
        f = h5py.File(args.snapshot, "r")
    except OSError as e:
        print(f"plot_slice: {args.snapshot}: {e}", file=sys.stderr)
        return 2
    with f:
        if args.field not in f or not isinstance(f[args.field], h5py.Dataset):
            fields = [k for k, v in f.items() if isinstance(v, h5py.Dataset) and v.ndim >= 2]
            print(f"plot_slice: {args.snapshot}: no field '{args.field}' (fields: "
                  f"{', '.join(fields) or 'none'})", file=sys.stderr)
            return 2
        data = np.asarray(f[args.field][...], dtype=float)
        dims = data.ndim
        if dims not in (2, 3):
            print(f"plot_slice: {args.field} has {dims} dimensions, expected 2 or 3",
                  file=sys.stderr)
            return 2
        origin = attribute(f, "origin", dims, 0.0)
        spacing = attribute(f, "spacing", dims, 1.0)
        time = float(np.atleast_1d(f.attrs.get("time", np.nan))[0])
        iteration = int(np.atleast_1d(f.attrs.get("iteration", -1))[0])

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
    fig.savefig(args.out)
    print(args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
