#!/usr/bin/env bash
# tools/plot_history.py and tools/plot_slice.py under a Python that lacks matplotlib and h5py
# (stand-in packages that raise ImportError come first on PYTHONPATH, so this runs whether or
# not the real ones are installed): each must exit 2 with one line on stderr that names the
# interpreter and what to install, no traceback, and write nothing.
#
#   tests/tools/plots_without_modules.sh PYTHON TOOLS_DIR
set -uo pipefail
python=$1
tools=$2
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
for m in matplotlib h5py; do
  mkdir -p "$scratch/fake/$m"
  echo "raise ImportError('No module named $m (stand-in)', name='$m')" >"$scratch/fake/$m/__init__.py"
done
mkdir -p "$scratch/run"
printf 'iteration,time,norm_l2,norm_linf\n1,1,1,1\n' >"$scratch/run/history.csv"
interpreter=$(PYTHONPATH="$scratch/fake" "$python" -c 'import sys; print(sys.executable)')
failures=0
# Each tool plain and with its options (--columns; --line, --snapshot, --csv).
for call in "plot_history" "plot_history --columns norm_l2 --log" "plot_slice" \
            "plot_slice --line x --snapshot all --csv $scratch/run/line.csv"; do
  read -r tool options <<<"$call"
  status=0
  # shellcheck disable=SC2086  # the options are words
  PYTHONPATH="$scratch/fake" "$python" "$tools/$tool.py" "$scratch/run" $options \
    >"$scratch/out" 2>"$scratch/err" || status=$?
  lines=$(wc -l <"$scratch/err")
  line=$(head -1 "$scratch/err")
  echo "$call: exit $status: $line"
  ok=1
  [ "$status" -eq 2 ] || ok=0
  [ "$lines" -eq 1 ] || ok=0
  [[ $line == "$tool: $interpreter cannot import "* ]] || ok=0
  [[ $line == *"install python3-"* ]] || ok=0
  [ ! -s "$scratch/out" ] || ok=0
  [ -z "$(find "$scratch/run" -name '*.png' -o -name 'line.csv')" ] || ok=0
  if [ "$ok" -ne 1 ]; then
    echo "FAIL $call: expected exit 2 and one line naming $interpreter and the packages"
    cat "$scratch/err"
    failures=$((failures + 1))
  fi
done
[ "$failures" -eq 0 ] || exit 1
echo ok
