#!/usr/bin/env python3
"""A solve that reaches the best answer its precision allows says so (docs/numerics.md, "Norms
and convergence"): through the fdsolve binary on 129x129 grids, a tolerance below the rounding
floor ends as converged there (exit 0, summary.json at_rounding_floor with the residual and
the floor, within a factor 10 of each other in the max norm) with flux_scheme.solve's answer
(the SciPy direct solve); real non-convergence (max_iterations, a stall far above the floor)
still exits 3; a run started from its own converged answer (a warm start) ends at once.

    test_rounding_floor.py --fdsolve PATH --work DIR [--group NAME ...]

Groups: floor, float, far, warm, large (4097^2: registered for CUDA only). Exit 0 when every check passes, 1 when one fails, 77 (skip)
when NumPy, SciPy or h5py is missing."""

import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True
sys.path.insert(0, HERE)
# test_media reports the skip (77) where NumPy, SciPy or h5py is missing.
import test_media as media  # noqa: E402
import flux_scheme  # noqa: E402
import numpy as np  # noqa: E402

POINTS = [129, 129]
CHECKERBOARD = "mod(floor(4*x)+floor(4*y),2)==0 ? {} : 1"
INCLUSION = "abs(x-0.5) < 0.2 && abs(y-0.5) < 0.2 ? {} : 1"
_references = {}


def beta_of(kind, contrast):
    x, y = media.grid(POINTS)
    if kind == "checkerboard":
        inside = np.mod(np.floor(4 * x) + np.floor(4 * y), 2) == 0
    else:
        inside = (np.abs(x - 0.5) < 0.2) & (np.abs(y - 0.5) < 0.2)
    return np.where(inside, float(contrast), 1.0)


def reference(kind, contrast):
    """flux_scheme.solve of -div(beta grad u) = 1, u = 0 on the boundary (kept per medium)."""
    if (kind, contrast) not in _references:
        beta = beta_of(kind, contrast)
        _references[(kind, contrast)] = flux_scheme.solve(
            beta, np.ones(beta.shape), media.spacing(POINTS), [("dirichlet", "dirichlet")] * 2)
    return _references[(kind, contrast)]


def medium_case(kind, contrast, tolerance, precision="double", **solve):
    text = (CHECKERBOARD if kind == "checkerboard" else INCLUSION).format(contrast)
    case = media.steady(media.base(POINTS, "poisson", source=1, coefficient=text), "multigrid",
                        tolerance, **solve)
    case["precision"] = precision
    return case


def run(group, name, case, expect, args=()):
    """Runs the case; returns (summary, log, last /u, directory)."""
    _, log, directory = media.run(group, name, case, expect=expect, args=args)
    with open(os.path.join(directory, "out", "summary.json")) as f:
        summary = json.load(f)
    u = media.read_u(media.snapshots(directory, case.get("name", name))[-1][1])
    return summary, log, u, directory


def at_floor(summary, log):
    """The run converged at its rounding floor and said so; returns the max-norm ratio of the
    residual where it stopped to the floor."""
    assert summary["status"] == "converged", summary["status"]
    assert summary["at_rounding_floor"] is True, summary.get("rounding_floor")
    floor = summary["rounding_floor"]
    ratio = floor["residual_linf"] / floor["floor"]
    assert 0.1 <= ratio <= 10, f"stopped at {ratio:.3g} x the floor"
    assert floor["residual"] > floor["target"], floor
    assert "converged at the rounding floor" in log, log[-2000:]
    assert "lies below the estimated rounding floor" in log, log[-3000:]
    return ratio


def group_floor():
    cases = [("checkerboard", "1e6", "auto", 1e-8), ("checkerboard", "1e6", "auto", 1e-10),
             ("inclusion", "1e4", "auto", 1e-10), ("inclusion", "1e4", "none", 1e-10)]
    for kind, contrast, krylov, tolerance in cases:
        def body(kind=kind, contrast=contrast, krylov=krylov, tolerance=tolerance):
            name = f"{kind}_{contrast}_{krylov}_{tolerance:g}"
            summary, log, u, _ = run("floor", name, medium_case(kind, contrast, tolerance,
                                                                krylov=krylov), 0)
            ratio = at_floor(summary, log)
            error = media.relative_max(u, reference(kind, float(contrast)))
            print(f"      {name}: {summary['iterations']} iterations, stopped at {ratio:.2f} x "
                  f"the floor, {error:.2e} from the direct solve")
            assert error < 1e-8, f"relative max difference {error:.3e}"
        media.check(f"floor: {kind} {contrast} (krylov {krylov}) at tolerance {tolerance:g} "
                    "converges at the floor with the direct solve's answer", body)

    def check_warns():
        directory = os.path.join(media.WORK, "floor", "check")
        os.makedirs(directory, exist_ok=True)
        with open(os.path.join(directory, "case.yaml"), "w") as f:
            f.write(media.yaml_text(dict(medium_case("checkerboard", "1e6", 1e-8), name="c")))
        p = subprocess.run([media.FDSOLVE, "check", "case.yaml"], cwd=directory, text=True,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=60)
        assert p.returncode == 0, p.stdout[-2000:]
        assert "# warning: solve.tolerance 1e-08 lies below the estimated rounding floor" in \
            p.stdout, p.stdout[-2000:]
    media.check("floor: check warns of a tolerance below the estimated floor", check_warns)


def group_float():
    def medium():
        summary, log, u, _ = run("float", "checkerboard_100", medium_case(
            "checkerboard", "100", 1e-8, "float"), 0)
        ratio = at_floor(summary, log)
        error = media.relative_max(u, reference("checkerboard", 100.0))
        print(f"      float checkerboard 100: stopped at {ratio:.2f} x the floor, {error:.2e} "
              "from the direct solve")
        assert error < 1e-4, f"relative max difference {error:.3e}"
    media.check("float: checkerboard 100 by CG at 1e-8 converges at float's floor", medium)

    def constant():
        case = media.steady(media.base(POINTS, "poisson", source=1), "multigrid", 1e-8)
        case["precision"] = "float"
        summary, log, u, _ = run("float", "poisson", case, 0)
        ratio = at_floor(summary, log)
        error = media.relative_max(u, reference("checkerboard", 1.0))
        print(f"      float poisson: stopped at {ratio:.2f} x the floor, {error:.2e} from the "
              "direct solve")
        assert error < 1e-4, f"relative max difference {error:.3e}"
    media.check("float: constant-coefficient multigrid at 1e-8 converges at float's floor",
                constant)


def group_far():
    def far(name, case, status, at_least):
        summary, _, _, _ = run("far", name, case, 3)
        assert summary["status"] == status, summary["status"]
        assert summary["at_rounding_floor"] is False
        if at_least is not None:
            floor = summary["rounding_floor"]
            assert floor["residual_linf"] > at_least * floor["floor"], floor
            assert "far above rounding" in summary["stop_reason"], summary["stop_reason"]

    media.check("far: Jacobi at max_iterations far above the floor exits 3",
                lambda: far("jacobi", media.steady(media.base(POINTS, "poisson", source=1),
                                                   "jacobi", 1e-8, max_iterations=200),
                            "max_iterations", None))
    media.check("far: multigrid at max_iterations far above the floor exits 3",
                lambda: far("multigrid_max", medium_case("inclusion", "1e4", 1e-10,
                                                         krylov="none", max_iterations=3),
                            "max_iterations", None))
    # Multigrid cycles alone do not converge on the checkerboard at 1e6: they stall 1e8 x
    # above the floor.
    media.check("far: multigrid stalled far above the floor exits 3 as stalled",
                lambda: far("multigrid_stall", medium_case("checkerboard", "1e6", 1e-8,
                                                           krylov="none"), "stalled", 1e3))


def group_warm():
    cases = {
        "multigrid": media.steady(media.base(POINTS, "poisson", source="sin(3*x) + 1"),
                                  "multigrid", 1e-10),
        "cg": medium_case("checkerboard", "100", 1e-10),
        "flux_multigrid": medium_case("inclusion", "100", 1e-10, krylov="none"),
    }
    for label, case in cases.items():
        def body(label=label, case=case):
            cold, _, u_cold, directory = run("warm", f"{label}_cold", case, 0)
            assert cold["at_rounding_floor"] is False
            snapshot = media.snapshots(directory, f"{label}_cold")[-1][1]
            warm_case = dict(case, initial={"file": snapshot, "dataset": "/u"})
            warm, _, u_warm, _ = run("warm", f"{label}_warm", warm_case, 0)
            print(f"      {label}: cold {cold['iterations']} iterations, warm "
                  f"{warm['iterations']}")
            assert warm["status"] == "converged", warm["status"]
            assert warm["iterations"] <= 2, warm["iterations"]
            # The reference is the start from 0's: the data's residual.
            assert warm["first_norm"] == cold["first_norm"], (warm["first_norm"],
                                                              cold["first_norm"])
            change = media.relative_max(u_warm, u_cold)
            assert change < 1e-9, f"the warm run moved u by {change:.3e}"
        media.check(f"warm: {label} from its converged snapshot converges within 2 iterations",
                    body)

    def from_floor():
        case = medium_case("checkerboard", "1e6", 1e-8)
        cold, _, _, directory = run("warm", "floor_cold", case, 0)
        assert cold["at_rounding_floor"] is True
        snapshot = media.snapshots(directory, "floor_cold")[-1][1]
        warm, log, u, _ = run("warm", "floor_warm", dict(case, initial={"file": snapshot,
                                                                         "dataset": "/u"}), 0)
        print(f"      from the floor: warm {warm['iterations']} iterations")
        at_floor(warm, log)
        # Its start lies at the floor, above the target: the stall rule decides, at the latest
        # after 25 iterations without progress (KrylovStall); the floor test ends it sooner.
        assert warm["iterations"] <= 26, warm["iterations"]
        error = media.relative_max(u, reference("checkerboard", 1e6))
        assert error < 1e-8, f"relative max difference {error:.3e}"
    media.check("warm: CG from an answer at the rounding floor converges there again",
                from_floor)


def group_large():
    """The checkerboard at contrast 1e6 on 4097^2, where CG's residual climbs by orders of
    magnitude before it falls (numerics.md, "Conjugate gradients"): the run converges at the
    rounding floor on the backend under test, with the CPU backend's answer (all its threads)."""
    def body():
        case = dict(medium_case("checkerboard", "1e6", 1e-8), name="large")
        case["grid"]["points"] = [4097, 4097]
        case["solve"]["max_iterations"] = 100
        summary, log, u, _ = run("large", media.BACKEND, case, 0)
        at_floor(summary, log)
        backend = media.BACKEND
        media.BACKEND = "cpu"
        threads = os.environ.pop("OMP_NUM_THREADS", None)
        try:
            cpu, _, reference_u, _ = run("large", "cpu_reference", case, 0)
        finally:
            media.BACKEND = backend
            if threads is not None:
                os.environ["OMP_NUM_THREADS"] = threads
        error = media.relative_max(u, reference_u)
        print(f"      4097^2: {summary['iterations']} iterations on {backend}, "
              f"{cpu['iterations']} on the CPU, {error:.2e} apart")
        assert error < 1e-7, f"relative max difference {error:.3e}"
    media.check("large: checkerboard 1e6 at 4097^2 by CG converges at the floor with the "
                "CPU backend's answer", body)


def main():
    return media.backend_main(__doc__, {"floor": group_floor, "float": group_float,
                                        "far": group_far, "warm": group_warm,
                                        "large": group_large})


if __name__ == "__main__":
    sys.exit(main())
