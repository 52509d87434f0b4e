#!/usr/bin/env python3
"""Weighted-Jacobi against Chebyshev smoothing in a V-cycle, on a NumPy model of fdsolve's 2D
cycle (5-point Poisson, zero Dirichlet faces, full-weighting restriction, bilinear
prolongation, the coarsest grid's one node solved exactly): the asymptotic residual factor
per cycle from a random error, and its logarithm per work unit.

A V(m,m) cycle costs about 2m * 4/3 + 1.5 fine sweeps (m sweeps before and after the
correction on every level, a quarter of the nodes per level; the residual and transfers about
1.5); `--sweep-cost` scales the smoothing part (0.72: the two-sweep pass of the GPU's march2
kernel, 1.44 sweeps for two). Chebyshev of degree m on [lo, 2] (the eigenvalues of D^-1 A that
smoothing must damp) takes the weights 1 / root_k of the scaled Chebyshev polynomial, best lo
of 0.2-0.5 shown. Usage: tools/smoother_model.py [N] [--sweep-cost C]
"""
import argparse

import numpy as np


def apply_a(u, h):
    r = np.zeros_like(u)
    r[1:-1, 1:-1] = (4 * u[1:-1, 1:-1] - u[:-2, 1:-1] - u[2:, 1:-1] - u[1:-1, :-2]
                     - u[1:-1, 2:]) / h**2
    return r


def smooth(u, f, h, omegas):
    for w in omegas:
        r = f - apply_a(u, h)
        u = u.copy()
        u[1:-1, 1:-1] += w * h**2 / 4 * r[1:-1, 1:-1]
    return u


def restrict(r):
    n = (r.shape[0] - 1) // 2
    c = np.zeros((n + 1, n + 1))
    mid, lo, hi = slice(2, -2, 2), slice(1, -3, 2), slice(3, -1, 2)
    c[1:-1, 1:-1] = (4 * r[mid, mid] + 2 * (r[lo, mid] + r[hi, mid] + r[mid, lo] + r[mid, hi])
                     + r[lo, lo] + r[hi, lo] + r[lo, hi] + r[hi, hi]) / 16
    return c


def prolong(c):
    n = (c.shape[0] - 1) * 2
    f = np.zeros((n + 1, n + 1))
    f[::2, ::2] = c
    f[1::2, ::2] = (c[:-1, :] + c[1:, :]) / 2
    f[:, 1::2] = (f[:, :-1:2] + f[:, 2::2]) / 2
    return f


def vcycle(u, f, h, pre, post):
    if u.shape[0] <= 3:
        u = u.copy()
        u[1, 1] = f[1, 1] * h**2 / 4
        return u
    u = smooth(u, f, h, pre)
    coarse = np.zeros(((u.shape[0] - 1) // 2 + 1,) * 2)
    u = u + prolong(vcycle(coarse, restrict(f - apply_a(u, h)), 2 * h, pre, post))
    return smooth(u, f, h, post)


def chebyshev(m, lo, hi=2.0):
    k = np.arange(1, m + 1)
    roots = (hi + lo) / 2 + (hi - lo) / 2 * np.cos((2 * k - 1) * np.pi / (2 * m))
    return list(1 / roots)


def factor(n, weights, cycles=12, seed=1):
    """Geometric mean of the residual factor over the last six of `cycles` V-cycles."""
    h = 1 / (n - 1)
    u = np.zeros((n, n))
    u[1:-1, 1:-1] = np.random.default_rng(seed).uniform(-1, 1, (n - 2, n - 2))
    f = np.zeros((n, n))
    norms = []
    for _ in range(cycles):
        u = vcycle(u, f, h, weights, weights)
        norms.append(np.linalg.norm(apply_a(u, h)))
    return (norms[-1] / norms[-7]) ** (1 / 6)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("n", nargs="?", type=int, default=257, help="nodes per axis, 2^k + 1")
    p.add_argument("--sweep-cost", type=float, default=1.0)
    a = p.parse_args()
    print(f"{a.n}^2, a smoothing sweep costs {a.sweep_cost} work units")
    print("cycle   jacobi 0.8: factor, ln/WU   chebyshev: factor, ln/WU, lo")
    for m in (1, 2, 3, 4):
        wu = 2 * m * 4 / 3 * a.sweep_cost + 1.5
        jac = factor(a.n, [0.8] * m)
        cheb, lo = min((factor(a.n, chebyshev(m, lo)), lo) for lo in (0.2, 0.3, 0.4, 0.5))
        print(f"V({m},{m})  {jac:.4f}  {np.log(jac) / wu:+.3f}          "
              f"{cheb:.4f}  {np.log(cheb) / wu:+.3f}  {lo}")


if __name__ == "__main__":
    main()
