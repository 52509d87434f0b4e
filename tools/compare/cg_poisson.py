#!/usr/bin/env python3
"""Conjugate gradients on the comparison Poisson problem (poisson_problem.py): the 5-point (2D)
or 7-point (3D) operator applied matrix-free with array slices, no preconditioner, from u = 0
until the residual's 2-norm is at most --rtol times the initial one (the right-hand side's),
as fdsolve's multigrid stops at solve.tolerance times its initial residual.

    python3 tools/compare/cg_poisson.py --n 1025 --dims 2            # CuPy, on the GPU
    python3 tools/compare/cg_poisson.py --n 65 --dims 3 --xp numpy

Prints the grid, the iterations, the solve time (the right-hand side already on the device,
after 10 untimed iterations that load the kernels) and the largest error against the exact
solution.
"""

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import poisson_problem as problem  # noqa: E402


def cg_solve(xp, f, h, rtol, max_iterations):
    """u with A u = f to a relative residual rtol by unpreconditioned CG, and the iterations.
    The stopping test reads one scalar back per iteration."""
    u = xp.zeros_like(f)
    r = f.copy()
    p = r.copy()
    rr = xp.vdot(r.ravel(), r.ravel())
    target = rtol * rtol * float(rr)
    iterations = 0
    while iterations < max_iterations and float(rr) > target:
        q = problem.apply_laplacian(xp, p, h)
        alpha = rr / xp.vdot(p.ravel(), q.ravel())
        u += alpha * p
        r -= alpha * q
        rr_next = xp.vdot(r.ravel(), r.ravel())
        p = r + (rr_next / rr) * p
        rr = rr_next
        iterations += 1
    return u, iterations


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=1025, help="nodes per axis (default 1025)")
    parser.add_argument("--dims", type=int, choices=(2, 3), default=2)
    parser.add_argument("--precision", choices=("float", "double"), default="double")
    parser.add_argument("--xp", choices=("cupy", "numpy"), default="cupy",
                        help="array module (default cupy)")
    parser.add_argument("--rtol", type=float, default=1e-8,
                        help="relative residual to stop at (default 1e-8)")
    parser.add_argument("--max-iterations", type=int, default=1000000)
    args = parser.parse_args()
    if args.n < 3:
        parser.error("--n must be at least 3")

    xp = problem.array_module(args.xp)
    dtype = xp.float32 if args.precision == "float" else xp.float64
    h = 1.0 / (args.n - 1)
    f = problem.source(xp, args.n, args.dims, dtype)
    cg_solve(xp, f, h, 0.0, 10)  # warm-up: loads the kernels
    problem.synchronize(xp)
    start = time.perf_counter()
    u, iterations = cg_solve(xp, f, h, args.rtol, args.max_iterations)
    problem.synchronize(xp)
    seconds = time.perf_counter() - start
    residual = f - problem.apply_laplacian(xp, u, h)
    relative = float(xp.linalg.norm(residual.ravel()) / xp.linalg.norm(f.ravel()))
    device = "cpu" if args.xp == "numpy" else xp.cuda.runtime.getDeviceProperties(0)["name"].decode()
    print(f"grid: {args.n}^{args.dims} ({args.precision}, {args.xp} on {device})")
    print(f"method: conjugate gradients, no preconditioner, rtol {args.rtol:g}")
    print(f"iterations: {iterations}")
    print(f"solve time: {seconds:.6f} s")
    print(f"relative residual: {relative:.3e}")
    print(f"max error vs exact solution: {problem.max_error(xp, u, args.n, args.dims):.6e}")


if __name__ == "__main__":
    main()
