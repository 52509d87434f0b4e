#!/usr/bin/env python3
"""Multigrid on grid sizes users pick beside the nearest 2^k + 1 size: cycles to the tolerance,
solve time, time per node and the whole process's time, as a Markdown table.

Each row runs `fdsolve run examples/poisson_multigrid.yaml` (2D; 3D rows the same problem's 3D
form) with `grid.points` set, reads summary.json and compares the row with its reference size
(the nearest 2^k + 1 nodes per axis): cycles (target: at most 2 more) and time per node
(target: at most 1.5x). Runs each case `--repeat` times and keeps the fastest solve.

usage: tools/mg_sizes.py [--fdsolve build/solver/fdsolve] [--backend cpu|cuda] [--threads N]
                         [--repeat 3] [--set default|gpu] [--tolerance 1e-8]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# (size, reference size): the reference is the nearest grid of 2^k + 1 nodes per axis.
SETS = {
    "default": [
        ((1000, 1000), (1025, 1025)),
        ((1920, 1080), (2049, 1025)),
        ((600, 400), (513, 513)),
        ((100, 100, 100), (129, 129, 129)),
        ((63, 65, 67), (65, 65, 65)),
    ],
    "gpu": [
        ((4000, 4000), (4097, 4097)),
        ((500, 500, 500), (513, 513, 513)),
    ],
}

SOURCE_3D = ("exp(x+y+z)*(3*(pi^2)*sin(pi*x)*sin(pi*y)*sin(pi*z) - 3*sin(pi*x)*sin(pi*y)*sin(pi*z)"
             " - 2*pi*(cos(pi*x)*sin(pi*y)*sin(pi*z) + sin(pi*x)*cos(pi*y)*sin(pi*z)"
             " + sin(pi*x)*sin(pi*y)*cos(pi*z)))")


def run(args, points):
    """Runs one case; returns (cycles, solve seconds, process seconds)."""
    best = None
    for _ in range(args.repeat):
        with tempfile.TemporaryDirectory() as out:
            cmd = [args.fdsolve, "run", os.path.join(ROOT, "examples/poisson_multigrid.yaml"),
                   "--quiet", "--output", out, "--backend", args.backend,
                   "--set", "grid.points=[%s]" % ",".join(map(str, points)),
                   "--set", "solve.tolerance=%g" % args.tolerance,
                   "--set", "output.fields=[u]"]
            if len(points) == 3:
                cmd += ["--set", "grid.extent=[1,1,1]", "--set", "stencil=7",
                        "--set", "problem.source=%s" % SOURCE_3D]
            if args.threads:
                cmd += ["--threads", str(args.threads)]
            t0 = time.monotonic()
            subprocess.run(cmd, check=True)
            process = time.monotonic() - t0
            s = json.load(open(os.path.join(out, "summary.json")))
            if s["status"] != "converged":
                sys.exit("%s did not converge: %s" % (points, s["status"]))
            row = (s["iterations"], s["wall_seconds"], process)
            if best is None or row[1] < best[1]:
                best = row
    return best


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--fdsolve", default=os.path.join(ROOT, "build/solver/fdsolve"))
    p.add_argument("--backend", default="cpu")
    p.add_argument("--threads", type=int, default=0)
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--set", dest="sizes", default="default", choices=sorted(SETS))
    p.add_argument("--tolerance", type=float, default=1e-8)
    args = p.parse_args()
    print("| grid | cycles | solve s | ns/node | process s | reference | cycles | solve s | "
          "ns/node | cycles + | time/node ratio |")
    print("| --- " * 11 + "|")
    for size, ref in SETS[args.sizes]:
        rows = []
        for points in (size, ref):
            cycles, solve, process = run(args, points)
            nodes = 1
            for n in points:
                nodes *= n
            rows.append((cycles, solve, 1e9 * solve / nodes, process))
        (c, s, ns, pr), (rc, rs, rns, _) = rows
        print("| %s | %d | %.4f | %.2f | %.2f | %s | %d | %.4f | %.2f | %+d | %.2f |" % (
            "x".join(map(str, size)), c, s, ns, pr, "x".join(map(str, ref)), rc, rs, rns,
            c - rc, ns / rns))
        sys.stdout.flush()


if __name__ == "__main__":
    main()
