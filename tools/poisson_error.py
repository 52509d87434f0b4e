#!/usr/bin/env python3
"""Error of a snapshot of examples/poisson_multigrid.yaml against its exact solution.

The problem (tools/compare/poisson_problem.py): -lap u = f on the unit square or cube with
u = exp(x + y (+ z)) sin(pi x) sin(pi y) (sin(pi z)), zero on the boundary. Prints the root
mean square over the interior nodes (the nodes a sweep updates, as fdsolve's l2 norm) and the
maximum of u - exact, the measures docs/performance.md and docs/numerics.md compare with
solve.tolerance: discretization's estimate.

    tools/poisson_error.py out/poisson_multigrid/poisson_multigrid_00000008.h5
"""
import argparse

import h5py
import numpy as np


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("snapshot")
    a = parser.parse_args()
    with h5py.File(a.snapshot, "r") as f:
        u = f["u"][...].astype(np.float64)
    inner = u[(slice(1, -1),) * u.ndim]
    axes = []
    for axis in range(u.ndim):  # axis 0 is x, the last array axis
        n = u.shape[u.ndim - 1 - axis]
        shape = [1] * u.ndim
        shape[u.ndim - 1 - axis] = n - 2
        axes.append((np.arange(1, n - 1) / (n - 1)).reshape(shape))
    exact = np.exp(sum(axes))
    for x in axes:
        exact = exact * np.sin(np.pi * x)
    d = inner - exact
    print(f"rms {np.sqrt(np.mean(d * d)):.4e}  max {np.max(np.abs(d)):.4e}")


if __name__ == "__main__":
    main()
