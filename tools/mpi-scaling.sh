#!/usr/bin/env bash
# Weak and strong scaling of fdsolve over GPU ranks, with and without overlap of the halo
# exchange, and multigrid time to solution (docs/performance.md, "Several GPUs"):
#   tools/mpi-scaling.sh FDSOLVE [RANKS] [OUTDIR]
# RANKS (default 2) is the largest rank count; runs use 1 and RANKS ranks (and 2 when RANKS is
# 4). Each rank keeps 16384^2 (2D 5-point) or 512^3 (3D 27-point) nodes in the weak runs; the
# strong runs split the 1-rank problems. Jacobi with a norm every 100 sweeps; the rate is taken
# from history.csv between the second and the last check, so set-up and output are not in it.
# Prints one table row per run (markdown) and keeps every log under OUTDIR. SCALING_PARTS
# (default "jacobi multigrid") picks the tables; SCALING_OVERLAP (default "true false") the
# Jacobi runs' parallel.overlap; MG_GRIDS the strong multigrid runs ("NAME POINTS CASE [TOLERANCE]" items
# separated by ';'); MG_GATHER the gather_below values and MG_COARSE the parallel.coarse_levels
# values of the last multigrid table (set MG_GATHER empty to skip that table).
set -uo pipefail
fdsolve=${1:?usage: tools/mpi-scaling.sh FDSOLVE [RANKS] [OUTDIR]}
max_ranks=${2:-2}
out=${3:-mpi-scaling}
precisions=${SCALING_PRECISIONS:-double float}
parts=${SCALING_PARTS:-jacobi multigrid}
sweeps=${SCALING_SWEEPS:-1000}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mkdir -p "$out"

rank_counts=(1)
[[ $max_ranks -ge 4 ]] && rank_counts+=(2)
[[ $max_ranks -ge 2 ]] && rank_counts+=("$max_ranks")

# Node-updates per second between the second and the last check of a run's history.csv
# (columns: iteration first, wall_seconds last), times the updated nodes per sweep.
rate() {  # history.csv nodes_per_sweep
  awk -F, -v nodes="$2" 'NR == 1 { next } { it[++n] = $1; wall[n] = $NF }
    END { if (n < 3) { print "nan"; exit }
          printf "%.2f", nodes * (it[n] - it[2]) / (wall[n] - wall[2]) / 1e9 }' "$1"
}

# run NAME RANKS OVERLAP CASE ARGS...: one run, its Gcell/s printed.
run_case() {
  local name=$1 ranks=$2 overlap=$3 case_file=$4
  shift 4
  local dir="$out/$name-r$ranks-overlap_$overlap"
  local launcher=()
  [[ $ranks -gt 1 ]] && launcher=(mpirun -n "$ranks" --oversubscribe --bind-to none)
  "${launcher[@]}" "$fdsolve" run "$case_file" --backend cuda --output "$dir" \
    --set parallel.overlap="$overlap" "$@" > "$dir.log" 2>&1
  local rc=$?
  # 0: converged; 3: stopped at solve.max_iterations, as the fixed-sweep runs mean to.
  if [[ $rc -ne 0 && $rc -ne 3 ]] || [[ ! -f $dir/history.csv ]]; then echo "rc$rc"; return; fi
  echo "$dir"
}

interior() {  # nodes updated per sweep of an all-Dirichlet grid: prod(n - 2)
  local p=1
  for n in "$@"; do p=$((p * (n - 2))); done
  echo "$p"
}

[[ " $parts " == *" jacobi "* ]] || precisions=""
[[ -n $precisions ]] && echo "| run | precision | ranks | overlap | grid | Gcell/s | per rank | efficiency |"
[[ -n $precisions ]] && echo "| --- | --- | --- | --- | --- | --- | --- | --- |"
for precision in $precisions; do
  for dims in 2 3; do
    if [[ $dims == 2 ]]; then
      case_file=examples/plate.yaml base=(16384 16384) label="2D 5-pt"
    else
      case_file=examples/poisson_box.yaml base=(512 512 512) label="3D 27-pt"
    fi
    common=(--set precision="$precision" --set solve.method=jacobi --set solve.tolerance=0
            --set solve.max_iterations="$sweeps" --set solve.check_every=100
            --set output.every=0 --set output.fields=[u] --quiet)
    one_rank=""
    for kind in weak strong; do
      for ranks in "${rank_counts[@]}"; do
        [[ $kind == strong && $ranks == 1 ]] && continue
        points=("${base[@]}")
        extent=(1 1 1)
        # Weak: the last axis grows with the ranks (they split it), at the same spacing;
        # strong: the same grid.
        if [[ $kind == weak ]]; then
          last=$((dims - 1))
          points[$last]=$(( (base[last] - 1) * ranks + 1 ))
          extent[$last]=$ranks
        fi
        grid=$(IFS=,; echo "[${points[*]}]")
        extents=$(IFS=,; echo "[${extent[*]:0:dims}]")
        split=$( [[ $dims == 2 ]] && echo "[1,$ranks]" || echo "[1,1,$ranks]")
        nodes=$(interior "${points[@]}")
        for overlap in ${SCALING_OVERLAP:-true false}; do
          [[ $ranks == 1 && $overlap == false ]] && continue
          dir=$(run_case "$kind-${dims}d-$precision" "$ranks" "$overlap" "$case_file" \
                "${common[@]}" --set grid.points="$grid" --set grid.extent="$extents" \
                --set parallel.ranks="$split")
          if [[ ! -d $dir ]]; then
            echo "| $kind $label | $precision | $ranks | $overlap | ${grid} | failed ($dir) | | |"
            continue
          fi
          g=$(rate "$dir/history.csv" "$nodes")
          per=$(awk -v g="$g" -v r="$ranks" 'BEGIN { printf "%.2f", g / r }')
          [[ $ranks == 1 ]] && one_rank=$g
          eff=$(awk -v g="$g" -v r="$ranks" -v one="$one_rank" -v k="$kind" \
                'BEGIN { if (one == "" || one == 0) { print "-"; exit }
                         e = (k == "weak") ? g / r / one : g / one / r; printf "%.1f%%", 100 * e }')
          echo "| $kind $label | $precision | $ranks | $overlap | ${grid} | $g | $per | $eff |"
        done
      done
    done
  done
done

# Multigrid: time to solution (the run's wall time to tolerance). Strong: 4097^2, 8193^2, 513^3
# on 1 and RANKS ranks; weak: 4097^2 per rank (the last axis grows with the ranks); then the
# agglomeration threshold parallel.gather_below on RANKS ranks (MG_GATHER, nodes per rank).
# Each run twice: the solve time of each (the first includes any first-touch cost).
mg_run() {  # label ranks grid case_file extra --set arguments...: prints "cycles secs secs2"
  local label=$1 ranks=$2 grid=$3 case_file=$4
  shift 4
  local secs=() cycles="" dir rep total
  for rep in 1 2; do
    dir=$(run_case "mg-$label-rep$rep" "$ranks" true "$case_file" --set solve.method=multigrid \
          --set grid.points="[$grid]" --set solve.tolerance=1e-8 --set solve.max_iterations=100 \
          --set output.every=0 --set output.fields=[u] --quiet "$@")
    if [[ ! -d $dir ]]; then echo "failed($dir)"; return; fi
    # The last history row: its iteration is the cycle count, its wall_seconds the solve time.
    secs+=("$(awk -F, 'NR > 1 { w = $NF } END { printf "%.4f", w }' "$dir/history.csv")")
    # The process from start to exit, beside the solve (summary.json's timings.total).
    total=$(python3 -c 'import json, sys; print("%.2f" % json.load(open(sys.argv[1]))["timings"]["total"])' \
            "$dir/summary.json" 2> /dev/null || echo "?")
    echo "$label rep $rep: solve ${secs[-1]} s, process $total s" >> "$out/process-times.txt"
    cycles=$(awk -F, 'NR > 1 { c = $1 } END { print c }' "$dir/history.csv")
  done
  echo "$cycles ${secs[*]}"
}
best() { tr ' ' '\n' <<< "$1" | sort -g | head -1; }
[[ " $parts " == *" multigrid "* ]] || exit 0

echo
echo "| multigrid | kind | ranks | grid | cycles | solve seconds (2 runs) | speed-up / efficiency |"
echo "| --- | --- | --- | --- | --- | --- | --- |"
# An item's optional fourth word is its tolerance: at 16385^2, 1e-8 of the first residual lies
# below double's rounding floor (the run stops at the floor after a number of cycles that
# follows the last bits), so that grid runs to 1e-7.
mg_grids=${MG_GRIDS:-"2d 4097,4097 examples/poisson_multigrid.yaml;2d 8193,8193 examples/poisson_multigrid.yaml;2d 16385,16385 examples/poisson_multigrid.yaml 1e-7;3d 513,513,513 examples/poisson_box.yaml"}
IFS=';' read -r -a mg_list <<< "$mg_grids"
for mg in "${mg_list[@]}"; do
  read -r name grid case_file tolerance <<< "$mg"
  first=""
  for ranks in "${rank_counts[@]}"; do
    read -r cycles times <<< "$(mg_run "$name-$grid" "$ranks" "$grid" "$case_file" \
      --set solve.tolerance="${tolerance:-1e-8}")"
    [[ $cycles == failed* ]] && { echo "| $name | strong | $ranks | [$grid] | $cycles | | |"; continue; }
    t=$(best "$times")
    [[ -z $first ]] && first=$t
    echo "| $name | strong | $ranks | [$grid] | $cycles | $times | $(awk -v a="$first" -v b="$t" 'BEGIN { printf "%.2fx", a / b }') |"
  done
done
first=""
for ranks in "${rank_counts[@]}"; do
  grid="4097,$((4096 * ranks + 1))"
  read -r cycles times <<< "$(mg_run "2d-weak" "$ranks" "$grid" examples/poisson_multigrid.yaml \
    --set grid.extent="[1,$ranks]" --set parallel.ranks="[1,$ranks]")"
  [[ $cycles == failed* ]] && { echo "| 2d | weak | $ranks | [$grid] | $cycles | | |"; continue; }
  t=$(best "$times")
  [[ -z $first ]] && first=$t
  echo "| 2d | weak | $ranks | [$grid] | $cycles | $times | $(awk -v a="$first" -v b="$t" 'BEGIN { printf "%.1f%%", 100 * a / b }') |"
done
if [[ $max_ranks -ge 2 ]]; then
  for mg in "2d 8193,8193 examples/poisson_multigrid.yaml" "3d 513,513,513 examples/poisson_box.yaml"; do
    read -r name grid case_file <<< "$mg"
    for coarse in ${MG_COARSE-gather redundant}; do
      for gather in ${MG_GATHER-4096 65536 1048576}; do
        read -r cycles times <<< "$(mg_run "$name-$grid-$coarse-gather$gather" "$max_ranks" "$grid" \
          "$case_file" --set parallel.gather_below="$gather" --set parallel.coarse_levels="$coarse")"
        echo "| $name | $coarse, gather_below $gather | $max_ranks | [$grid] | $cycles | $times | |"
      done
    done
  done
fi
