#!/usr/bin/env python3
"""The comparison solvers of tools/compare/ on the CPU with NumPy (label tools): the DST direct
solve and CG against a dense direct solve of the same 5- and 7-point system, and the DST
solution's error against the exact solution falling 4x per halving of h (second order).
Exit 77 (skip) when NumPy is missing."""

import os
import sys

try:
    import numpy as np
except ImportError:
    print(f"SKIP: {sys.executable} has no numpy (Debian: python3-numpy)")
    sys.exit(77)

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(HERE, "..", "..", "tools", "compare"))
import cg_poisson  # noqa: E402
import dst_poisson  # noqa: E402
import poisson_problem as problem  # noqa: E402


def dense_matrix(m, dims, h):
    """The matrix of apply_laplacian on m^dims interior nodes, column by column."""
    size = m**dims
    a = np.zeros((size, size))
    for j in range(size):
        e = np.zeros(size)
        e[j] = 1.0
        a[:, j] = problem.apply_laplacian(np, e.reshape((m,) * dims), h).ravel()
    return a


def check_against_dense(n, dims):
    h = 1.0 / (n - 1)
    f = problem.source(np, n, dims, np.float64)
    a = dense_matrix(n - 2, dims, h)
    assert np.allclose(a, a.T), "the operator is symmetric"
    reference = np.linalg.solve(a, f.ravel()).reshape(f.shape)
    scale = np.max(np.abs(reference))
    dst = dst_poisson.dst_solve(np, f, h)
    assert dst.shape == f.shape and dst.dtype == np.float64
    dst_error = np.max(np.abs(dst - reference)) / scale
    assert dst_error < 1e-12, f"DST vs dense, n={n} {dims}D: {dst_error:.3e}"
    cg, iterations = cg_poisson.cg_solve(np, f, h, 1e-12, 10000)
    cg_error = np.max(np.abs(cg - reference)) / scale
    assert cg_error < 1e-9, f"CG vs dense, n={n} {dims}D: {cg_error:.3e}"
    assert 0 < iterations <= (n - 2) ** dims
    print(f"n={n} {dims}D: DST {dst_error:.1e}, CG {cg_error:.1e} in {iterations} iterations")


def check_dst1():
    """dst1 against its definition, along each axis of a non-square array."""
    rng = np.random.default_rng(1)
    v = rng.standard_normal((4, 6))
    for axis, m in ((0, 4), (1, 6)):
        j = np.arange(1, m + 1)
        s = np.sin(np.pi * np.outer(j, j) / (m + 1))
        expected = np.moveaxis(np.tensordot(s, np.moveaxis(v, axis, 0), axes=(1, 0)), 0, axis)
        assert np.allclose(dst_poisson.dst1(np, v, axis), expected, atol=1e-12)


def check_second_order(dims, sizes):
    errors = []
    for n in sizes:
        f = problem.source(np, n, dims, np.float64)
        u = dst_poisson.dst_solve(np, f, 1.0 / (n - 1))
        errors.append(problem.max_error(np, u, n, dims))
    for coarse, fine in zip(errors, errors[1:]):
        ratio = coarse / fine
        assert 3.5 < ratio < 4.5, f"{dims}D errors {errors}: ratio {ratio:.2f}, expected about 4"
    print(f"{dims}D errors {', '.join(f'{e:.3e}' for e in errors)}: second order")


def main():
    check_dst1()
    check_against_dense(9, 2)
    check_against_dense(12, 2)  # an even node count: nothing assumes 2^k + 1
    check_against_dense(7, 3)
    check_second_order(2, (17, 33, 65))
    check_second_order(3, (9, 17, 33))
    # The 2D source is the expression of examples/poisson_multigrid.yaml at one node.
    x, y = 0.25, 0.5
    f = problem.source(np, 5, 2, np.float64)[1, 0]  # [y, x]: y = 0.5, x = 0.25
    pi = np.pi
    expected = np.exp(x + y) * (2 * (pi**2 - 1) * np.sin(pi * x) * np.sin(pi * y)
                                - 2 * pi * (np.cos(pi * x) * np.sin(pi * y)
                                            + np.sin(pi * x) * np.cos(pi * y)))
    assert abs(f - expected) < 1e-12 * abs(expected), (f, expected)
    print("ok")


if __name__ == "__main__":
    main()
