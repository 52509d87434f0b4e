#!/usr/bin/env python3
"""Max error of a heat_plate snapshot against the exact solution of its continuous problem.

heat_plate (examples/heat_plate.yaml): u_t = k u_xx on 0 <= x <= 1, u = 1 at x = 0 and 0 at
x = 1 from t = 0, u = 0 at t = 0, every other face insulated. The solution depends on x alone,
in 2D and 3D alike:

    u(x, t) = 1 - x - sum_n 2 / (n pi) sin(n pi x) exp(-n^2 pi^2 k t)

Prints max |u - exact| over every node of /u at the snapshot's time (its `time` attribute), the
measure docs/performance.md uses for the implicit schemes against the explicit one.

    tools/heat_plate_error.py out/heat_plate/heat_plate_00000400.h5 [--k 1] [--terms 20000]
"""
import argparse
import sys

import h5py
import numpy as np


def exact(x, t, k, terms):
    u = 1.0 - x
    # Terms in blocks: 20000 x 1025 at once would hold 160 MB.
    for first in range(1, terms + 1, 1000):
        n = np.arange(first, min(first + 1000, terms + 1), dtype=np.float64)[:, None]
        u -= np.sum(2.0 / (n * np.pi) * np.sin(n * np.pi * x[None, :]) *
                    np.exp(-n * n * np.pi * np.pi * k * t), axis=0)
    return u


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("snapshot")
    parser.add_argument("--k", type=float, default=1.0, help="diffusivity (default 1)")
    parser.add_argument("--terms", type=int, default=20000, help="series terms (default 20000)")
    a = parser.parse_args()
    with h5py.File(a.snapshot, "r") as f:
        u = f["u"][...].astype(np.float64)
        t = float(np.asarray(f.attrs["time"]).ravel()[0])
        origin = np.asarray(f.attrs["origin"], dtype=np.float64).ravel()
        spacing = np.asarray(f.attrs["spacing"], dtype=np.float64).ravel()
    nx = u.shape[-1]  # x varies fastest: the last axis
    x = origin[0] + spacing[0] * np.arange(nx)
    if abs(x[-1] - 1.0) > 1e-12 or abs(x[0]) > 1e-12:
        sys.exit(f"{a.snapshot}: x runs from {x[0]} to {x[-1]}, not 0 to 1 (not heat_plate)")
    error = np.max(np.abs(u - exact(x, t, a.k, a.terms)))
    print(f"{error:.3e}")


if __name__ == "__main__":
    main()
