#!/usr/bin/env bash
# The ParaView round trip: runs a 2D and a 3D case (non-cubic grids, non-zero origins, several
# snapshots) and opens each .xmf with ParaView's own readers (pvpython under xvfb-run), checking
# the time values, the node dimensions, the bounds and the field at points where it is known by
# hand (the cases' boundary values are linear functions, which the stencils reproduce exactly),
# and once more with snapshots stored as float and gzip-compressed (output.precision,
# output.compression).
#
#   tests/paraview/run_paraview_check.sh FDSOLVE SOURCE_DIR
#
# Without pvpython or xvfb-run it exits 77 (CTest reports a skip), unless
# FDSOLVE_REQUIRE_PARAVIEW=1, which CI sets: then a missing ParaView is a failure.
set -euo pipefail
fdsolve=$1
source_dir=$2
here=$source_dir/tests/paraview

for tool in pvpython xvfb-run; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    if [ "${FDSOLVE_REQUIRE_PARAVIEW:-0}" = 1 ]; then
      echo "FAIL: $tool not found and FDSOLVE_REQUIRE_PARAVIEW=1 (apt-get install paraview xvfb)"
      exit 1
    fi
    echo "SKIP: $tool not found (Debian packages paraview, xvfb)"
    exit 77
  fi
done

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

run_case() {  # run_case NAME: the run must end at its max_iterations with snapshots written
  local status=0
  "$fdsolve" run "$here/$1.yaml" --output "$out/$1" --quiet || status=$?
  # 0 converged at the last check, 3 not quite: either way the values are checked below.
  if [ "$status" -ne 0 ] && [ "$status" -ne 3 ]; then
    echo "FAIL: fdsolve run $1.yaml exited $status"
    exit 1
  fi
}

pv_check() {
  echo "--- paraview_check.py $*"
  xvfb-run -a pvpython "$source_dir/tools/paraview_check.py" "$@"
}

run_case plane
run_case box

# 2D: x -1 .. 1, y 0.5 .. 2 (origin + (n-1) h), z 0; u = 1 + 2x + 3y.
plane=(--bounds -1 1 0.5 2 0 0 --dimensions 33 17 1 --times 1000 2000 3000 4000)
# First snapshot: the interior is still converging, the boundary values are already exact:
# x_min face at y = 1.25: 1 - 2 + 3.75.
pv_check "$out/plane/plane.xmf" "${plane[@]}" --time 1000 --probe -1 1.25 0 2.75 --tolerance 1e-9
# Last snapshot: converged, the linear function at every node; the node (20, 8) at
# (0.25, 1.25): 1 + 0.5 + 3.75.
pv_check "$out/plane/plane.xmf" "${plane[@]}" --time 4000 --expect "1 + 2*x + 3*y" \
  --probe 0.25 1.25 0 5.25 --tolerance 1e-9
pv_check "$out/plane/plane.xmf" "${plane[@]}" --reader xdmf --time 4000 \
  --expect "1 + 2*x + 3*y" --tolerance 1e-9

# The flux -grad u of the linear u, (-2, -3) at every node (boundary nodes by their one
# interior face), as a Vector attribute: 2 components with the Xdmf3 reader, padded to 3 with
# a 0 by the legacy reader.
pv_check "$out/plane/plane.xmf" "${plane[@]}" --time 4000 --field flux --components 2 \
  --expect "(-2 + 0*x, -3 + 0*x)" --tolerance 1e-8
pv_check "$out/plane/plane.xmf" "${plane[@]}" --reader xdmf --time 4000 --field flux \
  --components 3 --expect "(-2 + 0*x, -3 + 0*x)" --tolerance 1e-8

# 3D: x 0.5 .. 1.7, y -1 .. -0.2, z 2 .. 2.9; u = 2 - x + 0.5y + 4z, float (tolerance 1e-6).
box=(--bounds 0.5 1.7 -1 -0.2 2 2.9 --dimensions 13 9 7 --times 200 400 600 800)
# First snapshot, x_min face at (y, z) = (-0.6, 2.45): 2 - 0.5 - 0.3 + 9.8.
pv_check "$out/box/box.xmf" "${box[@]}" --time 200 --probe 0.5 -0.6 2.45 11.0 --tolerance 1e-6
# Last snapshot, node (6, 4, 3) at (1.1, -0.6, 2.45): 2 - 1.1 - 0.3 + 9.8.
pv_check "$out/box/box.xmf" "${box[@]}" --time 800 --expect "2 - x + 0.5*y + 4*z" \
  --probe 1.1 -0.6 2.45 10.4 --tolerance 1e-6
pv_check "$out/box/box.xmf" "${box[@]}" --reader xdmf --time 800 \
  --expect "2 - x + 0.5*y + 4*z" --tolerance 1e-6
# The flux (1, -0.5, -4) of the float run: differences of float values over h.
pv_check "$out/box/box.xmf" "${box[@]}" --time 800 --field flux --components 3 \
  --expect "(1 + 0*x, -0.5 + 0*x, -4 + 0*x)" --tolerance 1e-3

# The plane again with smaller snapshots: float values of the double run, gzip-compressed
# chunks. ParaView reads them through the same .xmf; the values within float rounding.
status=0
"$fdsolve" run "$here/plane.yaml" --output "$out/plane_small" --quiet \
  --set output.precision=float --set 'output.compression={gzip: 6}' || status=$?
if [ "$status" -ne 0 ] && [ "$status" -ne 3 ]; then
  echo "FAIL: fdsolve run plane.yaml (float, gzip) exited $status"
  exit 1
fi
pv_check "$out/plane_small/plane.xmf" "${plane[@]}" --time 4000 --expect "1 + 2*x + 3*y" \
  --probe 0.25 1.25 0 5.25 --tolerance 1e-5
pv_check "$out/plane_small/plane.xmf" "${plane[@]}" --reader xdmf --time 4000 \
  --expect "1 + 2*x + 3*y" --tolerance 1e-5
echo "paraview round trip: OK"
