"""An independent statement of fdsolve's scheme with problem.sampling: cells (docs/numerics.md,
"Where materials are sampled"): cell centres, a face's coefficient as the harmonic mean of the
cells beside it, and the node-centred flux form with those faces assembled as a SciPy sparse
matrix (Dirichlet faces and held nodes as fixed values, Neumann faces by the mirrored ghost,
periodic axes wrapped). Used by test_sampling.py and test_flux_field.py as the reference."""

import numpy as np
import scipy.sparse as sp
import scipy.sparse.linalg as spla


def cell_centres(points, extent, periodic):
    """Cell-centre coordinates (x, y(, z)) as C-order arrays over the cells, and the cells per
    axis (x first): points - 1 on an axis that is not periodic, points on a periodic one."""
    cells, axes = [], []
    for n, e, p in zip(points, extent, periodic):
        h = e / n if p else e / (n - 1)
        m = n if p else n - 1
        cells.append(m)
        axes.append((np.arange(m) + 0.5) * h)
    mesh = np.meshgrid(*axes[::-1], indexing="ij")
    return mesh[::-1], cells


def cell_face(cells, periodic, a, node):
    """The face between `node` (x first) and node + e_a: the harmonic mean of the cells beside
    it, the value itself where they are equal."""
    dims = cells.ndim
    m = cells.shape[::-1]  # cells per axis, x first
    choices = []
    for b in range(dims):
        if b == a:
            choices.append([node[b] % m[b]])
            continue
        around = []
        for q in (node[b] - 1, node[b]):
            if periodic[b]:
                around.append(q % m[b])
            elif 0 <= q < m[b]:
                around.append(q)
        choices.append(around)
    values = [cells[tuple(reversed(idx))] for idx in np.ndindex(*[len(c) for c in choices])
              for idx in [tuple(choices[b][idx[b]] for b in range(dims))]]
    if all(v == values[0] for v in values):
        return values[0]
    return len(values) / sum(1.0 / v for v in values)


def faces_from_cells(cells, points, periodic):
    """Per axis the face array over the nodes (C order): face[a][node] couples node and
    node + e_a (the wrap on a periodic axis; unused past the last node otherwise)."""
    dims = len(points)
    shape = tuple(points[::-1])
    out = []
    for a in range(dims):
        f = np.zeros(shape)
        for idx in np.ndindex(*shape):
            node = list(reversed(idx))
            if node[a] >= points[a] - 1 and not periodic[a]:
                node[a] = points[a] - 2  # the mirror's face (read only at a Neumann face)
            f[idx] = cell_face(cells, periodic, a, node)
        out.append(f)
    return out


def solve_faces(faces, f, h, kinds, boundary=None, held=None, alpha=0.0):
    """Solves (alpha I + A) u = f, (A u)_i = sum over neighbours of face (u_i - u_nb) / h_a^2, Dirichlet
    faces and held nodes at `boundary`, Neumann faces by the mirrored ghost (the face of the
    mirror), periodic axes wrapped. kinds: per axis a pair of dirichlet | neumann | periodic."""
    shape = f.shape
    dims = len(shape)
    n = shape[::-1]
    fixed = np.zeros(shape, dtype=bool)
    for a in range(dims):
        for side in (0, 1):
            if kinds[a][side] == "dirichlet":
                index = [slice(None)] * dims
                index[dims - 1 - a] = 0 if side == 0 else n[a] - 1
                fixed[tuple(index)] = True
    if held is not None:
        fixed |= held
    values = np.zeros(shape) if boundary is None else boundary.astype(float)
    flat = np.arange(f.size).reshape(shape)
    rows, cols, data = [], [], []
    rhs = f.astype(float).ravel().copy()
    for idx in np.ndindex(*shape):
        i = flat[idx]
        if fixed[idx]:
            rows.append(i), cols.append(i), data.append(1.0)
            rhs[i] = values[idx]
            continue
        diag = alpha
        for a in range(dims):
            axis = dims - 1 - a
            for step in (-1, 1):
                q = list(idx)
                q[axis] += step
                lower = list(idx)
                if step < 0:
                    lower[axis] -= 1
                if q[axis] < 0 or q[axis] >= n[a]:
                    kind = kinds[a][0 if q[axis] < 0 else 1]
                    if kind == "periodic":
                        q[axis] %= n[a]
                        lower[axis] %= n[a]
                    elif kind == "neumann":
                        q[axis] = idx[axis] - step
                        lower[axis] = 0 if step < 0 else n[a] - 2
                    else:
                        raise AssertionError("a Dirichlet node is never updated")
                w = faces[a][tuple(lower)] / h[a] ** 2
                diag += w
                q = tuple(q)
                if fixed[q]:
                    rhs[i] += w * values[q]
                else:
                    rows.append(i), cols.append(flat[q]), data.append(-w)
        rows.append(i), cols.append(i), data.append(diag)
    a = sp.csr_matrix((data, (rows, cols)), shape=(f.size, f.size))
    return spla.spsolve(a.tocsc(), rhs).reshape(shape)
