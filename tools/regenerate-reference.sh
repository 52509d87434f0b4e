#!/usr/bin/env bash
# Regenerates the reference of regression cases on purpose: runs tests/regression/CASE/case.yaml
# on the CPU and replaces tests/regression/CASE/reference.h5 by its final snapshot, printing
# what it replaced and how far the new reference is from the old one. The tests never do this.
#
#   tools/regenerate-reference.sh [--build DIR] CASE...     (DIR default: build)
#
# Then check the new reference against its independent answer and the whole case, e.g.
#   ctest --test-dir build -R 'regression_case\.CASE$' --output-on-failure
# and say in the commit why the reference changed.
set -euo pipefail
cd "$(dirname "$0")/.."

build=build
if [[ "${1:-}" == "--build" ]]; then
  build=${2:?--build needs a directory}
  shift 2
fi
if (($# == 0)); then
  echo "usage: tools/regenerate-reference.sh [--build DIR] CASE..." >&2
  echo "cases: $(cd tests/regression && ls -d */ | tr -d / | tr '\n' ' ')" >&2
  exit 2
fi
fdsolve="$build/solver/fdsolve"
[[ -x "$fdsolve" ]] || { echo "no $fdsolve: build first (tools/build.sh)" >&2; exit 2; }

for name in "$@"; do
  dir="tests/regression/$name"
  [[ -f "$dir/case.yaml" ]] || { echo "no regression case $dir/case.yaml" >&2; exit 2; }
  out=$(mktemp -d)
  trap 'rm -rf "$out"' EXIT
  set +e
  "$fdsolve" run "$dir/case.yaml" --backend cpu --output "$out" --quiet
  rc=$?
  set -e
  if ((rc != 0)); then
    echo "$name: fdsolve run exited $rc; reference left unchanged" >&2
    exit 1
  fi
  # The final snapshot: the highest (zero-padded) iteration.
  new=$(find "$out" -maxdepth 1 -name "${name}_*.h5" | sort | tail -n 1)
  [[ -n "$new" ]] || { echo "$name: the run wrote no snapshot" >&2; exit 1; }
  if [[ -f "$dir/reference.h5" ]]; then
    echo "$name: old reference vs new run (exact comparison):"
    "$fdsolve" compare "$new" "$dir/reference.h5" --rtol 0 --atol 0 | sed 's/^/  /' || true
    cp "$new" "$dir/reference.h5"
    echo "$name: replaced $dir/reference.h5 by $(basename "$new") ($(stat -c %s "$dir/reference.h5") bytes)"
  else
    cp "$new" "$dir/reference.h5"
    echo "$name: created $dir/reference.h5 from $(basename "$new") ($(stat -c %s "$dir/reference.h5") bytes)"
  fi
  rm -rf "$out"
  trap - EXIT
done
