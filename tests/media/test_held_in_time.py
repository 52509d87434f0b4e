#!/usr/bin/env python3
"""Held values that depend on t (problem.fixed[i].value with t, equation heat) through the
fdsolve binary: explicit, backward Euler and Crank-Nicolson runs against SciPy's time
integration (solve_ivp, Radau) of the same semi-discrete system, the 5-point Laplacian with the
held rows prescribed as functions of t; the held nodes of every snapshot against the formula at
the snapshot's time; a steady case with t in a held value refused.

    test_held_in_time.py --fdsolve PATH --work DIR [--backend cpu|cuda] [--group NAME ...]

Groups: schemes (the three schemes, each at dt and dt/2), steady (the refusal). Exit 0 when
every check passes, 1 when one fails, 77 (skip) when NumPy, SciPy or h5py is missing or, with
--backend cuda, when fdsolve sees no device."""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True
sys.path.insert(0, HERE)
# test_media reports the skip (77) where NumPy, SciPy or h5py is missing.
import test_media as media  # noqa: E402  (run, snapshots, read_u, check, grid)
import h5py  # noqa: E402
import numpy as np  # noqa: E402
import scipy.integrate as integrate  # noqa: E402
import scipy.sparse as sparse  # noqa: E402

POINTS = [17, 17]  # unit square, h = 1/16, Dirichlet 0 on every face
K = 1.0            # the diffusivity
END = 0.3
TIMES = [0.1, 0.2, 0.3]  # snapshots (steps land on them); 0.1 is the ramp's kink
# Not at rest: the explicit run's divergence rule measures against the first step's update,
# which must not be zero.
INITIAL = ("sin(pi*x) * sin(pi*y)", lambda x, y: np.sin(np.pi * x) * np.sin(np.pi * y))
# Two regions: a disc whose value oscillates and varies in x, a block that ramps up to 1.
REGIONS = [
    ("(x-0.35)^2 + (y-0.5)^2 < 0.015", "(1 + x) * sin(2*pi*t)",
     lambda x, y: (x - 0.35) ** 2 + (y - 0.5) ** 2 < 0.015,
     lambda x, y, t: (1 + x) * np.sin(2 * np.pi * t)),
    ("x > 0.6 && x < 0.8 && y > 0.25 && y < 0.45", "min(t/0.1, 1)",
     lambda x, y: (x > 0.6) & (x < 0.8) & (y > 0.25) & (y < 0.45),
     lambda x, y, t: np.minimum(t / 0.1, 1.0) + 0 * x),
]


def neg_laplacian(shape, h):
    """k (-lap) of the 5-point stencil over every node, rows of the boundary nodes unused
    (their neighbours beyond the grid clamped: Dirichlet nodes are never updated)."""
    ny, nx = shape
    index = np.arange(nx * ny).reshape(shape)
    rows, cols, values = [index.ravel()], [index.ravel()], [np.full(index.size, 4.0 / h**2)]
    for dy, dx in ((0, 1), (0, -1), (1, 0), (-1, 0)):
        jy = np.clip(np.arange(ny) + dy, 0, ny - 1)
        ix = np.clip(np.arange(nx) + dx, 0, nx - 1)
        rows.append(index.ravel())
        cols.append(index[np.ix_(jy, ix)].ravel())
        values.append(np.full(index.size, -1.0 / h**2))
    n = index.size
    return K * sparse.csr_matrix((np.concatenate(values), (np.concatenate(rows),
                                                           np.concatenate(cols))), shape=(n, n))


def held_masks(x, y):
    """Each region's held nodes off the Dirichlet faces, the first region winning overlaps."""
    interior = np.zeros(x.shape, dtype=bool)
    interior[1:-1, 1:-1] = True
    taken = np.zeros(x.shape, dtype=bool)
    masks = []
    for _, _, where, _ in REGIONS:
        mine = where(x, y) & interior & ~taken
        taken |= mine
        masks.append(mine)
    return masks


def held_values(x, y, masks, t):
    g = np.zeros(x.shape)
    for mask, (_, _, _, value) in zip(masks, REGIONS):
        g[mask] = value(x, y, t)[mask]
    return g


def reference(x, y, masks, times):
    """u at `times` from the semi-discrete system du_f/dt = -(A u)_f on the free nodes, u =
    g(t) on the held nodes and 0 on the faces, by Radau at rtol 1e-11 (its error, about 1e-10,
    is far below the schemes' 1e-5 to 1e-3), in pieces between the snapshot times so that the
    ramp's kink at t = 0.1 is a piece's end."""
    a = neg_laplacian(x.shape, 1.0 / (POINTS[0] - 1))
    held = np.zeros(x.shape, dtype=bool)
    for mask in masks:
        held |= mask
    interior = np.zeros(x.shape, dtype=bool)
    interior[1:-1, 1:-1] = True
    free = (interior & ~held).ravel()
    a_ff = a[free][:, free].tocsc()
    a_fh = a[free][:, held.ravel()]

    def rhs(t, v):
        return -(a_ff @ v) - a_fh @ held_values(x, y, masks, t).ravel()[held.ravel()]

    out, v, t0 = [], INITIAL[1](x, y).ravel()[free], 0.0
    for t1 in times:
        s = integrate.solve_ivp(rhs, (t0, t1), v, method="Radau", jac=-a_ff, rtol=1e-11,
                                atol=1e-13)
        assert s.success, s.message
        v, t0 = s.y[:, -1], t1
        u = held_values(x, y, masks, t1)
        u.ravel()[free] = v
        out.append(u)
    return out


def case_of(name, scheme, dt):
    time = {"scheme": scheme, "dt": dt, "end": END}
    case = {"grid": {"points": POINTS, "extent": [1.0, 1.0]},
            "problem": {"equation": "heat", "diffusivity": K,
                        "fixed": [{"where": w, "value": v} for w, v, _, _ in REGIONS]},
            "boundary": {"default": {"type": "dirichlet", "value": 0}},
            "initial": INITIAL[0], "time": time, "output": {"times": TIMES}}
    if scheme != "explicit":
        case["solve"] = {"tolerance": 1e-13, "absolute_tolerance": 0}
    return case


def snapshot_states(directory, name):
    """(time, u) of each snapshot after t = 0."""
    states = []
    for _, path in media.snapshots(directory, name):
        with h5py.File(path, "r") as h5:
            attrs = h5["/u"].attrs if "time" in h5["/u"].attrs else h5.attrs
            t = float(attrs["time"])
        if t > 0:
            states.append((t, media.read_u(path)))
    return states


def group_schemes():
    x, y = media.grid(POINTS)
    masks = held_masks(x, y)
    assert all(m.any() for m in masks), "each region holds nodes"
    expected = reference(x, y, masks, TIMES)
    # (scheme, dt, order): dt below the explicit limit h^2 / 4k = 9.8e-4; the errors' ratio
    # between dt and dt/2 shows the order, 2^order, whatever the constant in front.
    schemes = [("explicit", 8e-4, 1), ("implicit", 5e-3, 1), ("crank-nicolson", 1e-2, 2)]
    for scheme, dt, order in schemes:
        def body(scheme=scheme, dt=dt, order=order):
            errors = []
            for step in (dt, dt / 2):
                name = f"{scheme}_{step:g}".replace(".", "p")
                _, _, directory = media.run("schemes", name, case_of(name, scheme, step))
                states = snapshot_states(directory, name)
                assert [round(t, 12) for t, _ in states] == TIMES, [t for t, _ in states]
                for t, u in states:
                    # The held nodes hold the formula at the snapshot's time, to rounding.
                    g = held_values(x, y, masks, t)
                    for r, mask in enumerate(masks):
                        miss = np.max(np.abs(u[mask] - g[mask]))
                        assert miss <= 1e-15 * max(1.0, np.max(np.abs(g[mask]))), (
                            f"region {r} at t = {t}: held nodes differ from the formula by "
                            f"{miss:.3e}")
                errors.append(max(np.max(np.abs(u - ref))
                                  for (_, u), ref in zip(states, expected)))
            ratio = errors[0] / errors[1]
            print(f"      {scheme}: max error {errors[0]:.3e} at dt {dt:g}, {errors[1]:.3e} at "
                  f"dt/2, ratio {ratio:.2f} (order {order}: {2 ** order})")
            # Order p: halving dt divides the error by 2^p, to within 15 % at these steps.
            assert abs(ratio / 2 ** order - 1) < 0.15, f"error ratio {ratio:.3f}"
            # The size, loosely: O(dt) with a constant of order the held data's second time
            # derivative (|g_tt| <= (2 pi)^2 x 2), O(dt^2) with its third; measured 40 to 160
            # times below, the ratio above is the sharp check.
            bound = 0.5 * (2 * np.pi) ** 2 * 2 * dt if order == 1 else (2 * np.pi) ** 3 * 2 * dt**2
            assert errors[0] < bound, f"error {errors[0]:.3e} above {bound:.3e}"
        media.check(f"schemes: {scheme} with time-dependent held values against SciPy's "
                    f"Radau integration, order {order}, held nodes exact", body)


def group_steady():
    def body():
        case = {"grid": {"points": POINTS, "extent": [1.0, 1.0]},
                "problem": {"equation": "poisson", "source": 1,
                            "fixed": [{"where": REGIONS[0][0], "value": "sin(t)"}]},
                "boundary": {"default": {"type": "dirichlet", "value": 0}}}
        _, log, _ = media.run("steady", "steady_t", case, expect=2)
        assert "problem.fixed[0].value" in log and "uses t" in log, log[-2000:]
    media.check("steady: a held value that uses t is refused, exit 2, naming the key", body)


GROUPS = {"schemes": group_schemes, "steady": group_steady}


def main():
    return media.backend_main(__doc__, GROUPS)


if __name__ == "__main__":
    sys.exit(main())
