"""The comparison problem of docs/performance.md and examples/poisson_multigrid.yaml.

-lap u = f on the unit square (2D) or cube (3D), u = 0 on the boundary, with the exact solution
u = exp(x + y (+ z)) sin(pi x) sin(pi y) (sin(pi z)). The grid has n nodes per axis, boundary
included (spacing h = 1 / (n - 1)); the unknowns are the (n - 2)^d interior nodes, in C order
with x fastest (array index [y, x] or [z, y, x]), as fdsolve stores them.

Every function takes the array module `xp` (numpy or cupy), so the same code runs on the CPU
and on a GPU.
"""

import math


def array_module(name):
    """numpy or cupy by name ('numpy', 'cupy')."""
    if name == "cupy":
        import cupy

        return cupy
    if name == "numpy":
        import numpy

        return numpy
    raise ValueError(f"unknown array module {name!r} (numpy or cupy)")


def coordinates(xp, n, dims, dtype):
    """The interior node coordinates as broadcastable arrays, slowest axis first: (y, x) or
    (z, y, x)."""
    h = 1.0 / (n - 1)
    t = (xp.arange(1, n - 1) * h).astype(dtype)
    shape = [1] * dims
    axes = []
    for axis in range(dims):  # axis 0 is x, the fastest (last) array axis
        s = list(shape)
        s[dims - 1 - axis] = n - 2
        axes.append(t.reshape(s))
    return axes  # [x, y(, z)]


def exact_solution(xp, n, dims, dtype):
    x = coordinates(xp, n, dims, dtype)
    u = xp.exp(sum(x))
    for c in x:
        u = u * xp.sin(math.pi * c)
    return u


def source(xp, n, dims, dtype):
    """f = -lap u for the exact solution:
    exp(s) (d (pi^2 - 1) prod sin(pi x_a) - 2 pi sum_a cos(pi x_a) prod_{b != a} sin(pi x_b)),
    s = the sum of the coordinates; for d = 2 the expression of examples/poisson_multigrid.yaml."""
    x = coordinates(xp, n, dims, dtype)
    sines = [xp.sin(math.pi * c) for c in x]
    cosines = [xp.cos(math.pi * c) for c in x]
    product = sines[0]
    for s in sines[1:]:
        product = product * s
    cross = 0
    for a in range(dims):
        term = cosines[a]
        for b in range(dims):
            if b != a:
                term = term * sines[b]
        cross = cross + term
    return xp.exp(sum(x)) * (dims * (math.pi**2 - 1) * product - 2 * math.pi * cross)


def apply_laplacian(xp, u, h):
    """A u = -lap_h u, the 5-point (2D) or 7-point (3D) stencil, on interior values u with zero
    Dirichlet values beyond them."""
    p = xp.pad(u, 1)
    out = 2 * u.ndim * u
    for axis in range(u.ndim):
        lo = [slice(1, -1)] * u.ndim
        hi = [slice(1, -1)] * u.ndim
        lo[axis] = slice(0, -2)
        hi[axis] = slice(2, None)
        out = out - p[tuple(lo)] - p[tuple(hi)]
    return out / (h * h)


def max_error(xp, u, n, dims):
    """max |u - u_exact| over the interior nodes, as a Python float."""
    return float(xp.max(xp.abs(u - exact_solution(xp, n, dims, u.dtype))))


def synchronize(xp):
    """Waits for the GPU (cupy); nothing for numpy."""
    if xp.__name__ == "cupy":
        xp.cuda.Stream.null.synchronize()
