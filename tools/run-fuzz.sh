#!/usr/bin/env bash
# Runs the case-loader fuzzer for a while: tools/run-fuzz.sh BUILD_DIR [SECONDS (default 60)].
# Seeds: the examples, the ParaView cases and the robustness corpus. Exits non-zero on a crash,
# a sanitizer report, a hang or an out-of-memory; the reproducer is left in
# BUILD_DIR/fuzz-findings/. See tests/fuzz/README.md.
set -euo pipefail
cd "$(dirname "$0")/.."
build=$(realpath "$1")
seconds=${2:-60}
fuzzer=$build/tests/fuzz/fdsolve_fuzz_case_loader
[ -x "$fuzzer" ] || { echo "run-fuzz: no $fuzzer (configure with -DFDSOLVE_BUILD_FUZZERS=ON)"; exit 2; }

seeds=$build/fuzz-seeds
corpus=$build/fuzz-corpus
findings=$build/fuzz-findings
rm -rf "$seeds" "$findings"
mkdir -p "$seeds" "$corpus" "$findings"
cp examples/*.yaml tests/paraview/*.yaml "$seeds/"
for case_file in tests/robustness/cases/*.yaml; do
  name=$(basename "$case_file" .yaml)
  args=tests/robustness/cases/$name.args
  if [ -f "$args" ]; then
    { cat "$case_file"; echo "#--set"; sed '/^--set$/d; s/^--set //' "$args"; } >"$seeds/robustness_$name.yaml"
  else
    cp "$case_file" "$seeds/robustness_$name.yaml"
  fi
done

# In the findings directory, so that relative data-file paths and artifacts land there.
cd "$findings"
status=0
"$fuzzer" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
  -artifact_prefix="$findings/" "$corpus" "$seeds" >"$build/fuzz.log" 2>&1 || status=$?
tail -n 15 "$build/fuzz.log"
if [ "$status" -ne 0 ] || ls "$findings"/crash-* "$findings"/timeout-* "$findings"/oom-* \
    "$findings"/leak-* >/dev/null 2>&1; then
  echo "run-fuzz: FAILED (exit $status); reproducers in $findings, log in $build/fuzz.log"
  grep -m1 -A20 "ERROR\|fuzz_case_loader:" "$build/fuzz.log" || true
  exit 1
fi
echo "run-fuzz: no finding in $seconds s"
