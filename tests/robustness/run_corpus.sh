#!/usr/bin/env bash
# Runs every malformed case of the robustness corpus through `fdsolve check` and `fdsolve run`
# and checks the contract for bad input: exit 2, the expected error line on stderr,
# nothing on stdout, nothing written (neither the --output directory nor anything in the working
# directory).
#
#   tests/robustness/run_corpus.sh FDSOLVE CASES_DIR
#
# Each CASES_DIR/<name>.yaml has a <name>.expect holding the one error line (what follows
# "error: " in the log) with {case} standing for the case file's path; a line ending in '*'
# gives the beginning of the line only. A second line, where present, is what `run` must print
# instead (run adds its --output as an override, which an empty file then lacks a location for).
# An optional <name>.args adds arguments to both commands, one per line (so that a value may hold
# spaces: "--set" on one line, "KEY=VALUE" on the next).
set -uo pipefail

fdsolve=$1
cases=$2
minimum=40

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

failures=0
count=0
fail() {
  echo "FAIL $name: $*"
  failures=$((failures + 1))
}

# The error lines of a log, without spdlog's "[hh:mm:ss] error: " prefix.
error_lines() { sed -n 's/^\[[0-9:]*\] error: //p' "$1"; }

matches() {  # matches EXPECTED LOGFILE
  local expected=$1 line
  while IFS= read -r line; do
    if [[ $expected == *'*' ]]; then
      [[ $line == "${expected%\*}"* ]] && return 0
    else
      [[ $line == "$expected" ]] && return 0
    fi
  done < <(error_lines "$2")
  return 1
}

check_one() {  # check_one COMMAND...; uses $name, $expected, $work
  local label=$1
  shift
  local status=0
  (cd "$work" && "$@" >"$scratch/stdout" 2>"$scratch/stderr") || status=$?
  if [ "$status" -ne 2 ]; then
    fail "$label exited $status, expected 2"
  fi
  if ! matches "$expected" "$scratch/stderr"; then
    fail "$label: expected the error line"
    echo "    expected: $expected"
    echo "    got:      $(error_lines "$scratch/stderr" | head -3)"
  fi
  if [ -s "$scratch/stdout" ]; then
    fail "$label wrote to stdout: $(head -c 200 "$scratch/stdout")"
  fi
}

for yaml in "$cases"/*.yaml; do
  name=$(basename "$yaml" .yaml)
  count=$((count + 1))
  if [ ! -f "$cases/$name.expect" ]; then
    fail "no $name.expect"
    continue
  fi
  expected_check=$(sed -n 1p "$cases/$name.expect")
  expected_run=$(sed -n 2p "$cases/$name.expect")
  expected_check=${expected_check//\{case\}/$yaml}
  expected_run=${expected_run//\{case\}/$yaml}
  : "${expected_run:=$expected_check}"
  args=()
  if [ -f "$cases/$name.args" ]; then mapfile -t args <"$cases/$name.args"; fi

  # A fresh working directory per case: a run that wrote anything (out/<name>, a stray
  # temporary file) would leave it there.
  work=$scratch/work
  rm -rf "$work"
  mkdir -p "$work"
  expected=$expected_check
  check_one check "$fdsolve" check "$yaml" "${args[@]}"
  output_dir=$work/out-$name
  expected=$expected_run
  check_one run "$fdsolve" run "$yaml" "${args[@]}" --output "$output_dir"
  if [ -e "$output_dir" ] && [ -n "$(ls -A "$output_dir")" ]; then
    fail "run wrote into $output_dir: $(ls -A "$output_dir" | head -5 | tr '\n' ' ')"
  fi
  leftovers=$(ls -A "$work" | grep -v "^out-$name\$")
  if [ -n "$leftovers" ]; then
    fail "run wrote into its working directory: $leftovers"
  fi
done

for expect in "$cases"/*.expect; do
  [ -f "${expect%.expect}.yaml" ] || { name=$(basename "$expect"); fail "no case file for it"; }
done
if [ "$count" -lt "$minimum" ]; then
  echo "FAIL: only $count cases, the corpus must hold at least $minimum"
  failures=$((failures + 1))
fi
echo "robustness corpus: $count cases, $failures failures"
[ "$failures" -eq 0 ]
