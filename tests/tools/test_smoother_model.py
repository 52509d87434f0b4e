#!/usr/bin/env python3
"""tools/smoother_model.py (a NumPy V-cycle) against fdsolve's own cycles: the asymptotic
residual factor of V(1,1) and V(2,2) weighted-Jacobi cycles and of V(2,2) Chebyshev cycles
(the roots over the high frequencies' [1/2, 2] of D^-1 A, 5 points) on a 129^2 Laplace
problem with zero Dirichlet faces, the model's against the geometric mean of the last six
factors of fdsolve's history (CPU backend, a start with every mode), within 5 %. Each is an
independent reference for the other. Skips (77) without NumPy."""
import importlib.util
import json
import os
import subprocess
import sys
import tempfile

try:
    import numpy  # noqa: F401
except ImportError:
    print("SKIP: this Python has no numpy")
    sys.exit(77)

tools, fdsolve = sys.argv[1], sys.argv[2]
spec = importlib.util.spec_from_file_location("smoother_model",
                                              os.path.join(tools, "smoother_model.py"))
model = importlib.util.module_from_spec(spec)
spec.loader.exec_module(model)

N = 129
CASE = f"""name: factor
grid: {{points: [{N}, {N}], extent: [1, 1]}}
problem: {{equation: laplace}}
boundary: {{default: {{type: dirichlet, value: 0}}}}
initial: "sin(12345.678*x*y) * sin(999.1*(x + y*y))"
solve:
  method: multigrid
  multigrid: {{fmg: false, pre_smooth: SWEEPS, post_smooth: SWEEPS, smoother: SMOOTHER}}
  tolerance: 0
  max_iterations: 12
  diagnostics: false
"""

failures = 0
with tempfile.TemporaryDirectory() as d:
    for smoother, sweeps, weights in (("jacobi", 1, [0.8]), ("jacobi", 2, [0.8] * 2),
                                      ("chebyshev", 2, model.chebyshev(2, 0.5))):
        path = os.path.join(d, f"{smoother}{sweeps}.yaml")
        with open(path, "w") as f:
            f.write(CASE.replace("SWEEPS", str(sweeps)).replace("SMOOTHER", smoother))
        out = os.path.join(d, f"out-{smoother}{sweeps}")
        run = subprocess.run([fdsolve, "run", path, "--backend", "cpu", "--output", out],
                             capture_output=True, text=True, check=False)
        if run.returncode not in (0, 3):
            print(run.stdout, run.stderr)
            sys.exit(1)
        with open(os.path.join(out, "summary.json")) as f:
            history = json.load(f)["history"]
        factors = [row["factor"] for row in history[-6:]]
        measured = 1.0
        for x in factors:
            measured *= x
        measured **= 1 / 6
        predicted = model.factor(N, weights)
        ok = abs(measured / predicted - 1) <= 0.05
        failures += not ok
        print(f"{smoother} V({sweeps},{sweeps}): fdsolve {measured:.4f}, model {predicted:.4f}: "
              f"{'ok' if ok else 'FAIL'}")
sys.exit(1 if failures else 0)
