#!/usr/bin/env python3
"""Heat's capacity (problem.capacity: c of c u_t = div(k grad u) + q) through the fdsolve binary,
against references computed here: the same run with c and k halved (the equation divided by a
number), SciPy's exact time integration (expm_multiply) of the semi-discrete system assembled
from the documented scheme, the trapezoid rule of the source for history.csv's integral of c u,
the capacity formula at the nodes for the capacity output field, and the run without the key.

    test_capacity.py --fdsolve PATH --work DIR [--backend cpu|cuda] [--group NAME ...]

Groups: scaled (c = 2, k = 2, q = 2 f against c = 1, k = 1, q = f, explicit, backward Euler and
Crank-Nicolson, the constant stencil and the flux form), layered (two layers of capacity and
diffusivity against expm_multiply: explicit at small dt, backward Euler and Crank-Nicolson at
their observed orders), conservation (an insulated box with a source and a varying capacity: the
integral of c u rises by dt x the integral of q every step), unit (capacity: 1 against no key,
bit for bit), field (the capacity output field), parity (CPU against CUDA, --backend cuda only).
Exit 0 when every check passes, 1 when one fails, 77 (skip) when NumPy, SciPy or h5py is
missing or, with --backend cuda, when fdsolve sees no device."""

import csv
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True
sys.path.insert(0, HERE)
# test_media reports the skip (77) where NumPy, SciPy or h5py is missing.
import test_media as media  # noqa: E402  (run, snapshots, read_u, check, weights)
import h5py  # noqa: E402
import numpy as np  # noqa: E402
import scipy.sparse as sparse  # noqa: E402
import scipy.sparse.linalg as splinalg  # noqa: E402

POINTS = [33, 9]
EXTENT = [1.0, 0.25]   # h = 1/32 on both axes
SCHEMES = ["explicit", "implicit", "crank-nicolson"]
HELD = [{"where": "(x-0.5)^2 + (y-0.125)^2 < 0.004", "value": 0.25}]  # runs the flux form


def history(directory):
    with open(os.path.join(directory, "out", "history.csv")) as f:
        return [{k: float(v) for k, v in row.items() if v != ""} for row in csv.DictReader(f)]


def last_u(directory, name):
    return media.read_u(media.snapshots(directory, name)[-1][1])


def nodes():
    h = [e / (n - 1) for n, e in zip(POINTS, EXTENT)]
    axes = [np.arange(n) * step for n, step in zip(POINTS, h)]
    y, x = np.meshgrid(axes[1], axes[0], indexing="ij")
    return x, y, h


def heat(scheme, dt, steps, problem, boundary=None, initial="sin(pi*x) * (1 + y)", **extra):
    case = {"grid": {"points": POINTS, "extent": EXTENT},
            "problem": dict(equation="heat", **problem),
            "boundary": boundary or {"default": {"type": "dirichlet", "value": 0},
                                     "y_min": {"type": "neumann"}, "y_max": {"type": "neumann"}},
            "initial": initial,
            "time": {"scheme": scheme, "dt": dt, "end": steps * dt},
            "output": {"every": 0}}
    if scheme != "explicit":  # the implicit steps' solves converged to their rounding floor
        case["solve"] = {"tolerance": 1e-15, "absolute_tolerance": 0}
    if scheme == "crank-nicolson":
        case["time"]["startup_steps"] = 0
    case.update(extra)
    return case


# Explicit steps below the limit of the largest k / c (1 here) on h = 1/32: h^2 / 4 = 2.4e-4.
EXPLICIT_DT = 1e-4


def scheme_dt(scheme):
    return EXPLICIT_DT if scheme == "explicit" else 8 * EXPLICIT_DT


# ---------------------------------------------------------------------------------------------
# scaled: c u_t = k lap u + q with c, k and q doubled is the same equation


def group_scaled():
    variants = [
        # (label, the doubled problem, the plain one, extra keys of both)
        ("numbers, constant stencil",
         {"capacity": 2, "diffusivity": 2, "source": "2*(1 + x*y)"},
         {"diffusivity": 1, "source": "1 + x*y"}),
        ("numbers, flux form (held nodes)",
         {"capacity": 2, "diffusivity": 2, "source": "2*(1 + x*y)", "fixed": HELD},
         {"diffusivity": 1, "source": "1 + x*y", "fixed": HELD}),
        ("capacity number, diffusivity field",
         {"capacity": 2, "diffusivity": "2*(1 + 0.5*x)", "source": "2*(1 + x*y)"},
         {"diffusivity": "1 + 0.5*x", "source": "1 + x*y"}),
        ("capacity field 2 (1 + x) against 1 + x",
         {"capacity": "2*(1 + x)", "diffusivity": 2, "source": "2*(1 + x*y)"},
         {"capacity": "1 + x", "diffusivity": 1, "source": "1 + x*y"}),
        ("capacity equal at every node as an expression",
         {"capacity": "2 + 0*x", "diffusivity": 2, "source": "2*(1 + x*y)", "fixed": HELD},
         {"diffusivity": 1, "source": "1 + x*y", "fixed": HELD}),
    ]
    for scheme in SCHEMES:
        for label, doubled, plain in variants:
            def body(scheme=scheme, label=label, doubled=doubled, plain=plain):
                dt = scheme_dt(scheme)
                tag = f"{scheme}_{label.split(',')[0].replace(' ', '_')}_{len(doubled)}"
                _, _, d2 = media.run("scaled", f"doubled_{tag}", heat(scheme, dt, 20, doubled))
                _, _, d1 = media.run("scaled", f"plain_{tag}", heat(scheme, dt, 20, plain))
                u2, u1 = last_u(d2, f"doubled_{tag}"), last_u(d1, f"plain_{tag}")
                # Without the capacity the doubled case runs u_t = 2 lap u + 2 q: a change of
                # order one in 20 steps, far above this bound.
                diff = float(np.max(np.abs(u2 - u1)) / np.max(np.abs(u1)))
                bound = 1e-14 if scheme == "explicit" else 1e-11
                assert diff <= bound, f"relative difference {diff:.3e} > {bound:g}"
                print(f"      {scheme}, {label}: relative difference {diff:.2e}")
            media.check(f"scaled: {scheme}, {label}: c = 2, k = 2, q = 2 f equals c = 1, k = 1, "
                        f"q = f", body)


# ---------------------------------------------------------------------------------------------
# layered: two layers against the exact integration of the semi-discrete system

LAYER_X = 0.51  # between nodes 16 (x = 0.5) and 17 (x = 0.53125)
CAPACITY = ("x < 0.51 ? 1 : 4", lambda x: np.where(x < LAYER_X, 1.0, 4.0))
DIFFUSIVITY = ("x < 0.51 ? 1 : 0.5", lambda x: np.where(x < LAYER_X, 1.0, 0.5))
SOURCE = ("1 + x*y", lambda x, y: 1 + x * y)


def semi_discrete(x, y, h):
    """du/dt = M u + b on the free nodes (x faces Dirichlet 0, y faces Neumann 0 by mirrored
    ghosts), M = -C^-1 A, b = C^-1 q: A the flux form with harmonic-mean faces
    (docs/numerics.md), C the capacity at the nodes. Returns (M, b, free mask)."""
    ny, nx = x.shape
    k = DIFFUSIVITY[1](x)
    c = CAPACITY[1](x)
    free = np.ones_like(x, dtype=bool)
    free[:, 0] = free[:, -1] = False
    index = -np.ones(x.shape, dtype=int)
    index[free] = np.arange(int(free.sum()))
    rows, cols, data = [], [], []
    for j in range(ny):
        for i in range(nx):
            if not free[j, i]:
                continue
            r = index[j, i]
            diag = 0.0
            for (dj, di, hh) in ((0, -1, h[0]), (0, 1, h[0]), (-1, 0, h[1]), (1, 0, h[1])):
                jj, ii = j + dj, i + di
                if jj < 0 or jj >= ny:
                    jj = j - dj  # the mirrored ghost: its value and its coefficient
                kf = 2 * k[j, i] * k[jj, ii] / (k[j, i] + k[jj, ii])
                coupling = kf / hh ** 2
                diag += coupling
                if free[jj, ii]:
                    rows.append(r), cols.append(index[jj, ii]), data.append(-coupling)
            rows.append(r), cols.append(r), data.append(diag)
    n = int(free.sum())
    A = sparse.csr_matrix((data, (rows, cols)), shape=(n, n))
    inverse_c = sparse.diags(1.0 / c[free])
    return -(inverse_c @ A), (SOURCE[1](x, y) / c)[free], free


def exact(u0, times):
    """u at `times` by expm_multiply of the system augmented with the constant source."""
    x, y, h = nodes()
    M, b, free = semi_discrete(x, y, h)
    n = M.shape[0]
    augmented = sparse.bmat([[M, b.reshape(-1, 1)], [None, sparse.csr_matrix((1, 1))]]).tocsc()
    start = np.concatenate([u0[free], [1.0]])
    out = []
    for t in times:
        v = splinalg.expm_multiply(augmented * t, start)
        u = np.zeros_like(u0)
        u[free] = v[:n]
        out.append(u)
    return out


def layered_case(scheme, dt, end):
    case = heat(scheme, dt, 1, {"capacity": CAPACITY[0], "diffusivity": DIFFUSIVITY[0],
                                "source": SOURCE[0]})
    case["time"]["end"] = end
    return case


def group_layered():
    x, y, _ = nodes()
    u0 = np.sin(np.pi * x) * (1 + y)
    u0[:, 0] = u0[:, -1] = 0.0
    end = 0.02
    reference = exact(u0, [end])[0]
    # (scheme, dt, order): explicit below the limit min c_i / D_i = h^2 / 4 (2.4e-4).
    schemes = [("explicit", 1e-4, 1), ("implicit", 1e-3, 1), ("crank-nicolson", 1e-3, 2)]
    for scheme, dt, order in schemes:
        def body(scheme=scheme, dt=dt, order=order):
            errors = []
            for step in (dt, dt / 2):
                name = f"{scheme}_{step:g}".replace(".", "p").replace("-", "m")
                _, _, directory = media.run("layered", name, layered_case(scheme, step, end))
                u = last_u(directory, name)
                errors.append(float(np.max(np.abs(u - reference))))
            ratio = errors[0] / errors[1]
            print(f"      {scheme}: max error {errors[0]:.3e} at dt {dt:g}, {errors[1]:.3e} at "
                  f"dt/2, ratio {ratio:.2f} (order {order}: {2 ** order})")
            # The time discretization's order: halving dt divides the error by 2^order.
            assert abs(ratio / 2 ** order - 1) < 0.15, f"error ratio {ratio:.3f}"
            # And its size: the error of first order is a small part of the change over the run.
            change = float(np.max(np.abs(reference - u0)))
            assert errors[0] < 0.05 * change, f"error {errors[0]:.3e}, change {change:.3e}"
        media.check(f"layered: {scheme}, two capacities and diffusivities against expm_multiply "
                    f"of the semi-discrete system, order {order}", body)


# ---------------------------------------------------------------------------------------------
# conservation: the integral of c u rises by dt x the integral of q


def group_conservation():
    x, y, h = nodes()
    weights = media.weights(x.shape)
    volume = float(np.prod(h))
    q_integral = float(np.sum(weights * (1 + x * y)) * volume)
    capacity = ("1 + 0.5*sin(3*x)*(1 + y)", lambda x, y: 1 + 0.5 * np.sin(3 * x) * (1 + y))
    insulated = {"default": {"type": "neumann"}}
    variants = [("capacity field", capacity[0], capacity[1]),
                ("capacity 2.5", 2.5, lambda x, y: 2.5 + 0 * x)]
    for scheme in SCHEMES:
        for label, value, fn in variants:
            def body(scheme=scheme, label=label, value=value, fn=fn):
                dt = scheme_dt(scheme)
                name = f"{scheme}_{label.replace(' ', '_').replace('.', 'p')}"
                problem = {"capacity": value, "diffusivity": "1 + 0.3*x*y", "source": "1 + x*y"}
                # From rest, as test_balance.py: the rise is then not a small difference of a
                # large heat content. Were the integral that of u, it would rise by
                # dt x the integral of q / c instead.
                case = heat(scheme, dt, 10, problem, boundary=insulated, initial=0)
                case.setdefault("solve", {})["check_every"] = 1
                _, _, directory = media.run("conservation", name, case)
                rows = history(directory)
                assert len(rows) == 10, f"{len(rows)} rows"
                # From u0 = x, the first row holds the heat content at t = 0, the trapezoid
                # rule of c u0, plus the first step's dt x integral of q.
                start = dict(case, initial="x")
                _, _, warm = media.run("conservation", name + "_from_x", start)
                first = history(warm)[0]
                content = float(np.sum(weights * fn(x, y) * x) * volume)
                expected = content + first["time"] * q_integral
                miss = abs(first["integral"] - expected) / abs(expected)
                assert miss < 1e-12, f"first integral {first['integral']!r}, {expected!r}"
                before = {"time": 0.0, "integral": 0.0}
                worst = 0.0
                for row in rows:
                    rise = row["integral"] - before["integral"]
                    expected = (row["time"] - before["time"]) * q_integral
                    error = abs(rise - expected) / abs(expected)
                    worst = max(worst, error)
                    assert error < 1e-12, (f"iteration {row['iteration']:.0f}: the integral rose "
                                           f"{rise!r}, dt x integral of q = {expected!r}")
                    before = row
                print(f"      {scheme}, {label}: largest relative error of a step's rise "
                      f"{worst:.2e}")
            media.check(f"conservation: {scheme}, {label}: the integral of c u rises by dt x "
                        f"the integral of q every step", body)


# ---------------------------------------------------------------------------------------------
# cycles: the implicit step's multigrid with a capacity that varies


def group_cycles():
    # 33^2 nests (Galerkin coarse operators, R C P); 30^2 does not (averaged faces
    # and the capacity of the fine node under each coarse one). Stationary cycles alone, so
    # that a coarse level without the capacity shows: the step then stalls far from converged.
    for n in (33, 30):
        def body(n=n):
            counts = {}
            for label, capacity in (("number", 2.5), ("field", "x < 0.51 ? 1 : 40")):
                case = {"grid": {"points": [n, n], "extent": [1.0, 1.0]},
                        "problem": {"equation": "heat", "diffusivity": "y < 0.49 ? 1 : 0.1",
                                    "capacity": capacity, "source": "1 + x*y"},
                        "boundary": {"default": {"type": "neumann"},
                                     "x_min": {"type": "dirichlet", "value": 0}},
                        "initial": "sin(pi*x)",
                        "time": {"scheme": "implicit", "dt": 0.01, "end": 0.05},
                        "solve": {"tolerance": 1e-10, "krylov": "none"},
                        "output": {"every": 0}}
                name = f"{label}_{n}"
                _, _, directory = media.run("cycles", name, case)
                rows = history(directory)
                assert len(rows) == 5, f"{len(rows)} rows"
                for row in rows:  # every step converged: its residual 1e-10 of its start
                    assert row["norm_l2"] < 1e-9, f"{label}: step residual {row['norm_l2']:.3e}"
                counts[label] = [int(row["cycles"]) for row in rows]
            worst = max(counts["field"]), max(counts["number"])
            print(f"      {n}^2: cycles per step {counts['field']} with c 1 | 40, "
                  f"{counts['number']} with c = 2.5")
            assert worst[0] <= 1.5 * worst[1] + 2, f"cycles {counts}"
        media.check(f"cycles: {n}^2, backward Euler with c 1 | 40 by stationary cycles: every "
                    f"step converges in about the cycles of a constant c", body)


# ---------------------------------------------------------------------------------------------
# unit: capacity: 1 is the case without the key, bit for bit


def group_unit():
    variants = [("constant stencil", {"diffusivity": 0.7, "source": "1 + x*y"}),
                ("held nodes", {"diffusivity": 0.7, "source": "1 + x*y", "fixed": HELD}),
                ("diffusivity field", {"diffusivity": "1 + 0.5*x", "source": "1 + x*y"})]
    for scheme in SCHEMES:
        for label, problem in variants:
            def body(scheme=scheme, label=label, problem=problem):
                dt = scheme_dt(scheme)
                tag = f"{scheme}_{label.replace(' ', '_')}"
                case = heat(scheme, dt, 12, problem, output={"every": 4})
                case.setdefault("solve", {})["check_every"] = 2
                with_key = dict(case, problem=dict(case["problem"], capacity=1))
                _, _, d0 = media.run("unit", f"none_{tag}", case)
                _, _, d1 = media.run("unit", f"one_{tag}", with_key)
                s0 = media.snapshots(d0, f"none_{tag}")
                s1 = media.snapshots(d1, f"one_{tag}")
                assert [i for i, _ in s0] == [i for i, _ in s1], "the snapshots' iterations"
                for (_, p0), (_, p1) in zip(s0, s1):
                    assert np.array_equal(media.read_u(p0), media.read_u(p1)), f"{p1} differs"
                h0, h1 = history(d0), history(d1)
                assert len(h0) == len(h1) > 0
                for r0, r1 in zip(h0, h1):
                    r0.pop("wall_time", None), r1.pop("wall_time", None)
                    for key in r0:
                        if key.startswith(("time", "norm", "integral", "flux", "min", "max")):
                            assert r0[key] == r1[key], f"{key}: {r0[key]!r} != {r1[key]!r}"
            media.check(f"unit: {scheme}, {label}: capacity: 1 is bit-identical to no key",
                        body)


# ---------------------------------------------------------------------------------------------
# field: output.fields capacity


def group_field():
    x, y, _ = nodes()
    for label, value, expected in (("expression", "1 + x + y*y", 1 + x + y * y),
                                   ("number", 3.5, np.full(x.shape, 3.5)),
                                   ("default", None, np.ones(x.shape))):
        def body(label=label, value=value, expected=expected):
            problem = {"diffusivity": 1}
            if value is not None:
                problem["capacity"] = value
            case = heat("explicit", EXPLICIT_DT, 3, problem,
                        output={"every": 0, "fields": ["u", "capacity"]})
            _, _, directory = media.run("field", label, case)
            path = media.snapshots(directory, label)[-1][1]
            with h5py.File(path, "r") as h5:
                written = np.array(h5["/capacity"], dtype=np.float64)
            assert written.shape == expected.shape, written.shape
            miss = float(np.max(np.abs(written - expected)))
            assert miss <= 1e-15 * float(np.max(np.abs(expected))), f"differs by {miss:.3e}"
        media.check(f"field: capacity {label} written at the nodes", body)


# ---------------------------------------------------------------------------------------------
# parity: CUDA against the CPU (--backend cuda)


def group_parity():
    for scheme in ("explicit", "implicit"):
        def body(scheme=scheme):
            dt = scheme_dt(scheme)
            case = heat(scheme, dt, 20, {"capacity": "1 + x*(1 + y)", "diffusivity": "1 + 0.5*y",
                                         "source": "1 + x*y"})
            results = []
            saved = media.BACKEND
            try:
                for backend in ("cpu", "cuda"):
                    media.BACKEND = backend
                    name = f"{scheme}_{backend}"
                    _, _, directory = media.run("parity", name, case)
                    results.append(last_u(directory, name))
            finally:
                media.BACKEND = saved
            diff = float(np.max(np.abs(results[0] - results[1])) / np.max(np.abs(results[0])))
            # The sources are compiled on CUDA and interpreted on the CPU: rounding apart.
            bound = 1e-12
            assert diff <= bound, f"CPU and CUDA differ by {diff:.3e} (relative)"
            print(f"      {scheme}: CPU - CUDA relative {diff:.2e}")
        media.check(f"parity: {scheme} with a capacity field, CUDA against the CPU", body)


GROUPS = {"scaled": group_scaled, "layered": group_layered, "cycles": group_cycles,
          "conservation": group_conservation, "unit": group_unit, "field": group_field,
          "parity": group_parity}


def main():
    return media.backend_main(__doc__, GROUPS)


if __name__ == "__main__":
    sys.exit(main())
