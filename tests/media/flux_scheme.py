"""An independent statement of fdsolve's variable-coefficient scheme (docs/numerics.md,
"Variable coefficients"), assembled as a SciPy sparse matrix: node-centred flux form on the
5-point (2D) and 7-point (3D) stencils, face coefficients the harmonic means of the node values,
Dirichlet faces and held nodes as fixed values, Neumann faces by mirrored ghosts (the value and
the coefficient), periodic axes wrapped. Used by the tests as the reference direct solve."""

import numpy as np
import scipy.sparse as sp
import scipy.sparse.linalg as spla


def harmonic(a, b):
    return 2.0 * a * b / (a + b)


def solve(beta, f, h, faces, held=None, fixed=None, boundary=None, alpha=0.0, scale=1.0):
    """Solves (alpha I + scale A) u = f on the grid of `beta` (shape (nz,) ny, nx, C order).

    faces: per axis (x, y, z) a pair of 'dirichlet' | 'neumann' | 'periodic'.
    boundary: the values of u on Dirichlet and held nodes (array of beta's shape; default 0).
    held: boolean array of held nodes (None: none). Returns u with the fixed values in place."""
    shape = beta.shape
    dims = len(shape)
    n = shape[::-1]  # nodes per axis, x first
    size = beta.size
    fixed_mask = np.zeros(shape, dtype=bool)
    for a in range(dims):
        for side in (0, 1):
            if faces[a][side] == "dirichlet":
                index = [slice(None)] * dims
                index[dims - 1 - a] = 0 if side == 0 else n[a] - 1
                fixed_mask[tuple(index)] = True
    if held is not None:
        fixed_mask |= held
    values = np.zeros(shape) if boundary is None else boundary.astype(float)
    flat = np.arange(size).reshape(shape)
    rows, cols, data = [], [], []
    rhs = f.astype(float).ravel().copy()
    for idx in np.ndindex(*shape):
        i = flat[idx]
        if fixed_mask[idx]:
            rows.append(i), cols.append(i), data.append(1.0)
            rhs[i] = values[idx]
            continue
        diag = alpha
        for a in range(dims):
            axis = dims - 1 - a
            c = scale / h[a] ** 2
            for step in (-1, 1):
                q = list(idx)
                q[axis] += step
                if q[axis] < 0 or q[axis] >= n[a]:
                    kind = faces[a][0 if q[axis] < 0 else 1]
                    if kind == "periodic":
                        q[axis] %= n[a]
                    elif kind == "neumann":
                        q[axis] = idx[axis] - step  # the mirrored ghost: value and coefficient
                    else:
                        raise AssertionError("a Dirichlet node is never updated")
                q = tuple(q)
                w = c * harmonic(beta[idx], beta[q])
                diag += w
                j = flat[q]
                if fixed_mask[q]:
                    rhs[i] += w * values[q]
                else:
                    rows.append(i), cols.append(j), data.append(-w)
        rows.append(i), cols.append(i), data.append(diag)
    a = sp.csr_matrix((data, (rows, cols)), shape=(size, size))
    return spla.spsolve(a.tocsc(), rhs).reshape(shape)
