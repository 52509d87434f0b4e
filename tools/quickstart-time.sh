#!/usr/bin/env bash
# Times the quick start as a new user meets it: `git clone` of this repository into a scratch
# directory, then `tools/quickstart.sh` there with the package check skipped
# (FDSOLVE_SKIP_DEPS=1: the packages must already be installed), up to the example's results.
# Prints the machine (nproc, CPU model, load), the date, the commit, the wall and CPU times
# (user + sys of every compiler) and the build's slowest steps from .ninja_log.
#
#   tools/quickstart-time.sh [--no-warm] [--keep] [--rev REV] [-- CMAKE_ARGS...]
#
#   --rev REV    the commit to clone (default HEAD)
#   --no-warm    time the cold run only. Otherwise, where ccache is installed, a second fresh
#                clone at the same path is timed with the cache the first run filled ("warm")
#   --keep       leave the scratch directory (its path is printed)
#   CMAKE_ARGS   go to quickstart.sh's configure step (e.g. -DFDSOLVE_ENABLE_CUDA=ON)
#
# The cold run is cold for ccache too: CCACHE_DIR points into the scratch directory, so nothing
# from earlier builds is reused. QS_TMPDIR picks where the scratch directory goes (default
# $TMPDIR or /tmp). Run it on a quiet machine: the wall time is what a user waits, the CPU time
# is what contention from other work distorts least.
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
rev=HEAD
warm=1
keep=0
while [ $# -gt 0 ]; do
  case $1 in
    --rev) rev=$2; shift ;;
    --no-warm) warm=0 ;;
    --keep) keep=1 ;;
    --) shift; break ;;
    *) echo "usage: tools/quickstart-time.sh [--no-warm] [--keep] [--rev REV] [-- CMAKE_ARGS...]" >&2
       exit 2 ;;
  esac
  shift
done
commit=$(git -C "$src" rev-parse "$rev")
scratch=$(mktemp -d "${QS_TMPDIR:-${TMPDIR:-/tmp}}/fdsolve-quickstart.XXXXXX")
if [ "$keep" -eq 0 ]; then trap 'rm -rf "$scratch"' EXIT; fi
export CCACHE_DIR="$scratch/ccache"
have_ccache=0
command -v ccache >/dev/null 2>&1 && have_ccache=1

echo "== quick start timing, $(date -u +%Y-%m-%dT%H:%M:%SZ)"
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')," \
  "$(awk '/MemTotal/ {printf "%.0f GiB", $2 / 1048576}' /proc/meminfo)"
echo "commit:  $commit ($(git -C "$src" log -1 --format=%s "$commit" | cut -c1-70))"
echo "tools:   $(cmake --version | head -1), $(ninja --version 2>/dev/null | sed 's/^/ninja /')," \
  "$(c++ --version | head -1)"
nvcc_path=$(command -v nvcc || { [ -x /usr/local/cuda/bin/nvcc ] && echo /usr/local/cuda/bin/nvcc; } || true)
echo "nvcc:    ${nvcc_path:-none}$([ -n "$nvcc_path" ] && "$nvcc_path" --version | tail -1 | sed 's/^/ (/; s/$/)/')"
echo "GPU:     $( (nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null || true) | head -1 | grep . || echo none)"
echo "ccache:  $([ "$have_ccache" -eq 1 ] && ccache --version | head -1 || echo 'not installed')"
echo "args:    ${*:-(none)}"

# One fresh clone and quickstart.sh in it; prints the times and the build's step summary.
one_run() {
  local label=$1 shift_args=("${@:2}") tree="$scratch/fdsolve"
  rm -rf "$tree"
  echo
  echo "== $label run (load average before: $(cut -d' ' -f1-3 /proc/loadavg))"
  local t0 t1 clone_s
  t0=$(date +%s.%N)
  git clone --quiet "$src" "$tree"
  git -C "$tree" checkout --quiet "$commit"
  t1=$(date +%s.%N)
  clone_s=$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')
  if ! (cd "$tree" && FDSOLVE_SKIP_DEPS=1 /usr/bin/time -o "$scratch/time.txt" \
        -f '%e %U %S' tools/quickstart.sh "${shift_args[@]}" >"$scratch/$label.log" 2>&1); then
    tail -30 "$scratch/$label.log"
    echo "quickstart.sh failed (log: $scratch/$label.log)"
    keep=1
    trap - EXIT
    exit 1
  fi
  read -r wall user sys < "$scratch/time.txt"
  printf 'clone:      %6.1f s wall\n' "$clone_s"
  printf 'quickstart: %6.1f s wall, %6.1f s user, %5.1f s sys (%.0f s CPU)\n' \
    "$wall" "$user" "$sys" "$(awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }')"
  printf 'total:      %6.1f s wall from git clone to the results\n' "$(awk -v c="$clone_s" -v w="$wall" 'BEGIN { print c + w }')"
  grep -E "^-- fdsolve:" "$scratch/$label.log" | sed 's/^-- /configure: /' || true
  local log="$tree/${FDSOLVE_BUILD_DIR:-build}/.ninja_log"
  [ -f "$log" ] || return 0
  # .ninja_log v5: start ms, end ms, mtime, output, hash. Each edge once (the last entry).
  awk -F'\t' 'NR > 1 { t[$4] = ($2 - $1) / 1000 }
    END {
      for (o in t) {
        n++; all += t[o]
        if (o ~ /\.cu\.o$/) { cu += t[o]; ncu++ } else if (o ~ /\.o$/) { cxx += t[o]; ncxx++ }
      }
      printf "build steps: %d (%d C++ objects %.0f s, %d CUDA objects %.0f s), %.0f s in all\n",
        n, ncxx, cxx, ncu, cu, all
      for (o in t) printf "%8.1f s  %s\n", t[o], o | "sort -rn | head -8"
    }' "$log"
  grep -E "^info: (converged|time)" "$scratch/$label.log" | tail -2 || true
}

one_run cold "$@"
if [ "$warm" -eq 1 ]; then
  if [ "$have_ccache" -eq 1 ]; then
    one_run warm "$@"
    ccache --show-stats 2>/dev/null | grep -E "Hits|Misses" | head -2 | sed 's/^/ccache: /'
  else
    echo; echo "(no warm run: ccache is not installed)"
  fi
fi
[ "$keep" -eq 1 ] && echo "scratch directory: $scratch"
exit 0
