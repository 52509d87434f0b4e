#!/usr/bin/env python3
"""problem.sampling: cells through the fdsolve binary, against references computed here: exact
piecewise-linear solutions of layered media (conductances in series), the antisymmetry of a
two-material capacitor whose plate lies on a node line at a rounded coordinate, and a SciPy
direct solve of the discrete system assembled from the documented face rule (a face's
coefficient is the harmonic mean of the cells beside it).

    test_sampling.py --fdsolve PATH --work DIR [--backend cpu|cuda] [--group NAME ...]

Groups: capacitor, slab, dataset, scipy, constant, errors, heat. Exit 0 when every check passes, 1
when one fails, 77 (skip) when NumPy, SciPy or h5py is missing or, with --backend cuda, when
fdsolve sees no device."""

import csv
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True
sys.path.insert(0, HERE)
# test_media reports the skip (77) where NumPy, SciPy or h5py is missing.
import test_media as media  # noqa: E402  (run, check, solution, read_u)
import numpy as np  # noqa: E402
from cell_scheme import cell_centres, faces_from_cells, solve_faces  # noqa: E402

AXES = "xyz"


def history(directory):
    """The last run's history.csv rows as dicts of floats (empty cells left out)."""
    with open(os.path.join(directory, "out", "history.csv")) as f:
        return [{k: float(v) for k, v in row.items() if v != ""} for row in csv.DictReader(f)]


def case_of(points, extent, problem, boundary, name=None, **solve):
    case = {"grid": {"points": list(points), "extent": list(extent)}, "problem": problem,
            "boundary": boundary, "solve": dict({"tolerance": 1e-13}, **solve)}
    if len(points) == 3:
        case["stencil"] = 7
    if name:
        case["name"] = name
    return case


# ---------------------------------------------------------------------------------------------
# A capacitor: the plate on the node line y = 7 * 0.05 = 0.35000000000000003


def capacitor(sampling, points=(5, 15), extent=(0.2, 0.7)):
    problem = {"equation": "laplace", "coefficient": "y < 0.35 ? 1 : 80", "sampling": sampling,
               "fixed": [{"where": "abs(y - 0.35) < 0.01", "value": 0}]}
    boundary = {"default": {"type": "neumann"},
                "y_min": {"type": "dirichlet", "value": 1},
                "y_max": {"type": "dirichlet", "value": -1}}
    if len(points) == 3:
        boundary["z_min"] = boundary["z_max"] = {"type": "periodic"}
    return case_of(points, extent, problem, boundary)


def group_capacitor():
    for points, extent in (((5, 15), (0.2, 0.7)), ((4, 15, 4), (0.2, 0.7, 0.2))):
        dims = len(points)

        def cells(points=points, extent=extent, dims=dims):
            u = media.solution("capacitor", f"cells_{dims}d", capacitor("cells", points, extent))
            line = np.arange(points[1])
            # Each side is one material between held values: linear from 1 to 0 and 0 to -1.
            exact = np.where(line <= 7, 1 - line / 7, -(line - 7) / 7)
            shape = [1] * dims
            shape[dims - 2] = points[1]
            error = np.max(np.abs(u - exact.reshape(shape)))
            # The solve's tolerance (1e-13 of the first residual) bounds both.
            assert error < 1e-11, f"max |u - piecewise linear| = {error:.3e}"
            mirrored = np.flip(u, axis=dims - 2)
            skew = np.max(np.abs(u + mirrored))
            assert skew < 1e-11, f"max |u(y) + u(0.7 - y)| = {skew:.3e}"
            print(f"      {dims}D cells: antisymmetric to {skew:.1e}")
            # history.csv's balance reads the same faces: each gap carries beta / 0.35 over the
            # plate's area, and the held plate takes what the faces give up.
            row = history(os.path.join(media.WORK, "capacitor", f"cells_{dims}d"))[-1]
            area = 0.2 ** (dims - 1)
            for column, expected in (("flux_y_min", -area / 0.35), ("flux_y_max", 80 * area / 0.35)):
                assert abs(row[column] - expected) < 1e-9 * abs(expected), (
                    f"{column} = {row[column]!r}, expected {expected!r}")
            total = sum(v for k, v in row.items() if k.startswith("flux_"))
            assert abs(total) < 1e-9, f"the fluxes sum to {total!r}"
        media.check(f"capacitor {dims}D: sampling cells is antisymmetric to rounding", cells)

        def nodes(points=points, extent=extent, dims=dims):
            # The plate's node line rounds above 0.35 and takes beta 80, so the face below it is
            # the harmonic mean of 1 and 80 and the lower side bends: what cells avoid.
            u = media.solution("capacitor", f"nodes_{dims}d", capacitor("nodes", points, extent))
            skew = np.max(np.abs(u + np.flip(u, axis=dims - 2)))
            assert skew > 1e-2, f"nodes: antisymmetric to {skew:.3e}"
            print(f"      {dims}D nodes: |u(y) + u(0.7 - y)| up to {skew:.3f}")
        media.check(f"capacitor {dims}D: sampling nodes depends on the rounding of 0.35", nodes)


# ---------------------------------------------------------------------------------------------
# A layered slab against its exact piecewise-linear solution


def group_slab():
    n = 33  # h = 1/32: the interfaces at 0.25 and 0.75 are node lines
    layers = "{a} < 0.25 ? 1 : ({a} < 0.75 ? 7 : 2)"
    conductance = [(0.25, 1.0), (0.5, 7.0), (0.25, 2.0)]
    resistance = sum(d / k for d, k in conductance)

    def exact(s):
        """u(s) of the slab with u(0) = 0, u(1) = 1: the flux 1 / sum(d / k) through each."""
        q = 1.0 / resistance
        u = np.zeros_like(s)
        start, base = 0.0, 0.0
        for d, k in conductance:
            inside = (s >= start - 1e-15) & (s <= start + d + 1e-15)
            u = np.where(inside, base + q * (s - start) / k, u)
            base += q * d / k
            start += d
        return u

    for dims, axis, method in ((2, 0, "multigrid"), (2, 1, "jacobi"), (3, 2, "multigrid")):
        points = [9] * dims
        points[axis] = n
        boundary = {"default": {"type": "neumann"},
                    f"{AXES[axis]}_min": {"type": "dirichlet", "value": 0},
                    f"{AXES[axis]}_max": {"type": "dirichlet", "value": 1}}
        if dims == 3:
            other = [a for a in range(3) if a != axis][0]
            boundary[f"{AXES[other]}_min"] = boundary[f"{AXES[other]}_max"] = {
                "type": "periodic"}
        problem = {"equation": "laplace", "coefficient": layers.format(a=AXES[axis]),
                   "sampling": "cells"}
        solve = {"method": method}
        if method == "jacobi":
            solve.update(tolerance=1e-13, max_iterations=400000, check_every=1000)
            points[axis] = 17  # 0.25 and 0.75 stay node lines
        case = case_of(points, [1.0] * dims, problem, boundary, **solve)

        def body(case=case, points=points, dims=dims, axis=axis, label=method):
            u = media.solution("slab", f"{dims}d_{AXES[axis]}_{label}", case)
            s = np.arange(points[axis]) / (points[axis] - 1)
            shape = [1] * dims
            shape[dims - 1 - axis] = points[axis]
            error = np.max(np.abs(u - exact(s).reshape(shape)))
            bound = 1e-12 if label == "multigrid" else 1e-10
            assert error < bound, f"max |u - exact| = {error:.3e}"
            print(f"      max |u - exact| = {error:.1e}")
        media.check(f"slab {dims}D along {AXES[axis]} ({method}): the exact piecewise-linear "
                    "solution (series conductances)", body)

    # Nodes sample the interface node lines into one side, so the node solution is not exact.
    def nodes():
        points = [n, 9]
        problem = {"equation": "laplace", "coefficient": layers.format(a="x")}
        boundary = {"default": {"type": "neumann"}, "x_min": {"type": "dirichlet", "value": 0},
                    "x_max": {"type": "dirichlet", "value": 1}}
        u = media.solution("slab", "nodes", case_of(points, [1.0, 1.0], problem, boundary))
        error = np.max(np.abs(u - exact(np.arange(n) / (n - 1))[None, :]))
        assert error > 1e-3, f"nodes reach the cell-face solution ({error:.3e})"
    media.check("slab: sampling nodes differs from the cell-face solution", nodes)


# ---------------------------------------------------------------------------------------------
# A dataset of one value per cell; cells against SciPy in 2D and 3D


def scipy_check(group, label, points, extent, expression, beta_cells, kinds, source,
                files=None, held=None, held_where=None):
    dims = len(points)
    periodic = [k[0] == "periodic" for k in kinds]
    boundary = {}
    for a in range(dims):
        for side, face in enumerate(("min", "max")):
            kind = kinds[a][side]
            boundary[f"{AXES[a]}_{face}"] = ({"type": kind, "value": 0} if kind == "dirichlet"
                                             else {"type": kind})
    problem = {"equation": "poisson", "source": source, "coefficient": expression,
               "sampling": "cells"}
    if held_where:
        problem["fixed"] = [{"where": held_where, "value": 0.5}]
    case = case_of(points, extent, problem, boundary)

    def body():
        u = media.solution(group, label.replace(" ", "_"), case, files=files)
        h = [e / (n if p else n - 1) for n, e, p in zip(points, extent, periodic)]
        faces = faces_from_cells(beta_cells, points, periodic)
        f = np.ones(u.shape)
        values = np.zeros(u.shape)
        if held is not None:
            values[held] = 0.5
        reference = solve_faces(faces, f, h, kinds, boundary=values, held=held)
        error = np.max(np.abs(u - reference)) / np.max(np.abs(reference))
        assert error < 1e-9, f"max |u - SciPy| / max |SciPy| = {error:.3e}"
        print(f"      relative max difference from SciPy {error:.1e}")
    media.check(f"{group}: {label} against SciPy's solve of the face rule", body)
    return case


def nodes_xyz(points, extent, periodic):
    axes = [np.arange(n) * (e / (n if p else n - 1)) for n, e, p in zip(points, extent, periodic)]
    return np.meshgrid(*axes[::-1], indexing="ij")[::-1]


def group_dataset():
    points, extent = [17, 13], [1.0, 1.5]
    kinds = [("dirichlet", "neumann"), ("periodic", "periodic")]
    periodic = [False, True]
    rng = np.random.default_rng(7)
    _, cells = cell_centres(points, extent, periodic)
    assert cells == [16, 13]
    beta = np.exp(rng.uniform(-3, 3, size=cells[::-1]))  # contrast up to e^6, per cell
    scipy_check("dataset", "per-cell dataset 2D, periodic y", points, extent,
                {"file": "k.h5", "dataset": "/k"}, beta, kinds, 1,
                files={"k.h5": {"k": beta}})

    # The dataset of an expression's cell values runs to the same bits as the expression.
    expression = "x < 0.4 ? 3 : 1 + y"
    (xc, yc), _ = cell_centres(points, extent, periodic)
    values = np.where(xc < 0.4, 3.0, 1.0 + yc)

    def same():
        base = {"grid": {"points": points, "extent": extent},
                "boundary": {"x_min": {"type": "dirichlet", "value": 0},
                             "x_max": {"type": "neumann"},
                             "y_min": {"type": "periodic"}, "y_max": {"type": "periodic"}},
                "solve": {"tolerance": 1e-12}}
        by_expression = dict(base, problem={"equation": "poisson", "source": 1,
                                            "coefficient": expression, "sampling": "cells"})
        by_data = dict(base, problem={"equation": "poisson", "source": 1,
                                      "coefficient": {"file": "k.h5", "dataset": "/k"},
                                      "sampling": "cells"})
        a = media.solution("dataset", "expression", by_expression)
        b = media.solution("dataset", "data", by_data, files={"k.h5": {"k": values}})
        assert np.array_equal(a, b), f"max |difference| {np.max(np.abs(a - b)):.3e}"
    media.check("dataset: one value per cell equals the expression at the cell centres", same)


def group_scipy():
    # 2D: a jump across x = 0.4 (a cell face of 21 nodes on [0, 1]) and a smooth variation,
    # Dirichlet, Neumann and a held disc.
    points, extent = [21, 17], [1.0, 0.8]
    kinds = [("dirichlet", "neumann"), ("neumann", "dirichlet")]
    periodic = [False, False]
    expression = "(x < 0.4 ? 50 : 1) * (1 + 0.5*sin(3*y))"
    (xc, yc), _ = cell_centres(points, extent, periodic)
    beta = np.where(xc < 0.4, 50.0, 1.0) * (1 + 0.5 * np.sin(3 * yc))
    x, y = nodes_xyz(points, extent, periodic)
    where = "(x-0.7)^2 + (y-0.4)^2 < 0.01"
    held = (x - 0.7) ** 2 + (y - 0.4) ** 2 < 0.01
    scipy_check("scipy", "2D jump and held disc", points, extent, expression, beta, kinds, 1,
                held=held, held_where=where)

    # 3D: a checkerboard of cells (every face between unequal cells, four cells per face) with a
    # periodic axis.
    points, extent = [9, 9, 8], [1.0, 1.0, 1.0]
    kinds = [("dirichlet", "dirichlet"), ("neumann", "dirichlet"), ("periodic", "periodic")]
    periodic = [False, False, True]
    expression = "sin(8*pi*x)*sin(8*pi*y)*sin(8*pi*z) > 0 ? 100 : 1"
    (xc, yc, zc), _ = cell_centres(points, extent, periodic)
    beta = np.where(np.sin(8 * np.pi * xc) * np.sin(8 * np.pi * yc) * np.sin(8 * np.pi * zc) > 0,
                    100.0, 1.0)
    scipy_check("scipy", "3D checkerboard, periodic z", points, extent, expression, beta, kinds,
                1)


def group_constant():
    # A coefficient equal at every cell runs the constant operator: the same bits as nodes.
    for dims in (2, 3):
        points = [17] * dims
        boundary = {"default": {"type": "dirichlet", "value": "x*y"}}
        runs = {}
        for label, problem in (
                ("number", {"equation": "poisson", "source": 1, "coefficient": 2}),
                ("cells", {"equation": "poisson", "source": 1, "coefficient": "2 + 0*x",
                           "sampling": "cells"}),
                ("nodes", {"equation": "poisson", "source": 1, "coefficient": "2 + 0*x",
                           "sampling": "nodes"})):
            runs[label] = (problem, case_of(points, [1.0] * dims, problem, boundary))

        def body(dims=dims, runs=runs):
            u = {label: media.solution("constant", f"{dims}d_{label}", case)
                 for label, (_, case) in runs.items()}
            assert np.array_equal(u["cells"], u["number"]), "cells differ from the number"
            assert np.array_equal(u["nodes"], u["number"]), "nodes differ from the number"
        media.check(f"constant {dims}D: a uniform coefficient with cells is the number, bit "
                    "for bit", body)


def group_errors():
    points = [9, 9]

    def refused(label, case, needles, files=None):
        def body():
            _, log, _ = media.run("errors", label.replace(" ", "_"), case, files=files, expect=2)
            assert media.LOCATION.search(log), f"no case.yaml:line:col: in {log!r}"
            for needle in needles:
                assert re.search(needle, log), f"{needle!r} not in {log!r}"
        media.check(f"errors: {label}: exit 2 naming the key", body)

    base = {"grid": {"points": points, "extent": [1.0, 1.0]}}
    refused("node-shaped dataset under cells",
            dict(base, problem={"equation": "laplace", "sampling": "cells",
                                "coefficient": {"file": "k.h5", "dataset": "/k"}}),
            [r"problem\.coefficient\.dataset", r"\[9, 9\]", r"\[8, 8\]", "one value per cell"],
            files={"k.h5": {"k": np.ones((9, 9))}})
    periodic = dict(base, boundary={"y_min": {"type": "periodic"}, "y_max": {"type": "periodic"}})
    refused("a periodic axis keeps its points of cells",
            dict(periodic, problem={"equation": "heat", "sampling": "cells",
                                    "diffusivity": {"file": "k.h5", "dataset": "/k"}},
                 time={"end": 0.01}),
            [r"problem\.diffusivity\.dataset", r"\[8, 8\]", r"\[9, 8\]"],
            files={"k.h5": {"k": np.ones((8, 8))}})
    refused("cells dataset under nodes",
            dict(base, problem={"equation": "laplace",
                                "coefficient": {"file": "k.h5", "dataset": "/k"}}),
            [r"problem\.coefficient\.dataset", r"\[8, 8\]", r"\[9, 9\]"],
            files={"k.h5": {"k": np.ones((8, 8))}})
    refused("unknown sampling", dict(base, problem={"equation": "laplace", "sampling": "faces"}),
            [r"problem\.sampling", "nodes", "cells"])
    refused("sampling for custom",
            dict(base, problem={"equation": "custom", "sampling": "cells"},
                 stencil={"points": 5, "weights": {"center": 0, "x": 0.25, "y": 0.25}}),
            [r"problem\.sampling", "custom"])
    refused("a cell's coefficient not > 0",
            dict(base, problem={"equation": "laplace", "sampling": "cells",
                                "coefficient": "x - 0.1"}),
            [r"problem\.coefficient", r"cell \(i, j\) = \(0, 0\)", r"0\.0625"])


# ---------------------------------------------------------------------------------------------
# Heat with a diffusivity sampled at cells: one backward-Euler step against SciPy


def group_heat():
    points, extent = [17, 13], [1.0, 0.75]
    kinds = [("dirichlet", "neumann"), ("periodic", "periodic")]
    periodic = [False, True]
    dt = 0.002
    expression = "y < 0.375 ? 0.5 : 4 + x"
    (xc, yc), _ = cell_centres(points, extent, periodic)
    k_cells = np.where(yc < 0.375, 0.5, 4.0 + xc)
    x, y = nodes_xyz(points, extent, periodic)
    u0 = np.sin(3 * x) * np.cos(2 * np.pi * y / 0.75) + x
    case = {"grid": {"points": points, "extent": extent},
            "problem": {"equation": "heat", "diffusivity": expression, "sampling": "cells",
                        "source": 1},
            "boundary": {"x_min": {"type": "dirichlet", "value": "x"},
                         "x_max": {"type": "neumann"},
                         "y_min": {"type": "periodic"}, "y_max": {"type": "periodic"}},
            "initial": "sin(3*x)*cos(2*pi*y/0.75) + x",
            "time": {"scheme": "implicit", "dt": dt, "end": dt},
            "solve": {"tolerance": 1e-13}}

    def body():
        u = media.solution("heat", "implicit_cells", case)
        h = [e / (n if p else n - 1) for n, e, p in zip(points, extent, periodic)]
        faces = faces_from_cells(k_cells, points, periodic)
        boundary = np.where(x == 0, x, 0.0)
        reference = solve_faces(faces, u0 / dt + 1.0, h, kinds, boundary=boundary, alpha=1 / dt)
        error = np.max(np.abs(u - reference)) / np.max(np.abs(reference))
        assert error < 1e-10, f"max |u - SciPy| / max |SciPy| = {error:.3e}"
        print(f"      relative max difference from SciPy {error:.1e}")
    media.check("heat: a backward-Euler step with the diffusivity at cells against SciPy", body)


GROUPS = {"capacitor": group_capacitor, "slab": group_slab, "dataset": group_dataset,
          "scipy": group_scipy, "constant": group_constant, "errors": group_errors, "heat": group_heat}


if __name__ == "__main__":
    sys.exit(media.backend_main(__doc__, GROUPS))
