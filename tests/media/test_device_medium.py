#!/usr/bin/env python3
"""The medium evaluated where the fields live: on a double CUDA run the coefficient, the
capacity and the held regions' masks and values are compiled formulas run on the device; the
CPU backend evaluates the same formulas on the host. Both against NumPy's evaluation of the
formulas at the nodes and against each other:

    test_device_medium.py --fdsolve PATH --work DIR --backend cuda [--group NAME ...]

Groups: values (the coefficient and capacity output fields within 4 ulps of NumPy on both
backends, the fixed mask equal to NumPy's and between the backends, the held nodes' values in u
within 4 ulps of NumPy, the solutions within 1e-9 of each other), errors (a coefficient that is
not > 0, one that is NaN and a NaN region mask: the same exit code 2 and the same message on
both backends). With --backend cpu the groups compare the CPU against NumPy alone. Exit 0 when
every check passes, 1 when one fails, 77 (skip) when NumPy, SciPy or h5py is missing or, with
--backend cuda, when fdsolve sees no device."""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True
sys.path.insert(0, HERE)
# test_media reports the skip (77) where NumPy, SciPy or h5py is missing.
import test_media as media  # noqa: E402  (run, snapshots, read_u, check)
import h5py  # noqa: E402
import numpy as np  # noqa: E402

POINTS = [25, 21, 17]
COEFFICIENT = "1 + 0.5*sin(3*x)*exp(y) + (z > 0.5 ? 4 : 0)"
CAPACITY = "2 + cos(2*x*y) + z^2"
WHERE = "(x-0.5)^2 + (y-0.45)^2 + (z-0.4)^2 < 0.04"
VALUE = "0.25 + x*y*exp(-z)"
ULPS = 4 * np.finfo(np.float64).eps


def backends():
    return ("cpu", "cuda") if media.BACKEND == "cuda" else ("cpu",)


def fields(directory, name):
    path = media.snapshots(directory, name)[-1][1]
    with h5py.File(path, "r") as h5:
        found = {k: np.array(h5[k], dtype=np.float64) for k in h5.keys()
                 if isinstance(h5[k], h5py.Dataset) and h5[k].dtype.kind in "fu"}
        if "fixed" in h5:  # the held-node mask is stored as one byte a node
            assert h5["fixed"].dtype == np.uint8, f"fixed stored as {h5['fixed'].dtype}"
        return found


def run_on(backend, group, name, case, expect=0):
    saved = media.BACKEND
    try:
        media.BACKEND = backend
        return media.run(group, f"{name}_{backend}", dict(case, name=name), expect=expect)
    finally:
        media.BACKEND = saved


def nodes():
    x, y, z = media.grid(POINTS)
    return x, y, z


def relative(a, b):
    return float(np.max(np.abs(a - b) / np.abs(b)))


def group_values():
    x, y, z = nodes()
    beta = 1 + 0.5 * np.sin(3 * x) * np.exp(y) + np.where(z > 0.5, 4.0, 0.0)
    cap = 2 + np.cos(2 * x * y) + z ** 2
    inside = (x - 0.5) ** 2 + (y - 0.45) ** 2 + (z - 0.4) ** 2 < 0.04
    held = inside.copy()  # no region node lies on the Dirichlet faces here
    value = 0.25 + x * y * np.exp(-z)

    steady = {"grid": {"points": POINTS, "extent": [1, 1, 1]},
              "problem": {"equation": "poisson", "source": 1, "coefficient": COEFFICIENT,
                          "fixed": [{"where": WHERE, "value": VALUE}]},
              "solve": {"method": "multigrid", "tolerance": 1e-11},
              "output": {"fields": ["u", "coefficient", "fixed"]}}

    def body_steady():
        results = {}
        for backend in backends():
            _, _, directory = run_on(backend, "values", "steady", steady)
            f = fields(directory, "steady")
            assert relative(f["coefficient"], beta) <= ULPS, \
                f"{backend}: coefficient {relative(f['coefficient'], beta):.2e} from NumPy"
            assert np.array_equal(f["fixed"] != 0, held), \
                f"{backend}: {int(np.sum((f['fixed'] != 0) != held))} nodes held differently"
            assert relative(f["u"][held], value[held]) <= ULPS, \
                f"{backend}: held values {relative(f['u'][held], value[held]):.2e} from NumPy"
            results[backend] = f
        if "cuda" in results:
            a, b = results["cpu"], results["cuda"]
            assert np.array_equal(a["fixed"], b["fixed"]), "the backends hold different nodes"
            diff = float(np.max(np.abs(a["u"] - b["u"])) / np.max(np.abs(a["u"])))
            assert diff <= 1e-9, f"CPU and CUDA solutions differ by {diff:.2e} (relative)"
            print(f"      CPU - CUDA: u {diff:.2e}, coefficient "
                  f"{relative(b['coefficient'], a['coefficient']):.2e}")
    media.check("values: coefficient, mask and held values of a steady solve", body_steady)

    heat = {"grid": {"points": POINTS, "extent": [1, 1, 1]},
            "problem": {"equation": "heat", "diffusivity": COEFFICIENT, "capacity": CAPACITY},
            "boundary": {"default": {"type": "dirichlet", "value": 0}},
            "initial": "sin(pi*x)*sin(pi*y)*sin(pi*z)",
            "time": {"end": 2e-3, "dt": 1e-3, "scheme": "implicit"},
            "output": {"fields": ["u", "coefficient", "capacity"]}}

    def body_heat():
        for backend in backends():
            _, _, directory = run_on(backend, "values", "heat", heat)
            f = fields(directory, "heat")
            assert relative(f["capacity"], cap) <= ULPS, \
                f"{backend}: capacity {relative(f['capacity'], cap):.2e} from NumPy"
            assert relative(f["coefficient"], beta) <= ULPS, \
                f"{backend}: diffusivity {relative(f['coefficient'], beta):.2e} from NumPy"
    media.check("values: diffusivity and capacity of an implicit heat run", body_heat)


def group_errors():
    cases = {
        "negative": ({"coefficient": "x < 0.5 ? 1 : -1"}, "problem.coefficient"),
        "nan": ({"coefficient": "1 + log(x - 0.3)"}, "problem.coefficient"),
        "mask": ({"fixed": [{"where": "sqrt(x - 0.3)", "value": 1}]},
                 "problem.fixed[0].where"),
    }
    for label, (problem, key) in cases.items():
        def body(problem=problem, key=key, label=label):
            case = {"grid": {"points": POINTS, "extent": [1, 1, 1]},
                    "problem": dict({"equation": "poisson", "source": 1}, **problem)}
            messages = {}
            for backend in backends():
                _, log, _ = run_on(backend, "errors", label, case, expect=2)
                lines = [line for line in log.splitlines() if key in line]
                assert lines, f"{backend}: no line names {key}:\n{log[-1500:]}"
                messages[backend] = lines[0].split(key, 1)[1]
            if "cuda" in messages:
                assert messages["cpu"] == messages["cuda"], \
                    f"the messages differ:\n  cpu:  {messages['cpu']}\n  cuda: {messages['cuda']}"
            print(f"      {key}{messages['cpu']}")
        media.check(f"errors: {label} ({key}) named at the same node", body)


GROUPS = {"values": group_values, "errors": group_errors}


def main():
    return media.backend_main(__doc__, GROUPS)


if __name__ == "__main__":
    sys.exit(main())
