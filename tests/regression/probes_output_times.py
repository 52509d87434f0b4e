#!/usr/bin/env python3
"""Probes (output.probes) and heat's output at physical times (output.interval, output.times)
through the fdsolve binary on the CPU, checked with NumPy reading the snapshots:

  --group probes: probes.csv has a row at every check and every snapshot, each iteration once; a
      probe on a node equals the snapshot's node bit for bit, one elsewhere the bilinear
      (trilinear) interpolation of the snapshot's nodes computed here; 2D multigrid, 3D Jacobi
      in float, explicit heat. A run stopped at an earlier time.end and resumed to the later one
      ends with the probes.csv of a run never stopped; a case with other probes cannot resume.
  --group times: explicit, backward-Euler and Crank-Nicolson runs of one case write snapshots at
      exactly the listed times, t = 0 first and equal to the initial state; each agrees with the
      exact solution u = 1 - x + exp(-pi^2 t) sin(pi x) to the discretization error.

Usage: probes_output_times.py --fdsolve FDSOLVE --work DIR --group probes|times
Exit 77 (a skip) without numpy and h5py.
"""
import argparse
import csv
import glob
import os
import shutil
import subprocess
import sys

try:
    import h5py
    import numpy as np
except ImportError as missing:
    print(f"SKIP: {missing}")
    sys.exit(77)

FAILURES = []


def fail(message):
    print("FAIL:", message)
    FAILURES.append(message)


def run(fdsolve, args, expect=0):
    env = dict(os.environ, OMP_NUM_THREADS="1")
    done = subprocess.run([fdsolve, *args, "--backend", "cpu", "--quiet"], env=env,
                          capture_output=True, text=True)
    if done.returncode != expect:
        fail(f"fdsolve {' '.join(args)} exited {done.returncode}, expected {expect}\n"
             f"{done.stdout}{done.stderr}")
    return done


def snapshots(directory):
    """(time, iteration, u) of every snapshot in the directory, by iteration."""
    result = []
    for path in sorted(glob.glob(os.path.join(directory, "*_[0-9]*.h5"))):
        with h5py.File(path, "r") as f:
            result.append((float(f.attrs["time"]), int(f.attrs["iteration"]),
                           np.asarray(f["u"][...], dtype=np.float64),
                           np.asarray(f.attrs["origin"]), np.asarray(f.attrs["spacing"])))
    return sorted(result, key=lambda s: s[1])


def read_csv(path):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    return rows[0], rows[1:]


def interpolate(u, origin, spacing, point):
    """Multilinear interpolation of u ([ny][nx] or [nz][ny][nx], x fastest) at `point`."""
    dims = len(point)
    shape = u.shape[::-1]  # nx, ny(, nz)
    lower, frac = [], []
    for a in range(dims):
        s = (point[a] - origin[a]) / spacing[a]
        if abs(s - round(s)) <= 1e-9:
            s = float(round(s))
        i = min(int(np.floor(s)), shape[a] - 1)
        lower.append(i)
        frac.append(s - i)
    value = 0.0
    for corner in range(1 << dims):
        w, index = 1.0, []
        for a in range(dims):
            up = (corner >> a) & 1
            w *= frac[a] if up else 1.0 - frac[a]
            index.append(lower[a] + up if up else lower[a])
        if w != 0.0:
            value += w * u[tuple(index[::-1])]
    return value


def check_probes_against_snapshots(label, directory, probes, node_probes):
    """Every snapshot has its row; node probes equal the node, the others the interpolation."""
    header, rows = read_csv(os.path.join(directory, "probes.csv"))
    if header != ["time", "iteration"] + [name for name, _ in probes]:
        fail(f"{label}: probes.csv header {header}")
        return
    by_iteration = {int(r[1]): r for r in rows}
    iterations = [int(r[1]) for r in rows]
    if iterations != sorted(set(iterations)):
        fail(f"{label}: probes.csv iterations not increasing once each: {iterations}")
    _, history = read_csv(os.path.join(directory, "history.csv"))
    shots = snapshots(directory)
    wanted = sorted({int(h[0]) for h in history} | {s[1] for s in shots})
    if iterations != wanted:
        fail(f"{label}: probes.csv rows at {iterations}, checks and snapshots at {wanted}")
    for time, iteration, u, origin, spacing in shots:
        row = by_iteration.get(iteration)
        if row is None:
            fail(f"{label}: no probes.csv row for the snapshot of iteration {iteration}")
            continue
        if float(row[0]) != time:
            fail(f"{label}: row {iteration} time {row[0]}, snapshot {time!r}")
        for k, (name, point) in enumerate(probes):
            got = float(row[2 + k])
            want = interpolate(u, origin, spacing, point)
            if name in node_probes:
                if got != want:
                    fail(f"{label}: {name} at iteration {iteration}: {got!r}, node {want!r}")
            elif abs(got - want) > 1e-13 * max(1.0, abs(want)):
                fail(f"{label}: {name} at iteration {iteration}: {got!r}, numpy {want!r}")
    print(f"ok: {label}: {len(rows)} rows, {len(shots)} snapshots, values as numpy reads them")


def probes_yaml(probes):
    items = ", ".join(f"{{name: {n}, at: [{', '.join(repr(x) for x in p)}]}}" for n, p in probes)
    return f"probes: [{items}]"


HEAT = """grid: {points: [33, 9], extent: [1.0, 0.25]}
problem: {equation: heat, diffusivity: 1.0}
boundary:
  default: {type: neumann, gradient: 0}
  x_min: {type: dirichlet, value: 1}
  x_max: {type: dirichlet, value: 0}
initial: "1 - x + sin(pi*x)"
solve: {check_every: 50}
"""


def group_probes(fdsolve, work):
    # 2D multigrid Poisson: a probe on a node, one inside a cell, one on the Dirichlet face.
    probes = [("node", (0.25, 0.125)), ("cell", (0.61, 0.37)), ("face", (1.0, 0.2))]
    case = os.path.join(work, "mg.yaml")
    with open(case, "w") as f:
        f.write("name: mg\ngrid: {points: [33, 17], extent: [1.0, 0.5]}\n"
                "problem: {equation: poisson, source: \"sin(3*x)*cos(2*y)\"}\n"
                "boundary: {default: {type: dirichlet, value: \"x + y*y\"}}\n"
                "solve: {method: multigrid, max_iterations: 6, tolerance: 0}\n"
                f"output: {{every: 4, {probes_yaml(probes)}}}\n")
    run(fdsolve, ["run", case, "--output", os.path.join(work, "mg")], expect=3)
    check_probes_against_snapshots("2D multigrid", os.path.join(work, "mg"), probes, {"node"})

    # 3D Jacobi in float: the probes interpolate the run's float values in double.
    probes3 = [("corner", (0.0, 0.0, 0.0)), ("mid", (0.5, 0.5, 0.5)),
               ("skew", (0.13, 0.71, 0.37))]
    case3 = os.path.join(work, "jacobi3.yaml")
    with open(case3, "w") as f:
        f.write("name: j3\nprecision: float\ngrid: {points: [9, 9, 9], extent: [1, 1, 1]}\n"
                "problem: {equation: poisson, source: 1}\n"
                "boundary: {default: {type: dirichlet, value: \"x + 2*y + 3*z*z\"}}\n"
                "solve: {method: jacobi, max_iterations: 30, check_every: 7, tolerance: 0}\n"
                f"output: {{every: 10, {probes_yaml(probes3)}}}\n")
    run(fdsolve, ["run", case3, "--output", os.path.join(work, "j3")], expect=3)
    check_probes_against_snapshots("3D Jacobi float", os.path.join(work, "j3"), probes3,
                                   {"corner", "mid"})

    # Explicit heat with snapshots every 0.01: a row at each snapshot time, t = 0 included.
    heat_probes = [("centre", (0.5, 0.125)), ("near_hot", (0.05, 0.1))]
    heat = os.path.join(work, "heat.yaml")
    with open(heat, "w") as f:
        f.write("name: heat\n" + HEAT + "time: {end: 0.05}\n"
                f"output: {{interval: 0.01, {probes_yaml(heat_probes)}}}\n")
    run(fdsolve, ["run", heat, "--output", os.path.join(work, "heat")])
    check_probes_against_snapshots("explicit heat", os.path.join(work, "heat"), heat_probes,
                                   {"centre"})

    # Resume: stopped at time.end 0.02 (a snapshot time), resumed to 0.05 from its checkpoint.
    split = os.path.join(work, "heat_split")
    run(fdsolve, ["run", heat, "--output", split, "--set", "time.end=0.02"])
    run(fdsolve, ["run", "--resume", split, "--set", "time.end=0.05"])
    with open(os.path.join(work, "heat", "probes.csv")) as a, \
            open(os.path.join(split, "probes.csv")) as b:
        whole, resumed = a.read(), b.read()
    if whole != resumed:
        fail("resumed probes.csv differs from the uninterrupted run's")
    else:
        print(f"ok: resumed probes.csv equals the uninterrupted run's ({whole.count(chr(10))} "
              "lines)")
    # The same case with other probes cannot continue that file.
    other = run(fdsolve, ["run", heat, "--output", split, "--resume", "--set",
                          "output.probes=[{name: elsewhere, at: [0.2, 0.2]}]"], expect=2)
    if "output.probes" not in other.stderr:
        fail(f"resume with other probes: the error does not name output.probes: {other.stderr}")


def group_times(fdsolve, work):
    listed = [0.005, 0.0123, 0.03, 0.05]
    case = os.path.join(work, "timed.yaml")
    with open(case, "w") as f:
        f.write("name: timed\n" + HEAT + "time: {end: 0.05}\n"
                f"output: {{times: [{', '.join(repr(t) for t in listed)}]}}\n")
    check = run(fdsolve, ["check", case])
    if "output times: t = 0, 0.005, 0.0123, 0.03, 0.05 (5 snapshots" not in check.stdout:
        fail(f"check does not list the output times:\n{check.stdout}")
    schemes = {"explicit": [], "implicit": ["--set", "time.scheme=implicit",
                                            "--set", "time.dt=0.0005"],
               "crank-nicolson": ["--set", "time.scheme=crank-nicolson", "--set", "time.dt=0.002"]}
    results = {}
    for scheme, extra in schemes.items():
        out = os.path.join(work, scheme)
        run(fdsolve, ["run", case, "--output", out, *extra])
        results[scheme] = snapshots(out)
        times = [s[0] for s in results[scheme]]
        if times != [0.0] + listed:
            fail(f"{scheme}: snapshot times {times}, listed {[0.0] + listed}")
        else:
            print(f"ok: {scheme}: snapshots at exactly t = 0 and {listed}")
    nx, ny = 33, 9
    x = np.linspace(0.0, 1.0, nx)[None, :].repeat(ny, axis=0)
    first = results["explicit"][0][2]
    initial = 1 - x + np.sin(np.pi * x)
    if np.max(np.abs(first - initial)) > 1e-14:
        fail(f"t = 0 snapshot differs from the initial state by {np.max(np.abs(first - initial))}")
    else:
        print("ok: the t = 0 snapshot is the initial state")
    # Each scheme against the exact solution, and explicit against Crank-Nicolson, at every
    # listed time: the spatial error of h = 1/32 is about (pi h)^2 / 12 of the sine's
    # amplitude, below 1e-3; the time steps add less.
    for k, t in enumerate(listed, start=1):
        exact = 1 - x + np.exp(-np.pi ** 2 * t) * np.sin(np.pi * x)
        for scheme in schemes:
            error = np.max(np.abs(results[scheme][k][2] - exact))
            if error > 2e-3:
                fail(f"{scheme} at t = {t}: max error {error} against the exact solution")
        gap = np.max(np.abs(results["explicit"][k][2] - results["crank-nicolson"][k][2]))
        if gap > 2e-3:
            fail(f"explicit and Crank-Nicolson differ by {gap} at t = {t}")
    print("ok: every scheme within 2e-3 of the exact solution at each listed time")

    # output.interval: t = 0, 0.01, ... 0.05, each k x 0.01 exactly.
    interval = os.path.join(work, "interval")
    with open(interval + ".yaml", "w") as f:
        f.write("name: interval\n" + HEAT + "time: {end: 0.05}\noutput: {interval: 0.01}\n")
    run(fdsolve, ["run", interval + ".yaml", "--output", interval])
    times = [s[0] for s in snapshots(interval)]
    if times != [k * 0.01 for k in range(5)] + [0.05]:
        fail(f"output.interval 0.01: snapshot times {times}")
    else:
        print(f"ok: output.interval 0.01: snapshots at {times}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--fdsolve", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--group", choices=["probes", "times"], required=True)
    args = parser.parse_args()
    work = os.path.join(args.work, args.group)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    {"probes": group_probes, "times": group_times}[args.group](args.fdsolve, work)
    if FAILURES:
        print(f"{len(FAILURES)} failure(s)")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
