#!/usr/bin/env bash
# Heterogeneous media on one backend: CG preconditioned by multigrid on the 4x4 checkerboard
# (beta = contrast on alternate squares, f = 1, u = 0 on the boundary) and on one square
# inclusion, 2D and 3D, float and double. One line per run: iterations, status, the solve time
# from summary.json and the whole process's wall time. Usage:
#   tools/media_timings.sh FDSOLVE BACKEND WORKDIR [N2D] [N3D]
set -uo pipefail
fdsolve=$1 backend=$2 work=$3 n2=${4:-4097} n3=${5:-257}
mkdir -p "$work"
row() {  # label, dims, n, coefficient, precision, tolerance
  local label=$1 dims=$2 n=$3 coef=$4 prec=$5 tol=$6 dir="$work/$1"
  local points="[$n, $n]" extent="[1, 1]"
  if [[ $dims == 3 ]]; then points="[$n, $n, $n]"; extent="[1, 1, 1]"; fi
  mkdir -p "$dir"
  cat > "$dir/case.yaml" <<YAML
name: media
precision: $prec
grid: {points: $points, extent: $extent}
stencil: $([[ $dims == 3 ]] && echo 7 || echo 5)
problem: {equation: poisson, source: 1, coefficient: "$coef"}
solve: {tolerance: $tol, diagnostics: false}
output: {directory: out}
YAML
  local t0 t1 rc
  t0=$(date +%s.%N)
  (cd "$dir" && "$fdsolve" run case.yaml --backend "$backend" > run.log 2>&1)
  rc=$?
  t1=$(date +%s.%N)
  python3 - "$dir" "$label" "$rc" "$t0" "$t1" <<'PY'
import json, sys
d, label, rc, t0, t1 = sys.argv[1:]
try:
    s = json.load(open(f"{d}/out/summary.json"))
    it, status, secs = s.get("iterations"), s.get("status"), s.get("wall_seconds")
except Exception as e:  # noqa: BLE001
    it, status, secs = "-", f"no summary ({e.__class__.__name__})", float("nan")
print(f"{label:34s} exit {rc}  {status!s:12s} iterations {it!s:>4}  solve {float(secs):8.4f} s"
      f"  process {float(t1) - float(t0):7.2f} s")
PY
}
checker2="mod(floor(4*x) + floor(4*y), 2) == 0 ? C : 1"
checker3="mod(floor(4*x) + floor(4*y) + floor(4*z), 2) == 0 ? C : 1"
for prec in double float; do
  tol=1e-8; [[ $prec == float ]] && tol=1e-5
  for c in 1e2 1e4 1e6; do
    row "2d-checker-$c-$prec" 2 "$n2" "${checker2//C/$c}" $prec $tol
  done
  row "2d-inclusion-1e6-$prec" 2 "$n2" "$(echo "abs(x - 0.5) < 0.25 && abs(y - 0.5) < 0.25 ? 1e6 : 1")" $prec $tol
  for c in 1e2 1e4 1e6; do
    row "3d-checker-$c-$prec" 3 "$n3" "${checker3//C/$c}" $prec $tol
  done
done
# The constant coefficient beside them (the constant path, full multigrid).
row "2d-constant-double" 2 "$n2" "1" double 1e-8
row "3d-constant-double" 3 "$n3" "1" double 1e-8
