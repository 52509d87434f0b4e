#!/usr/bin/env python3
"""Direct solve of the comparison Poisson problem (poisson_problem.py) by the discrete sine
transform: the 5-point (2D) or 7-point (3D) operator with zero Dirichlet values is diagonal in
the basis sin(pi j k / (m + 1)), so u = DST^-1(DST(f) / lambda), each DST-I computed by a real FFT
of the odd extension along each axis. The answer is the exact discrete solution, the same one
fdsolve's multigrid converges to, so the error printed is the discretisation error.

    python3 tools/compare/dst_poisson.py --n 1025 --dims 2          # CuPy, on the GPU
    python3 tools/compare/dst_poisson.py --n 129 --dims 3 --xp numpy

Prints the grid, the solve time (the transforms and the division, the right-hand side already
on the device; the best of --repeat timed runs after one untimed run that builds the FFT plans)
and the largest error against the exact solution.
"""

import argparse
import math
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import poisson_problem as problem  # noqa: E402


def dst1(xp, v, axis):
    """The DST-I along `axis`: X_k = sum_j v_j sin(pi j k / (m + 1)), j, k = 1..m. The odd
    extension [0, v, 0, -reversed v] of length 2 (m + 1) has the DFT -2i X."""
    v = xp.moveaxis(v, axis, -1)
    m = v.shape[-1]
    zero = xp.zeros(v.shape[:-1] + (1,), dtype=v.dtype)
    extended = xp.concatenate([zero, v, zero, -v[..., ::-1]], axis=-1)
    spectrum = xp.fft.rfft(extended, axis=-1)
    x = (-0.5 * spectrum.imag[..., 1 : m + 1]).astype(v.dtype)
    return xp.moveaxis(x, -1, axis)


def eigenvalues(xp, m, dims, h, dtype):
    """The eigenvalues of -lap_h on the m^dims interior nodes, broadcast to their shape:
    sum over axes of 4 sin^2(pi k / (2 (m + 1))) / h^2."""
    k = xp.arange(1, m + 1, dtype=dtype)
    one_axis = (4.0 / (h * h)) * xp.sin(math.pi * k / (2 * (m + 1))) ** 2
    total = 0
    for axis in range(dims):
        shape = [1] * dims
        shape[axis] = m
        total = total + one_axis.reshape(shape)
    return total


def dst_solve(xp, f, h):
    """u with A u = f, A = -lap_h (5 or 7 points, zero Dirichlet values), f on the interior."""
    m = f.shape[0]
    g = f
    for axis in range(f.ndim):
        g = dst1(xp, g, axis)
    g = g / eigenvalues(xp, m, f.ndim, h, f.dtype)
    for axis in range(f.ndim):
        g = dst1(xp, g, axis)
    return g * ((2.0 / (m + 1)) ** f.ndim)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=1025, help="nodes per axis (default 1025)")
    parser.add_argument("--dims", type=int, choices=(2, 3), default=2)
    parser.add_argument("--precision", choices=("float", "double"), default="double")
    parser.add_argument("--xp", choices=("cupy", "numpy"), default="cupy",
                        help="array module (default cupy)")
    parser.add_argument("--repeat", type=int, default=5, help="timed runs (default 5)")
    args = parser.parse_args()
    if args.n < 3:
        parser.error("--n must be at least 3")

    xp = problem.array_module(args.xp)
    dtype = xp.float32 if args.precision == "float" else xp.float64
    h = 1.0 / (args.n - 1)
    f = problem.source(xp, args.n, args.dims, dtype)
    u = dst_solve(xp, f, h)  # builds the FFT plans
    problem.synchronize(xp)
    times = []
    for _ in range(max(1, args.repeat)):
        start = time.perf_counter()
        u = dst_solve(xp, f, h)
        problem.synchronize(xp)
        times.append(time.perf_counter() - start)
    residual = f - problem.apply_laplacian(xp, u, h)
    relative = float(xp.linalg.norm(residual.ravel()) / xp.linalg.norm(f.ravel()))
    device = "cpu" if args.xp == "numpy" else xp.cuda.runtime.getDeviceProperties(0)["name"].decode()
    print(f"grid: {args.n}^{args.dims} ({args.precision}, {args.xp} on {device})")
    print(f"method: DST-I direct solve ({'5' if args.dims == 2 else '7'}-point operator)")
    print(f"solve time: {min(times):.6f} s (best of {len(times)}; median "
          f"{sorted(times)[len(times) // 2]:.6f} s)")
    print(f"relative residual: {relative:.3e}")
    print(f"max error vs exact solution: {problem.max_error(xp, u, args.n, args.dims):.6e}")


if __name__ == "__main__":
    main()
