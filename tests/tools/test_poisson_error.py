#!/usr/bin/env python3
"""tools/poisson_error.py against hand-made snapshots: the exact solution with one interior node
off by 1e-3 gives max 1e-3 and rms 1e-3 / sqrt(interior nodes), in 2D and 3D; the boundary
nodes do not count. Skips (77) without NumPy and h5py."""
import math
import os
import subprocess
import sys
import tempfile

try:
    import h5py
    import numpy as np
except ImportError:
    print("SKIP: this Python has no numpy or h5py")
    sys.exit(77)

tool = os.path.join(sys.argv[1], "poisson_error.py")


def exact(shape):
    axes = np.meshgrid(*[np.arange(n) / (n - 1) for n in shape], indexing="ij")
    # shape is (z, y, x) or (y, x): x is the last array axis
    u = np.exp(sum(axes))
    for a in axes:
        u = u * np.sin(np.pi * a)
    return u


failures = 0
with tempfile.TemporaryDirectory() as d:
    for shape in [(17, 33), (9, 9, 17)]:
        u = exact(shape)
        node = tuple(n // 2 for n in shape)
        u[node] += 1e-3
        u[(0,) * len(shape)] += 5.0  # a boundary node: not counted
        path = os.path.join(d, f"u{len(shape)}.h5")
        with h5py.File(path, "w") as f:
            f["u"] = u
        out = subprocess.run([sys.executable, tool, path], capture_output=True, text=True,
                             check=True).stdout.split()
        rms, mx = float(out[1]), float(out[3])
        interior = math.prod(n - 2 for n in shape)
        want_rms = 1e-3 / math.sqrt(interior)
        ok = abs(mx - 1e-3) < 1e-7 and abs(rms - want_rms) < 1e-4 * want_rms
        print(f"{shape}: rms {rms:.4e} (want {want_rms:.4e}), max {mx:.4e} (want 1e-3)"
              f" {'ok' if ok else 'WRONG'}")
        failures += not ok
sys.exit(1 if failures else 0)
