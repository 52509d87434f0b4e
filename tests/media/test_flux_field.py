#!/usr/bin/env python3
"""The output field `flux` (-beta grad u at the nodes) through the fdsolve binary, against NumPy
applied to the same snapshot's u and coefficient fields with the documented rule
(docs/numerics.md, "The flux field"): per axis the mean of the two face fluxes
-beta_f (u_(i+1) - u_i) / h beside a node, the one interior face on a Dirichlet face, the
mirror's -beta_f x (the prescribed outward derivative) on a Neumann face, wrapped on a periodic
axis; and the .xmf's Vector attribute parsed as XML.

    test_flux_field.py --fdsolve PATH --work DIR [--backend cpu|cuda] [--group NAME ...]

Groups: numpy (2D and 3D, a constant and a varying coefficient, Dirichlet, Neumann with a
gradient, periodic faces, held nodes, cells sampling, heat), xmf. Exit 0 when every check
passes, 1 when one fails, 77 (skip) when NumPy, SciPy or h5py is missing or, with --backend
cuda, when fdsolve sees no device."""

import os
import sys
import xml.etree.ElementTree as ElementTree

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True
sys.path.insert(0, HERE)
# test_media reports the skip (77) where NumPy, SciPy or h5py is missing.
import test_media as media  # noqa: E402
import cell_scheme  # noqa: E402
import h5py  # noqa: E402
import numpy as np  # noqa: E402

AXES = "xyz"


def harmonic(a, b):
    return 2.0 * a * b / (a + b)


def node_faces(beta, periodic):
    """Per axis (x first) the face coefficient between node i and i + e_a, C-order arrays:
    the harmonic mean of the two node values (lower node first, as the operator forms them);
    the last entry wraps on a periodic axis and is unused otherwise."""
    dims = beta.ndim
    out = []
    for a in range(dims):
        axis = dims - 1 - a
        upper = np.roll(beta, -1, axis=axis)
        out.append(harmonic(beta, upper))
    return out


def reference_flux(u, faces, h, kinds, gradients):
    """-beta grad u at every node by the documented rule; gradients: face name -> array of the
    prescribed outward derivative over the whole grid's shape (read on that face's nodes)."""
    dims = u.ndim
    flux = np.zeros(u.shape + (dims,))
    for a in range(dims):
        axis = dims - 1 - a
        n = u.shape[axis]
        upper = np.roll(u, -1, axis=axis)
        q = -faces[a] * (upper - u) / h[a]  # the face above each node (wrapping)
        below = np.roll(q, 1, axis=axis)     # the face below
        value = 0.5 * (q + below)
        if kinds[a][0] != "periodic":
            for side in (0, 1):
                index = [slice(None)] * dims
                index[axis] = 0 if side == 0 else n - 1
                index = tuple(index)
                inner = [slice(None)] * dims
                inner[axis] = 0 if side == 0 else n - 2
                inner = tuple(inner)
                if kinds[a][side] == "neumann":
                    g = gradients[f"{AXES[a]}_{'min' if side == 0 else 'max'}"]
                    sign = 1.0 if side == 0 else -1.0
                    value[index] = sign * faces[a][inner] * g[index]
                else:
                    value[index] = q[inner]
        flux[..., a] = value
    return flux


def boundary_section(kinds, gradients_text):
    boundary = {}
    for a, (low, high) in enumerate(kinds):
        for side, kind in (("min", low), ("max", high)):
            face = f"{AXES[a]}_{side}"
            if kind == "dirichlet":
                boundary[face] = {"type": "dirichlet", "value": f"0.1*{AXES[a]}"}
            elif kind == "neumann":
                boundary[face] = {"type": "neumann", "gradient": gradients_text.get(face, 0)}
            else:
                boundary[face] = {"type": "periodic"}
    return boundary


def evaluate(text, coordinates):
    x = coordinates[0]
    y = coordinates[1]
    z = coordinates[2] if len(coordinates) == 3 else 0 * x
    return np.broadcast_to(eval(str(text), {"x": x, "y": y, "z": z, "np": np, "t": 0.0}),
                           x.shape).astype(float)


def check_flux(label, points, extent, kinds, problem, gradients_text=None, cells_beta=None,
               heat=False):
    gradients_text = gradients_text or {}
    dims = len(points)
    periodic = [k[0] == "periodic" for k in kinds]
    case = {"grid": {"points": list(points), "extent": list(extent)}, "problem": problem,
            "boundary": boundary_section(kinds, gradients_text),
            "output": {"fields": ["u", "coefficient", "flux"]}}
    if dims == 3:
        case["stencil"] = 7
    if heat:
        case["time"] = {"scheme": "implicit", "dt": 0.01, "end": 0.05}
        case["initial"] = "x*y"
    else:
        case["solve"] = {"tolerance": 1e-10}

    def body():
        name = label.replace(" ", "_").replace(",", "")
        _, _, directory = media.run("numpy", name, case)
        path = media.snapshots(directory, name)[-1][1]
        with h5py.File(path, "r") as h5:
            u = np.array(h5["u"], dtype=np.float64)
            beta = np.array(h5["coefficient"], dtype=np.float64)
            flux = np.array(h5["flux"], dtype=np.float64)
        assert flux.shape == u.shape + (dims,), f"flux has shape {flux.shape}"
        h = [e / (n if p else n - 1) for n, e, p in zip(points, extent, periodic)]
        if cells_beta is None:
            faces = node_faces(beta, periodic)
        else:
            (centres, _) = cell_scheme.cell_centres(points, extent, periodic)
            faces = cell_scheme.faces_from_cells(evaluate(cells_beta, centres), points, periodic)
        coordinates = media_nodes(points, extent, periodic)
        gradients = {face: evaluate(text, coordinates) for face, text in gradients_text.items()}
        for a in range(dims):
            for side in ("min", "max"):
                gradients.setdefault(f"{AXES[a]}_{side}", np.zeros(u.shape))
        reference = reference_flux(u, faces, h, kinds, gradients)
        scale = np.max(np.abs(reference))
        assert scale > 0, "the reference flux is zero everywhere"
        error = np.max(np.abs(flux - reference)) / scale
        assert error < 1e-12, f"max |flux - NumPy| / max |NumPy| = {error:.3e}"
        print(f"      relative max difference from NumPy {error:.1e} (largest |flux| {scale:.3g})")
    media.check(f"numpy: {label}", body)


def media_nodes(points, extent, periodic):
    axes = [np.arange(n) * (e / (n if p else n - 1)) for n, e, p in zip(points, extent, periodic)]
    return np.meshgrid(*axes[::-1], indexing="ij")[::-1]


def group_numpy():
    d, n, p = "dirichlet", "neumann", "periodic"
    check_flux("2D constant coefficient, Dirichlet", [17, 13], [1.0, 0.75], [(d, d), (d, d)],
               {"equation": "poisson", "source": "1 + x", "coefficient": 2.5})
    check_flux("2D varying coefficient, Neumann with gradients", [17, 13], [1.0, 0.75],
               [(n, d), (d, n)],
               {"equation": "poisson", "source": 1, "coefficient": "1 + 3*x*y + (x > 0.5)"},
               gradients_text={"x_min": "0.5 + y", "y_max": -0.25})
    check_flux("2D held disc, periodic y", [17, 16], [1.0, 1.0], [(d, n), (p, p)],
               {"equation": "poisson", "source": 1, "coefficient": "2 + sin(6*y)",
                "fixed": [{"where": "(x-0.5)^2 + (y-0.5)^2 < 0.02", "value": 0.3}]})
    check_flux("2D cells sampling", [17, 13], [1.0, 0.75], [(d, n), (n, d)],
               {"equation": "poisson", "source": 1, "coefficient": "x < 0.5 ? 1 : 20",
                "sampling": "cells"},
               gradients_text={"y_min": 0.3},
               cells_beta="np.where(x < 0.5, 1.0, 20.0)")
    check_flux("3D constant coefficient, Neumann and periodic", [9, 9, 8], [1.0, 1.0, 1.0],
               [(d, n), (n, d), (p, p)],
               {"equation": "poisson", "source": "x + z", "coefficient": 1},
               gradients_text={"x_max": "0.2*y", "y_min": -1})
    check_flux("3D varying coefficient, Dirichlet and Neumann", [9, 11, 9], [1.0, 1.25, 1.0],
               [(n, d), (d, d), (d, n)],
               {"equation": "poisson", "source": 1, "coefficient": "1 + x + 10*(z > 0.5)"},
               gradients_text={"x_min": "z"})
    check_flux("2D heat with a diffusivity field", [17, 17], [1.0, 1.0], [(d, n), (n, d)],
               {"equation": "heat", "source": 1, "diffusivity": "0.5 + x*y"}, heat=True)


def group_xmf():
    for dims in (2, 3):
        points = [9, 7] if dims == 2 else [9, 7, 5]
        case = {"grid": {"points": points}, "problem": {"equation": "poisson", "source": 1},
                "output": {"fields": ["u", "flux"], "precision": "float"}}
        if dims == 3:
            case["stencil"] = 7

        def body(case=case, dims=dims, points=points):
            name = f"vector_{dims}d"
            _, _, directory = media.run("xmf", name, case)
            tree = ElementTree.parse(os.path.join(directory, "out", f"{name}.xmf"))
            attributes = {a.get("Name"): a for a in tree.iter("Attribute")}
            assert set(attributes) == {"u", "flux"}, f"attributes {sorted(attributes)}"
            assert attributes["u"].get("AttributeType") == "Scalar"
            flux = attributes["flux"]
            assert flux.get("AttributeType") == "Vector", flux.get("AttributeType")
            assert flux.get("Center") == "Node"
            item = flux.find("DataItem")
            mesh = list(reversed(points)) if dims == 3 else [1] + list(reversed(points))
            expected = " ".join(str(v) for v in mesh + [dims])
            assert item.get("Dimensions") == expected, (
                f"Dimensions {item.get('Dimensions')!r}, expected {expected!r}")
            assert item.get("Precision") == "4"
            file_name, dataset = item.text.strip().split(":")
            with h5py.File(os.path.join(directory, "out", file_name), "r") as h5:
                data = h5[dataset]
                assert data.shape == tuple(reversed(points)) + (dims,), data.shape
                assert data.dtype == np.float32
        media.check(f"xmf {dims}D: flux is a Vector attribute of the snapshot's dataset", body)


GROUPS = {"numpy": group_numpy, "xmf": group_xmf}


if __name__ == "__main__":
    sys.exit(media.backend_main(__doc__, GROUPS))
