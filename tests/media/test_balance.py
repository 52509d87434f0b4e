#!/usr/bin/env python3
"""history.csv's balance columns (integral, flux_<face>, flux_fixed_<i>) through the fdsolve
binary, against references computed here: the trapezoid rule of the source written out with
NumPy, the prescribed Neumann fluxes, and the analytic capacitance of a parallel-plate
capacitor with a graded dielectric.

    test_balance.py --fdsolve PATH --work DIR [--backend cpu|cuda] [--group NAME ...]

Groups: conservation (an insulated box with a source, and one heated through a face: the
integral rises by dt x (integral of q + inflow) every step, explicit, backward Euler and
Crank-Nicolson, constant stencil and flux form, 2D and 3D), steady (Dirichlet and mixed boxes:
the outward fluxes sum to the integral of f; Neumann faces carry their prescribed flux),
capacitor (the charge of a held electrode against 1 / trapz(1 / beta) to rounding and against
1 / ln 2 at second order). Exit 0 when every check passes, 1 when one fails, 77 (skip) when
NumPy, SciPy or h5py is missing or, with --backend cuda, when fdsolve sees no device."""

import csv
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True
sys.path.insert(0, HERE)
# test_media reports the skip (77) where NumPy, SciPy or h5py is missing.
import test_media as media  # noqa: E402  (run, check, weights)
import numpy as np  # noqa: E402

FACES = ["x_min", "x_max", "y_min", "y_max", "z_min", "z_max"]


def history(directory):
    """history.csv's rows as dicts of floats (empty cells left out)."""
    with open(os.path.join(directory, "out", "history.csv")) as f:
        return [{k: float(v) for k, v in row.items() if v != ""} for row in csv.DictReader(f)]


def nodes(points, extent):
    """Node coordinates (x, y(, z)) in C-order arrays, and the spacings."""
    h = [e / (n - 1) for n, e in zip(points, extent)]
    axes = [np.arange(n) * step for n, step in zip(points, h)]
    return list(reversed(np.meshgrid(*reversed(axes), indexing="ij"))), h


def trapezoid(values, h):
    """The trapezoid rule over every node: half weight per face a node lies on."""
    return float(np.sum(media.weights(values.shape) * values) * np.prod(h))


def harmonic(a, b):
    return 2 * a * b / (a + b)


def relative(a, b):
    return abs(a - b) / abs(b)


# ---------------------------------------------------------------------------------------------
# Conservation: d(integral)/dt against the integral of q (and a face's prescribed inflow)


def heat_case(points, extent, scheme, dt, steps, diffusivity, inflow_gradient=None):
    case = {"grid": {"points": list(points), "extent": list(extent)},
            "problem": {"equation": "heat", "diffusivity": diffusivity, "source": "1 + x*y"},
            "boundary": {"default": {"type": "neumann"}},
            "initial": 0,
            "time": {"scheme": scheme, "dt": dt, "end": steps * dt},
            "solve": {"check_every": 1, "tolerance": 1e-15, "absolute_tolerance": 0},
            "output": {"every": 0}}
    if scheme == "explicit":
        del case["solve"]["tolerance"], case["solve"]["absolute_tolerance"]
    if len(points) == 3:
        case["stencil"] = 7
    if inflow_gradient is not None:
        case["boundary"]["x_max"] = {"type": "neumann", "gradient": inflow_gradient}
    return case


def check_conservation(label, points, extent, scheme, dt, diffusivity, k_constant=None,
                       inflow_gradient=None, steps=8):
    xs, h = nodes(points, extent)
    q_integral = trapezoid(1 + xs[0] * xs[1], h)
    # The prescribed inflow through x_max: k g over the face's area (a constant k only).
    area = float(np.prod(extent[1:]))
    inflow = 0.0 if inflow_gradient is None else k_constant * inflow_gradient * area

    def body():
        name = label.replace(" ", "_").replace(",", "")
        case = heat_case(points, extent, scheme, dt, steps, diffusivity, inflow_gradient)
        _, _, directory = media.run("conservation", name, case)
        rows = history(directory)
        assert len(rows) >= steps, f"{len(rows)} rows"
        before = {"time": 0.0, "integral": 0.0}
        worst = 0.0
        for row in rows:
            step = row["time"] - before["time"]
            rise = row["integral"] - before["integral"]
            expected = step * (q_integral + inflow)
            worst = max(worst, relative(rise, expected))
            assert relative(rise, expected) < 1e-12, (
                f"iteration {row['iteration']:.0f}: the integral rose {rise!r}, "
                f"dt x (integral of q + inflow) = {expected!r}")
            for face in FACES[:2 * len(points)]:
                prescribed = -inflow if (face == "x_max" and inflow) else 0.0
                flux = row[f"flux_{face}"]
                assert (flux == prescribed if prescribed == 0 else
                        relative(flux, prescribed) < 1e-14), f"flux_{face} = {flux!r}"
            before = row
        print(f"      {label}: largest relative error of a step's rise {worst:.2e}")

    media.check(f"conservation: {label}", body)


def group_conservation():
    points2, extent2 = [17, 25], [1.0, 1.5]
    h2 = [e / (n - 1) for n, e in zip(points2, extent2)]
    k = 0.7
    explicit_dt = 0.4 / (k * sum(2 / s ** 2 for s in h2))  # below the stability limit
    for scheme, dt in (("explicit", explicit_dt), ("implicit", 5 * explicit_dt),
                       ("crank-nicolson", 5 * explicit_dt)):
        check_conservation(f"2D constant k, {scheme}", points2, extent2, scheme, dt, k)
        # A varying diffusivity runs the flux form (largest k 1.3).
        check_conservation(f"2D flux form, {scheme}", points2, extent2, scheme, dt / 1.3,
                           "1 + 0.3*sin(3*x)*y/1.5")
        check_conservation(f"2D heated through x_max, {scheme}", points2, extent2, scheme, dt,
                           k, k_constant=k, inflow_gradient=2.0)
    points3, extent3 = [9, 9, 13], [1.0, 1.0, 1.5]
    h3 = [e / (n - 1) for n, e in zip(points3, extent3)]
    dt3 = 0.4 / (k * sum(2 / s ** 2 for s in h3))
    for scheme, dt in (("explicit", dt3), ("implicit", 5 * dt3), ("crank-nicolson", 5 * dt3)):
        check_conservation(f"3D 7-point, {scheme}", points3, extent3, scheme, dt, k)


# ---------------------------------------------------------------------------------------------
# Steady: the outward fluxes sum to the integral of f


def check_steady(label, case, f_values, h, expect_faces=None):
    def body():
        _, _, directory = media.run("steady", label.split(":")[0].replace(" ", "_"), case)
        row = history(directory)[-1]
        fluxes = {k: v for k, v in row.items() if k.startswith("flux_")}
        total = sum(fluxes.values())
        source = trapezoid(f_values, h)
        assert relative(total, source) < 1e-10, (
            f"sum of the outward fluxes {total!r}, integral of f {source!r}: {fluxes}")
        for name, value in (expect_faces or {}).items():
            assert relative(fluxes[name], value) < 1e-10, f"{name} = {fluxes[name]!r}, {value!r}"
        print(f"      {label}: sum of fluxes - integral of f = {total - source:.2e} "
              f"(relative {relative(total, source):.2e})")

    media.check(f"steady: {label}", body)


def group_steady():
    # A Dirichlet box with f = 1: by symmetry each face takes a quarter of the integral.
    points = [33, 33]
    case = {"grid": {"points": points, "extent": [1.0, 1.0]},
            "problem": {"equation": "poisson", "source": 1},
            "boundary": {"default": {"type": "dirichlet", "value": 0}},
            "solve": {"method": "multigrid", "tolerance": 1e-13}}
    xs, h = nodes(points, [1.0, 1.0])
    check_steady("dirichlet box, multigrid: each face a quarter", case, np.ones(points[::-1]), h,
                 {f"flux_{face}": 0.25 for face in FACES[:4]})

    # Mixed faces, a coefficient field and a held disc (flux form, CG), f varying.
    points = [41, 33]
    extent = [1.25, 1.0]
    xs, h = nodes(points, extent)
    x, y = xs
    beta = 1 + x * y
    f = 2 + np.sin(3 * x) * y
    case = {"grid": {"points": points, "extent": extent},
            "problem": {"equation": "poisson", "source": "2 + sin(3*x)*y",
                        "coefficient": "1 + x*y",
                        "fixed": [{"where": "(x-0.6)^2 + (y-0.5)^2 < 0.02", "value": 2}]},
            "boundary": {"x_min": {"type": "dirichlet", "value": "y^2"},
                         "x_max": {"type": "dirichlet", "value": 1},
                         "y_min": {"type": "neumann", "gradient": 0.5},
                         "y_max": {"type": "neumann", "gradient": "-x"}},
            "solve": {"method": "multigrid", "tolerance": 1e-13}}
    # A Neumann face's outward flux: -beta_f g over the face by the trapezoid rule, beta_f the
    # face toward the node inside.
    w_x = np.ones(points[0])
    w_x[[0, -1]] = 0.5
    y_min = -float(np.sum(w_x * harmonic(beta[0], beta[1]) * 0.5) * h[0])
    y_max = -float(np.sum(w_x * harmonic(beta[-1], beta[-2]) * (-x[-1])) * h[0])
    check_steady("mixed faces, coefficient field, held disc", case, f, h,
                 {"flux_y_min": y_min, "flux_y_max": y_max})

    # 3D, 7 points, a constant coefficient of 2, Dirichlet and Neumann faces.
    points = [17, 17, 25]
    extent = [1.0, 1.0, 1.5]
    xs, h = nodes(points, extent)
    case = {"grid": {"points": points, "extent": extent}, "stencil": 7,
            "problem": {"equation": "poisson", "source": "1 + x*z", "coefficient": 2},
            "boundary": {"default": {"type": "dirichlet", "value": "x + y"},
                         "y_min": {"type": "neumann", "gradient": 0.25},
                         "z_max": {"type": "neumann", "gradient": 0}},
            "solve": {"method": "multigrid", "tolerance": 1e-13}}
    # y_min's flux: -2 x 0.25 over its area 1 x 1.5 (Dirichlet edges included: the face's
    # whole trapezoid rule).
    check_steady("3D 7-point, constant coefficient, mixed faces", case, 1 + xs[0] * xs[2], h,
                 {"flux_y_min": -2 * 0.25 * 1.5})


# ---------------------------------------------------------------------------------------------
# Capacitor: a held electrode's charge


def group_capacitor():
    # Plates held at 0 (y <= 0.125) and 1 (y >= 1.125), 1 apart, 1 wide (x faces insulated),
    # between them beta = 1 + (y - 0.125): C = 1 / integral of dy / beta = 1 / ln 2 per unit
    # width. The harmonic face means make the discrete C exactly 1 / trapz(1 / beta) over the
    # gap's nodes, second order close to 1 / ln 2.
    exact = 1 / math.log(2)
    errors = []
    sizes = [10, 20, 40, 80]  # intervals along y over 1.25

    def body():
        for intervals in sizes:
            points = [5, intervals + 1]
            case = {"grid": {"points": points, "extent": [1.0, 1.25]},
                    "problem": {"equation": "laplace", "coefficient": "1 + y - 0.125",
                                "fixed": [{"where": "y < 0.13", "value": 0},
                                          {"where": "y > 1.12", "value": 1}]},
                    "boundary": {"default": {"type": "neumann"},
                                 "y_min": {"type": "dirichlet", "value": 0},
                                 "y_max": {"type": "dirichlet", "value": 1}},
                    "solve": {"method": "multigrid", "tolerance": 1e-13}}
            _, _, directory = media.run("capacitor", f"plates_{intervals}", case)
            row = history(directory)[-1]
            # The top plate sends its charge into the domain: the flux out through it is -Q.
            charge = -row["flux_fixed_1"]
            h = 1.25 / intervals
            gap = np.arange(int(round(0.125 / h)), int(round(1.125 / h)) + 1) * h
            resistance = float(np.sum(media.weights(gap.shape) / (1 + gap - 0.125)) * h)
            assert relative(charge, 1 / resistance) < 1e-10, (
                f"{intervals}: Q = {charge!r}, 1 / trapz(1 / beta) = {1 / resistance!r}")
            assert relative(row["flux_fixed_0"], charge) < 1e-10, "the plates' charges differ"
            errors.append(abs(charge - exact))
        orders = [math.log2(a / b) for a, b in zip(errors, errors[1:])]
        print(f"      capacitance errors {['%.2e' % e for e in errors]}, orders "
              f"{['%.3f' % o for o in orders]}")
        assert all(1.95 < o < 2.05 for o in orders), orders

    media.check("capacitor: charge / voltage against 1 / ln 2, second order", body)


GROUPS = {"conservation": group_conservation, "steady": group_steady,
          "capacitor": group_capacitor}


def main():
    return media.backend_main(__doc__, GROUPS)


if __name__ == "__main__":
    sys.exit(main())
