#!/usr/bin/env python3
"""Heat's capacity (problem.capacity) together with Robin faces and with problem.sampling:
cells, through the fdsolve binary, against references computed here: the discrete schemes
(explicit, backward Euler, Crank-Nicolson) of the semi-discrete system C du/dt = q + g - A u
assembled in SciPy from the documented rules (A with the Robin faces' 2 h / h_a on its
diagonal and g their ambient term; faces the harmonic means of nodes or of cells; a node's
capacity under cells the mean of its cells), the balance identity of history.csv, and the
cycles of a capacity number.

    test_capacity_robin.py --fdsolve PATH --work DIR [--backend cpu|cuda] [--group NAME ...]

Groups: discrete (a layered capacity and diffusivity with two Robin faces, one ambient in y,
and a capacity number with a diffusivity field, each scheme against SciPy's steps), conservation
(a box insulated but for two Robin faces: the integral of c u rises by dt x (integral of q -
the Robin outflow) every step, the outflow of the step's start, end or their mean),
cycles (backward Euler with c 1 | 40 and a Robin face by stationary cycles on a nested and a
non-nested grid: about the cycles of a capacity number), cells (a capacity sampled at cells:
SciPy's steps with the cells' node means, the capacity field, a per-cell dataset as the
expression, input errors). Exit 0 when every check passes, 1 when one fails, 77 (skip) when
NumPy, SciPy or h5py is missing or, with --backend cuda, when fdsolve sees no device."""

import csv
import os
import subprocess
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
from cell_scheme import cell_centres, faces_from_cells  # noqa: E402

POINTS = [33, 9]
EXTENT = [1.0, 0.25]  # h = 1/32 on both axes
SCHEMES = ["explicit", "implicit", "crank-nicolson"]
SOURCE = ("1 + x*y", lambda x, y: 1 + x * y)
INITIAL = ("sin(pi*x) * (1 + y)", lambda x, y: np.sin(np.pi * x) * (1 + y))
# x_min held at 0, x_max and y_max Robin (the corner (x_max, y_max) on both), y_min insulated.
ROBIN_X = {"h": 3.0, "ambient": ("0.5 + y", lambda x, y: 0.5 + y)}
ROBIN_Y = {"h": 0.75, "ambient": ("0.2", lambda x, y: 0.2 + 0 * x)}
BOUNDARY = {"x_min": {"type": "dirichlet", "value": 0},
            "x_max": {"type": "robin", "h": ROBIN_X["h"], "ambient": ROBIN_X["ambient"][0]},
            "y_min": {"type": "neumann"},
            "y_max": {"type": "robin", "h": ROBIN_Y["h"], "ambient": ROBIN_Y["ambient"][0]}}
KINDS = [("dirichlet", ROBIN_X), ("neumann", ROBIN_Y)]  # per axis (low, high)


def history(directory):
    with open(os.path.join(directory, "out", "history.csv")) as f:
        return [{k: float(v) for k, v in row.items() if v != ""} for row in csv.DictReader(f)]


def last_u(directory, name):
    return media.read_u(media.snapshots(directory, name)[-1][1])


def nodes(points=POINTS, extent=EXTENT):
    h = [e / (n - 1) for n, e in zip(points, extent)]
    axes = [np.arange(n) * step for n, step in zip(points, h)]
    y, x = np.meshgrid(axes[1], axes[0], indexing="ij")
    return x, y, h


def harmonic_faces(k):
    """The faces of node values k (ny, nx): per axis face[j, i] between node (i, j) and its +a
    neighbour, the harmonic mean (the last one along a is never read)."""
    fx = np.ones_like(k)
    fy = np.ones_like(k)
    fx[:, :-1] = 2 * k[:, :-1] * k[:, 1:] / (k[:, :-1] + k[:, 1:])
    fy[:-1, :] = 2 * k[:-1, :] * k[1:, :] / (k[:-1, :] + k[1:, :])
    return [fx, fy]


def system(faces, x, y, h, kinds):
    """A (the free nodes' rows of the flux form) and g (the Robin faces' ambient term) of
    docs/numerics.md: a face node's ghost mirrors the node inside (value and face), a Robin face
    adds 2 h_R / h_a to the diagonal and 2 h_R / h_a ambient to the right-hand side (beta_f
    cancels), a Dirichlet face holds 0. kinds: per axis (low, high), each 'dirichlet',
    'neumann' or a Robin dict {h, ambient}. Returns (A, g, free mask)."""
    ny, nx = x.shape
    n = (nx, ny)
    free = np.ones_like(x, dtype=bool)
    for a in range(2):
        for side in (0, 1):
            if kinds[a][side] == "dirichlet":
                if a == 0:
                    free[:, 0 if side == 0 else -1] = False
                else:
                    free[0 if side == 0 else -1, :] = False
    index = -np.ones(x.shape, dtype=int)
    index[free] = np.arange(int(free.sum()))
    g = np.zeros(x.shape)
    rows, cols, data = [], [], []
    for j in range(ny):
        for i in range(nx):
            if not free[j, i]:
                continue
            r = index[j, i]
            diag = 0.0
            at = (i, j)
            for a in range(2):
                for step in (-1, 1):
                    q = list(at)
                    q[a] += step
                    lower = min(at[a], q[a])
                    if q[a] < 0 or q[a] >= n[a]:
                        kind = kinds[a][0 if q[a] < 0 else 1]
                        q[a] = at[a] - step  # the mirrored ghost
                        lower = 0 if step < 0 else n[a] - 2
                        if isinstance(kind, dict):
                            term = 2 * kind["h"] / h[a]
                            diag += term
                            g[j, i] += term * kind["ambient"][1](x[j, i], y[j, i])
                    face_at = [i, j]
                    face_at[a] = lower
                    coupling = faces[a][face_at[1], face_at[0]] / h[a] ** 2
                    diag += coupling
                    if free[q[1], q[0]]:
                        rows.append(r), cols.append(index[q[1], q[0]]), data.append(-coupling)
            rows.append(r), cols.append(r), data.append(diag)
    size = int(free.sum())
    return sparse.csc_matrix((data, (rows, cols)), shape=(size, size)), g[free], free


def steps(scheme, A, c, rhs, u0, dt, count):
    """`count` steps of the scheme on C du/dt = rhs - A u (free nodes)."""
    C = sparse.diags(c)
    if scheme == "explicit":
        u = u0.copy()
        for _ in range(count):
            u = u + dt / c * (rhs - A @ u)
        return u
    theta = 1.0 if scheme == "implicit" else 0.5
    solve = splinalg.factorized((C + theta * dt * A).tocsc())
    explicit_part = C - (1 - theta) * dt * A
    u = u0.copy()
    for _ in range(count):
        u = solve(explicit_part @ u + dt * rhs)
    return u


def heat(scheme, dt, count, problem, boundary=BOUNDARY, initial=INITIAL[0], points=POINTS,
         extent=EXTENT, **extra):
    case = {"grid": {"points": points, "extent": extent},
            "problem": dict(equation="heat", **problem),
            "boundary": boundary,
            "initial": initial,
            "time": {"scheme": scheme, "dt": dt, "end": count * dt},
            "output": {"every": 0}}
    if scheme != "explicit":  # the implicit steps' solves converged to their rounding floor
        case["solve"] = {"tolerance": 1e-15, "absolute_tolerance": 0}
    if scheme == "crank-nicolson":
        case["time"]["startup_steps"] = 0
    case.update(extra)
    return case


# Explicit steps below the limit min c_i / D_i (about h^2 / 4 = 2.4e-4 here, the Robin terms
# lowering it on their faces).
EXPLICIT_DT = 1e-4


def scheme_dt(scheme):
    return EXPLICIT_DT if scheme == "explicit" else 8 * EXPLICIT_DT


def compare(group, name, case, reference, free, bound):
    _, _, directory = media.run(group, name, case)
    u = last_u(directory, name)
    scale = float(np.max(np.abs(reference)))
    miss = float(np.max(np.abs(u[free] - reference))) / scale
    assert miss <= bound, f"relative difference {miss:.3e} > {bound:g}"
    return miss


# ---------------------------------------------------------------------------------------------
# discrete: each scheme against SciPy's steps of the same semi-discrete system

LAYER_X = 0.51  # between nodes 16 (x = 0.5) and 17 (x = 0.53125)
VARIANTS = [
    # (label, capacity key, diffusivity key, c(x, y), k(x, y))
    ("layers of c and k", "x < 0.51 ? 1 : 4", "x < 0.51 ? 1 : 0.5",
     lambda x, y: np.where(x < LAYER_X, 1.0, 4.0), lambda x, y: np.where(x < LAYER_X, 1.0, 0.5)),
    ("capacity 2.5, diffusivity field", 2.5, "1 + 0.5*x",
     lambda x, y: 2.5 + 0 * x, lambda x, y: 1 + 0.5 * x),
]


def group_discrete():
    x, y, h = nodes()
    count = 12
    for scheme in SCHEMES:
        for label, capacity, diffusivity, c_fn, k_fn in VARIANTS:
            def body(scheme=scheme, label=label, capacity=capacity, diffusivity=diffusivity,
                     c_fn=c_fn, k_fn=k_fn):
                dt = scheme_dt(scheme)
                A, g, free = system(harmonic_faces(k_fn(x, y)), x, y, h, KINDS)
                u0 = INITIAL[1](x, y)[free]
                rhs = SOURCE[1](x, y)[free] + g
                reference = steps(scheme, A, c_fn(x, y)[free], rhs, u0, dt, count)
                # Without the Robin terms (or with them but without the capacity) the run
                # differs from this reference by far more than the bound.
                name = f"{scheme}_{label.split(' ')[0]}_{len(str(capacity))}"
                case = heat(scheme, dt, count, {"capacity": capacity,
                                                "diffusivity": diffusivity,
                                                "source": SOURCE[0]})
                bound = 1e-13 if scheme == "explicit" else 1e-10
                miss = compare("discrete", name, case, reference, free, bound)
                print(f"      {scheme}, {label}: relative difference {miss:.2e}")
            media.check(f"discrete: {scheme}, {label}, Robin faces x_max and y_max: SciPy's "
                        f"steps of C du/dt = q + g - A u", body)


# ---------------------------------------------------------------------------------------------
# conservation: the integral of c u against the source and the Robin outflow


def group_conservation():
    x, y, h = nodes()
    weights = media.weights(x.shape)
    volume = float(np.prod(h))
    q_integral = float(np.sum(weights * SOURCE[1](x, y)) * volume)
    boundary = {"default": {"type": "neumann"},
                "x_max": {"type": "robin", "h": 20.0, "ambient": 3.0},
                "y_max": {"type": "robin", "h": 5.0, "ambient": "x"}}
    variants = [("capacity field", "1 + 0.5*sin(3*x)*(1 + y)"), ("capacity 2.5", 2.5)]
    for scheme in SCHEMES:
        for label, value in variants:
            def body(scheme=scheme, label=label, value=value):
                dt = scheme_dt(scheme)
                name = f"{scheme}_{label.replace(' ', '_').replace('.', 'p')}"
                problem = {"capacity": value, "diffusivity": "1 + 0.3*x*y",
                           "source": SOURCE[0]}
                case = heat(scheme, dt, 10, problem, boundary=boundary, initial="x")
                case.setdefault("solve", {})["check_every"] = 1
                _, _, directory = media.run("conservation", name, case)
                rows = history(directory)
                assert len(rows) == 10, f"{len(rows)} rows"
                faces = [key for key in rows[0] if key.startswith("flux_")]
                assert "flux_x_max" in faces and "flux_y_max" in faces, faces
                outflow = [sum(row[key] for key in faces) for row in rows]
                assert min(abs(f) for f in outflow) > 0.1 * q_integral, outflow
                worst = 0.0
                for n in range(1, len(rows)):
                    rise = rows[n]["integral"] - rows[n - 1]["integral"]
                    step = rows[n]["time"] - rows[n - 1]["time"]
                    # The outflow of the step's start (explicit), end (backward Euler) or their
                    # mean (Crank-Nicolson): the scheme's own face term.
                    f = {"explicit": outflow[n - 1], "implicit": outflow[n],
                         "crank-nicolson": 0.5 * (outflow[n - 1] + outflow[n])}[scheme]
                    expected = step * (q_integral - f)
                    error = abs(rise - expected) / (step * (abs(q_integral) + abs(f)))
                    worst = max(worst, error)
                    assert error < 1e-11, (f"iteration {rows[n]['iteration']:.0f}: the integral "
                                           f"rose {rise!r}, dt x (Q - F) = {expected!r}")
                print(f"      {scheme}, {label}: largest relative error of a step's rise "
                      f"{worst:.2e}")
            media.check(f"conservation: {scheme}, {label}, two Robin faces: the integral of c u "
                        f"rises by dt x (integral of q - outflow) every step", body)


# ---------------------------------------------------------------------------------------------
# cycles: the implicit step's multigrid with a capacity that varies and a Robin face


def group_cycles():
    # 33^2 nests (Galerkin coarse operators, R (C + dt robin) P); 30^2 does not
    # (averaged faces, the capacity of the fine node under each coarse one plus the Robin term
    # re-discretised). Stationary cycles alone, so that a coarse level without either shows.
    for n in (33, 30):
        def body(n=n):
            counts = {}
            for label, capacity in (("number", 2.5), ("field", "x < 0.51 ? 1 : 40")):
                case = {"grid": {"points": [n, n], "extent": [1.0, 1.0]},
                        "problem": {"equation": "heat", "diffusivity": "y < 0.49 ? 1 : 0.1",
                                    "capacity": capacity, "source": "1 + x*y"},
                        "boundary": {"default": {"type": "neumann"},
                                     "x_max": {"type": "robin", "h": 50, "ambient": 2},
                                     "y_max": {"type": "robin", "h": 5, "ambient": 0}},
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
        media.check(f"cycles: {n}^2, backward Euler with c 1 | 40 and Robin faces by stationary "
                    f"cycles: every step converges in about the cycles of a constant c", body)


# ---------------------------------------------------------------------------------------------
# cells: a capacity sampled at cells


CELL_CAPACITY = ("x < 0.5 ? 1 : 4", lambda x, y: np.where(x < 0.5, 1.0, 4.0))
CELL_DIFFUSIVITY = ("x < 0.5 ? 1 : 0.5", lambda x, y: np.where(x < 0.5, 1.0, 0.5))


def node_means(cells):
    """The mean of the cells around each node (ny, nx) of a grid with (ny - 1, nx - 1) cells
    (no periodic axis): 4 inside, 2 on a face, 1 at a corner."""
    ny, nx = cells.shape[0] + 1, cells.shape[1] + 1
    total = np.zeros((ny, nx))
    number = np.zeros((ny, nx))
    for dj in (0, 1):
        for di in (0, 1):
            total[dj:dj + ny - 1, di:di + nx - 1] += cells
            number[dj:dj + ny - 1, di:di + nx - 1] += 1
    return total / number


def group_cells():
    x, y, h = nodes()
    (xc, yc), count = cell_centres(POINTS, EXTENT, [False, False])
    assert count == [32, 8]
    c_cells = CELL_CAPACITY[1](xc, yc)
    c_nodes = node_means(c_cells)
    # The interface x = 0.5 is node 16's line: with cells its capacity is (1 + 4) / 2 on
    # every row, whatever the rounding of 0.5.
    assert np.all(c_nodes[:, 16] == 2.5)
    faces = faces_from_cells(CELL_DIFFUSIVITY[1](xc, yc), POINTS, [False, False])
    problem = {"capacity": CELL_CAPACITY[0], "diffusivity": CELL_DIFFUSIVITY[0],
               "source": SOURCE[0], "sampling": "cells"}
    for scheme in SCHEMES:
        def body(scheme=scheme):
            dt = scheme_dt(scheme)
            A, g, free = system(faces, x, y, h, KINDS)
            rhs = SOURCE[1](x, y)[free] + g
            reference = steps(scheme, A, c_nodes[free], rhs, INITIAL[1](x, y)[free], dt, 12)
            # Node-sampled capacities (4 on node 16's line) miss it by far more.
            other = steps(scheme, A, CELL_CAPACITY[1](x, y)[free], rhs,
                          INITIAL[1](x, y)[free], dt, 12)
            bound = 1e-13 if scheme == "explicit" else 1e-10
            gap = float(np.max(np.abs(other - reference)) / np.max(np.abs(reference)))
            assert gap > 1e3 * bound, f"node sampling differs by {gap:.2e} only"
            case = heat(scheme, dt, 12, problem)
            miss = compare("cells", f"steps_{scheme}", case, reference, free, bound)
            print(f"      {scheme}: relative difference {miss:.2e} (node sampling: {gap:.2e})")
        media.check(f"cells: {scheme}, a capacity and a diffusivity at cells with Robin faces: "
                    f"SciPy's steps with the node means of the cells", body)

    def field():
        case = heat("explicit", EXPLICIT_DT, 2, problem,
                    output={"every": 0, "fields": ["u", "capacity"]})
        _, _, directory = media.run("cells", "field", case)
        with h5py.File(media.snapshots(directory, "field")[-1][1], "r") as h5:
            written = np.array(h5["/capacity"], dtype=np.float64)
        assert np.array_equal(written, c_nodes), f"max |difference| " \
            f"{np.max(np.abs(written - c_nodes)):.3e}"
    media.check("cells: the capacity field holds each node's mean of its cells", field)

    def dataset():
        rng = np.random.default_rng(3)
        values = np.exp(rng.uniform(-2, 2, size=c_cells.shape))
        by_data = dict(problem, capacity={"file": "c.h5", "dataset": "/c"})
        _, _, d = media.run("cells", "data", heat("implicit", 8e-4, 4, by_data),
                            files={"c.h5": {"c": values}})
        A, g, free = system(faces, x, y, h, KINDS)
        reference = steps("implicit", A, node_means(values)[free],
                          SOURCE[1](x, y)[free] + g, INITIAL[1](x, y)[free], 8e-4, 4)
        u = last_u(d, "data")
        miss = float(np.max(np.abs(u[free] - reference)) / np.max(np.abs(reference)))
        assert miss < 1e-10, f"relative difference {miss:.3e}"
        # The dataset of the expression's cell values runs to the expression's bits.
        _, _, e = media.run("cells", "expression", heat("implicit", 8e-4, 4, problem))
        _, _, f = media.run("cells", "expression_data",
                            heat("implicit", 8e-4, 4, by_data), files={"c.h5": {"c": c_cells}})
        a, b = last_u(e, "expression"), last_u(f, "expression_data")
        assert np.array_equal(a, b), f"max |difference| {np.max(np.abs(a - b)):.3e}"
    media.check("cells: a per-cell capacity dataset against SciPy's backward Euler; the "
                "expression's cell values as a dataset run to the same bits", dataset)

    def described():
        directory = os.path.join(media.WORK, "cells", "check")
        os.makedirs(directory, exist_ok=True)
        with open(os.path.join(directory, "case.yaml"), "w") as f:
            f.write(media.yaml_text(heat("explicit", EXPLICIT_DT, 2, problem)))
        p = subprocess.run([media.FDSOLVE, "check", "case.yaml"], cwd=directory, text=True,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=60)
        assert p.returncode == 0, p.stdout
        line = "sampling: cells: the capacity at cell centres, each node's c the mean of the cells"
        assert line in p.stdout, p.stdout
    media.check("cells: check says how the capacity is sampled", described)

    def refused(label, case, needles, files=None):
        def body():
            _, log, _ = media.run("cells", label.replace(" ", "_"), case, files=files, expect=2)
            for needle in needles:
                assert needle in log, f"{needle!r} not in {log!r}"
        media.check(f"cells: {label}: exit 2 naming the key", body)

    node_shaped = dict(problem, capacity={"file": "c.h5", "dataset": "/c"})
    refused("a node-shaped capacity dataset under cells", heat("explicit", 1e-4, 1, node_shaped),
            ["problem.capacity.dataset", "[9, 33]", "[8, 32]"],
            files={"c.h5": {"c": np.ones((9, 33))}})
    refused("a cell's capacity not > 0",
            heat("explicit", 1e-4, 1, dict(problem, capacity="x - 0.1")),
            ["problem.capacity", "cell (i, j) = (0, 0)", "-0.084375"])


GROUPS = {"discrete": group_discrete, "conservation": group_conservation,
          "cycles": group_cycles, "cells": group_cells}


def main():
    return media.backend_main(__doc__, GROUPS)


if __name__ == "__main__":
    sys.exit(main())
