#!/usr/bin/env python3
"""Float cycles in a double solve on the flux form (solve.multigrid.precision: float with a
coefficient field and held nodes) through the fdsolve binary: each answer against
flux_scheme.solve (an independent SciPy direct solve of the same scheme) and against the same
run with double cycles, which it must match to the double solve's own accuracy.

    test_float_cycles.py --fdsolve PATH --work DIR [--backend cpu|cuda]

Exit 0 when every check passes, 1 when one fails, 77 (skip) when NumPy, SciPy or h5py is
missing or, with --backend cuda, when fdsolve sees no device."""

import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True
sys.path.insert(0, HERE)
# test_media reports the skip (77) where NumPy, SciPy or h5py is missing.
import test_media as media  # noqa: E402
import flux_scheme  # noqa: E402
import numpy as np  # noqa: E402


def solve_both(name, case):
    """The case solved with double cycles and with float cycles: (u_double, u_float,
    iterations_double, iterations_float)."""
    out = []
    for precision in ("same", "float"):
        c = dict(case, solve=dict(case["solve"], multigrid={"precision": precision}))
        _, log, directory = media.run("float", f"{name}_{precision}", c)
        # The run says which cycles it took: float ones only where asked.
        assert ("float multigrid" in log) == (precision == "float"), log[-2000:]
        with open(os.path.join(directory, "out", "summary.json")) as f:
            summary = json.load(f)
        assert summary["converged"], f"{name} ({precision} cycles) did not converge"
        snap = media.snapshots(directory, c.get("name", f"{name}_{precision}"))[-1][1]
        out.append((media.read_u(snap), summary["iterations"]))
    return out[0][0], out[1][0], out[0][1], out[1][1]


def compare(name, case, reference, krylov_slack=2):
    u_double, u_float, it_double, it_float = solve_both(name, case)
    to_reference = media.relative_max(u_float, reference)
    to_double = media.relative_max(u_float, u_double)
    print(f"      {name}: float cycles {it_float} iterations, double {it_double}; "
          f"to the direct solve {to_reference:.2e}, to double cycles {to_double:.2e}")
    assert to_reference < 1e-8, f"float cycles vs direct solve {to_reference:.3e}"
    assert to_double < 1e-8, f"float cycles vs double cycles {to_double:.3e}"
    # Float's rounding in the preconditioner may cost an iteration or two, not the rate.
    assert it_float <= it_double + krylov_slack, f"{it_float} iterations against {it_double}"


def checks():
    dirichlet2 = [("dirichlet", "dirichlet")] * 2

    def disc_2d():
        points = [129, 129]
        x, y = media.grid(points)
        disc = (x - 0.3) ** 2 + (y - 0.6) ** 2 < 0.02
        beta = np.where(x < 0.5, 1.0, 100.0)
        case = media.steady(media.base(points, "poisson", source=1,
                                       coefficient="x < 0.5 ? 1 : 100",
                                       fixed=[{"where": "(x-0.3)^2+(y-0.6)^2 < 0.02",
                                               "value": 1}]), "multigrid", 1e-10)
        reference = flux_scheme.solve(beta, np.ones(beta.shape), media.spacing(points),
                                      dirichlet2, held=disc, boundary=disc.astype(float))
        compare("disc_2d", case, reference)
    media.check("float cycles: 2D beta 1 | 100 with a held disc, CG, against the direct solve",
                disc_2d)

    def stationary_2d():
        points = [65, 65]
        x, y = media.grid(points)
        beta = 1.0 + 0.5 * np.sin(2 * np.pi * x) * np.cos(np.pi * y)
        case = media.steady(media.base(points, "poisson", source=1,
                                       coefficient="1 + 0.5*sin(2*pi*x)*cos(pi*y)"),
                            "multigrid", 1e-10, krylov="none")
        reference = flux_scheme.solve(beta, np.ones(beta.shape), media.spacing(points),
                                      dirichlet2)
        compare("stationary_2d", case, reference)
    media.check("float cycles: 2D smooth coefficient, stationary cycles, against the direct "
                "solve", stationary_2d)

    def sphere_3d():
        points = [17, 17, 17]
        x, y, z = media.grid(points)
        sphere = (x - 0.5) ** 2 + (y - 0.5) ** 2 + (z - 0.5) ** 2 < 0.06
        beta = np.where(z < 0.5, 1.0, 10.0)
        case = media.steady(media.base(points, "poisson", source=1,
                                       coefficient="z < 0.5 ? 1 : 10",
                                       fixed=[{"where": "(x-0.5)^2+(y-0.5)^2+(z-0.5)^2 < 0.06",
                                               "value": 0.5}]), "multigrid", 1e-10)
        case["boundary"] = {"x_min": {"type": "neumann", "gradient": 0}}
        faces = [("neumann", "dirichlet"), ("dirichlet", "dirichlet"), ("dirichlet", "dirichlet")]
        reference = flux_scheme.solve(beta, np.ones(beta.shape), media.spacing(points), faces,
                                      held=sphere, boundary=0.5 * sphere)
        compare("sphere_3d", case, reference)
    media.check("float cycles: 3D beta 1 | 10 with a held sphere and a Neumann face, CG, "
                "against the direct solve", sphere_3d)


def main():
    return media.backend_main(__doc__, {"float": checks})


if __name__ == "__main__":
    sys.exit(main())
