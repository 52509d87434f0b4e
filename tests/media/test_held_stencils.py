#!/usr/bin/env python3
"""Held nodes (problem.fixed) with the 19- and 27-point stencils through the fdsolve binary
(label verification): each case against an independent SciPy statement of the same scheme,
built here from docs/numerics.md's weights (a sparse direct solve of the 19/27-point system
with the held rows as identities; explicit, backward Euler and Crank-Nicolson steps taken here).

    test_held_stencils.py --fdsolve PATH --work DIR [--backend cpu|cuda] [--group NAME ...]

Groups: steady (Jacobi, multigrid, multigrid-preconditioned CG), heat (explicit with dt: auto,
backward Euler, Crank-Nicolson). Exit 0 when every check passes, 1 when one fails, 77 (skip)
when NumPy, SciPy or h5py is missing or, with --backend cuda, when fdsolve sees no device."""

import itertools
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True
sys.path.insert(0, HERE)
# test_media reports the skip (77) where NumPy, SciPy or h5py is missing.
import test_media as media  # noqa: E402  (run, snapshots, read_u, check, grid)
import h5py  # noqa: E402
import numpy as np  # noqa: E402
import scipy.sparse as sparse  # noqa: E402
import scipy.sparse.linalg as sparse_linalg  # noqa: E402

POINTS = [17, 17, 17]  # unit cube, h = 1/16
REGIONS = {
    # A slab across the box, a sphere inside it, a block on the Dirichlet face x_min.
    "slab": ("z > 0.4 && z < 0.6", lambda x, y, z: (z > 0.4) & (z < 0.6)),
    "sphere": ("(x-0.5)^2 + (y-0.5)^2 + (z-0.5)^2 < 0.06",
               lambda x, y, z: (x - 0.5) ** 2 + (y - 0.5) ** 2 + (z - 0.5) ** 2 < 0.06),
    "face": ("x < 0.2 && y > 0.3 && y < 0.7",
             lambda x, y, z: (x < 0.2) & (y > 0.3) & (y < 0.7)),
}


def class_weights(points, h):
    """docs/numerics.md: u = (sum of w_class u_nb) + s f per neighbour class (face, edge,
    corner), so -lap u = (u - sum w u_nb) / s."""
    if points == 27:
        return (14 / 128, 3 / 128, 1 / 128), 30 * h * h / 128
    return (2 / 24, 1 / 24, 0.0), 6 * h * h / 24


def folded(n, offset, faces):
    """Node indices i + offset along one axis, mirrored across Neumann faces (zero gradient:
    the ghost is the node inside) and clamped at Dirichlet faces (their nodes are not
    updated, so nothing reads beyond them)."""
    i = np.arange(n) + offset
    lo, hi = faces
    i = np.where(i < 0, 1 if lo == "neumann" else 0, i)
    return np.where(i > n - 1, n - 2 if hi == "neumann" else n - 1, i)


def neg_laplacian(points, shape, h, faces):
    """-lap of the 19/27-point stencil as a sparse matrix over every node (rows of Dirichlet
    face nodes unused). faces: per axis x, y, z a (low, high) pair of types."""
    (wf, we, wc), s = class_weights(points, h)
    index = np.arange(np.prod(shape)).reshape(shape)
    rows, cols, values = [], [], []
    for dz, dy, dx in itertools.product((-1, 0, 1), repeat=3):
        order = abs(dx) + abs(dy) + abs(dz)
        if order == 0 or (wf, we, wc)[order - 1] == 0:
            continue
        kz = folded(shape[0], dz, faces[2])
        jy = folded(shape[1], dy, faces[1])
        ix = folded(shape[2], dx, faces[0])
        neighbour = index[np.ix_(kz, jy, ix)]
        rows.append(index.ravel())
        cols.append(neighbour.ravel())
        values.append(np.full(index.size, -(wf, we, wc)[order - 1] / s))
    rows.append(index.ravel())
    cols.append(index.ravel())
    values.append(np.full(index.size, 1.0 / s))
    n = index.size
    return sparse.csr_matrix((np.concatenate(values), (np.concatenate(rows),
                                                      np.concatenate(cols))), shape=(n, n))


def dirichlet_nodes(shape, faces):
    mask = np.zeros(shape, dtype=bool)
    for a in range(3):
        axis = 2 - a
        for side in (0, 1):
            if faces[a][side] == "dirichlet":
                index = [slice(None)] * 3
                index[axis] = 0 if side == 0 else shape[axis] - 1
                mask[tuple(index)] = True
    return mask


def solve_held(matrix, rhs, known, values):
    """Solves matrix u = rhs on the nodes not `known`, u = values on the known ones (the held
    rows and the Dirichlet rows as identities)."""
    free = ~known.ravel()
    u = values.ravel().copy()
    a_free = matrix[free][:, free]
    b = rhs.ravel()[free] - matrix[free][:, ~free] @ u[~free]
    u[free] = sparse_linalg.spsolve(a_free.tocsc(), b)
    return u.reshape(known.shape)


FACES = {"dirichlet": [("dirichlet", "dirichlet")] * 3,
         "neumann": [("dirichlet", "neumann"), ("dirichlet", "dirichlet"),
                     ("dirichlet", "dirichlet")]}


def boundary_of(faces_name):
    if faces_name == "neumann":
        return {"default": {"type": "dirichlet", "value": 0}, "x_max": {"type": "neumann"}}
    return {"default": {"type": "dirichlet", "value": 0}}


def case_of(points, region, faces_name, equation="poisson", **problem):
    text = REGIONS[region][0]
    case = {"grid": {"points": POINTS, "extent": [1.0, 1.0, 1.0]}, "stencil": points,
            "problem": dict(equation=equation, fixed=[{"where": text, "value": "1 + y"}],
                            **problem),
            "boundary": boundary_of(faces_name)}
    return case


def relative_max(u, reference):
    return float(np.max(np.abs(u - reference)) / np.max(np.abs(reference)))


def group_steady():
    x, y, z = media.grid(POINTS)
    h = 1.0 / (POINTS[0] - 1)
    methods = {"jacobi": ({"method": "jacobi", "tolerance": 1e-13}, 1e-8),
               "multigrid": ({"method": "multigrid", "krylov": "none", "tolerance": 1e-11}, 1e-9),
               "cg": ({"method": "multigrid", "krylov": "cg", "tolerance": 1e-11}, 1e-9)}
    for points, region, faces_name in [(27, "slab", "dirichlet"), (27, "sphere", "neumann"),
                                       (27, "face", "dirichlet"), (19, "sphere", "dirichlet"),
                                       (19, "face", "neumann")]:
        faces = FACES[faces_name]
        # Nodes of a Dirichlet face keep the face's value even inside a held region.
        dirichlet = dirichlet_nodes(x.shape, faces)
        held = REGIONS[region][1](x, y, z) & ~dirichlet
        known = held | dirichlet
        values = np.where(held, 1 + y, 0.0)
        reference = solve_held(neg_laplacian(points, held.shape, h, faces), np.ones(held.shape),
                               known, values)
        for method, (solve, tolerance) in methods.items():
            name = f"p{points}_{region}_{faces_name}_{method}"

            def body(name=name, solve=solve, tolerance=tolerance, points=points, region=region,
                     faces_name=faces_name, held=held, reference=reference):
                case = case_of(points, region, faces_name, source=1)
                case["solve"] = solve
                u = media.solution("steady", name, case)
                assert np.max(np.abs(u[held] - (1 + y)[held])) == 0.0, "held at 1 + y exactly"
                error = relative_max(u, reference)
                assert error < tolerance, f"relative max difference {error:.3e}"
            media.check(f"steady: {points}-point, held {region}, {faces_name} faces, {method} "
                        "against the SciPy direct solve", body)


def stability_limit(points, h, k):
    """2 / (k max lambda) over a fine sampling of the symbol of -lap (not only its corners)."""
    (wf, we, wc), s = class_weights(points, h)
    t = np.linspace(0, np.pi, 33)
    cx, cy, cz = np.meshgrid(np.cos(t), np.cos(t), np.cos(t), indexing="ij")
    symbol = (2 * wf * (cx + cy + cz) + 4 * we * (cx * cy + cy * cz + cx * cz)
              + 8 * wc * cx * cy * cz)
    return 2.0 / (k * np.max((1 - symbol) / s))


def snapshot_times(directory, name):
    found = media.snapshots(directory, name)
    times = []
    for _, path in found:
        with h5py.File(path, "r") as h5:
            times.append(float(h5["/u"].attrs["time"]) if "time" in h5["/u"].attrs
                         else float(h5.attrs["time"]))
    return found, times


def group_heat():
    x, y, z = media.grid(POINTS)
    h = 1.0 / (POINTS[0] - 1)
    k = 0.5
    bump = "exp(-20*((x-0.6)^2+(y-0.5)^2+(z-0.5)^2))"
    for points, region, faces_name in [(27, "sphere", "neumann"), (19, "face", "dirichlet")]:
        faces = FACES[faces_name]
        dirichlet = dirichlet_nodes(x.shape, faces)
        held = REGIONS[region][1](x, y, z) & ~dirichlet
        known = held | dirichlet
        a = k * neg_laplacian(points, held.shape, h, faces)
        q = 2.0
        limit = stability_limit(points, h, k)

        def base(name, time):
            case = case_of(points, region, faces_name, equation="heat", source=q, diffusivity=k)
            case["initial"] = bump
            case["time"] = time
            case["output"] = {"every": 1}
            if time["scheme"] != "explicit":
                case["solve"] = {"tolerance": 1e-13, "absolute_tolerance": 0}
            return case

        def explicit_body(points=points, region=region, faces_name=faces_name, a=a,
                          known=known, limit=limit):
            name = f"explicit_p{points}_{region}"
            _, log, directory = media.run("heat", name,
                                          base(name, {"scheme": "explicit", "end": 4 * limit}))
            found, times = snapshot_times(directory, name)
            dt = times[1] - times[0]
            assert abs(dt - 0.9 * limit) < 1e-12 * limit, f"dt {dt!r}, 0.9 x limit {0.9 * limit!r}"
            u = media.read_u(found[0][1])
            for (_, path) in found[1:3]:
                expected = u + dt * (q - a @ u.ravel()).reshape(u.shape)
                expected[known] = u[known]
                after = media.read_u(path)
                error = np.max(np.abs(after - expected)) / np.max(np.abs(after - u))
                assert error < 1e-10, f"a step differs from u + dt (q - A u) by {error:.3e}"
                u = after
            assert np.all(np.isfinite(media.read_u(found[-1][1])))
        media.check(f"heat: {points}-point, held {region}: explicit steps with dt: auto = 0.9 x "
                    f"the 19/27-point limit {limit:.4g} are u + dt (q - A u)", explicit_body)

        for scheme in ("implicit", "crank-nicolson"):
            def implicit_body(scheme=scheme, points=points, region=region, a=a, known=known,
                              limit=limit):
                name = f"{scheme}_p{points}_{region}"
                dt = 10 * limit
                time = {"scheme": scheme, "dt": dt, "end": 3 * dt}
                if scheme == "crank-nicolson":
                    time["startup_steps"] = 0
                _, _, directory = media.run("heat", name, base(name, time))
                found, _ = snapshot_times(directory, name)
                before, after = media.read_u(found[0][1]), media.read_u(found[1][1])
                identity = sparse.identity(before.size, format="csr")
                theta = 1.0 if scheme == "implicit" else 0.5
                rhs = before.ravel() + dt * q
                if theta < 1:
                    rhs = rhs - (1 - theta) * dt * (a @ before.ravel())
                expected = solve_held(identity + theta * dt * a, rhs.reshape(before.shape),
                                      known, np.where(known, before, 0.0))
                error = np.max(np.abs(after - expected)) / np.max(np.abs(after - before))
                assert error < 1e-9, f"a step differs from the SciPy solve by {error:.3e}"
            media.check(f"heat: {points}-point, held {region}: a {scheme} step against the "
                        "SciPy solve of the same system", implicit_body)


GROUPS = {"steady": group_steady, "heat": group_heat}


def main():
    return media.backend_main(__doc__, GROUPS)


if __name__ == "__main__":
    sys.exit(main())
