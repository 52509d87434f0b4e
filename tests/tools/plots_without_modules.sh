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
for tool in plot_history plot_slice; do
  status=0
  PYTHONPATH="$scratch/fake" "$python" "$tools/$tool.py" "$scratch/run" \
    >"$scratch/out" 2>"$scratch/err" || status=$?
  lines=$(wc -l <"$scratch/err")
  line=$(head -1 "$scratch/err")
  echo "$tool: exit $status: $line"
  ok=1
  [ "$status" -eq 2 ] || ok=0
  [ "$lines" -eq 1 ] || ok=0
  [[ $line == "$tool: $interpreter cannot import "* ]] || ok=0
  [[ $line == *"install python3-"* ]] || ok=0
  [ ! -s "$scratch/out" ] || ok=0
  [ -z "$(find "$scratch/run" -name '*.png')" ] || ok=0
  if [ "$ok" -ne 1 ]; then
    echo "FAIL $tool: expected exit 2 and one line naming $interpreter and the packages"
    cat "$scratch/err"
    failures=$((failures + 1))
  fi
done
[ "$failures" -eq 0 ] || exit 1
echo ok
