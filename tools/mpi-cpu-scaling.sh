#!/usr/bin/env bash
# Multigrid over CPU ranks on one node: the comparison problem (examples/poisson_multigrid.yaml)
# at 4097^2 and in 3D at 257^3 (7-point), solved to 1e-8 on 1, 2, 4, 8 and 16 ranks of one
# thread each, and on one rank of 16 OpenMP threads (the other way to use the node). One row
# per run: the solve time (summary.json), cycles, the speed-up over one rank and the loop's
# split (sweeps and transfers / exchanges / reductions on rank 0, from the parallel object).
#   tools/mpi-cpu-scaling.sh FDSOLVE [OUTDIR] [RANK COUNTS...]
set -uo pipefail
fdsolve=$(realpath "${1:?usage: tools/mpi-cpu-scaling.sh FDSOLVE [OUTDIR] [RANKS...]}")
out=${2:-mpi-cpu-scaling}
shift 2 2>/dev/null || shift $#
counts=("$@")
[[ ${#counts[@]} -eq 0 ]] && counts=(1 2 4 8 16)
example=$(cd "$(dirname "$0")/.." && pwd)/examples/poisson_multigrid.yaml
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mkdir -p "$out"
row() {  # label ranks threads args...
  local label=$1 ranks=$2 threads=$3 dir="$out/$1"
  shift 3
  local launcher=()
  [[ $ranks -gt 1 ]] && launcher=(mpirun -n "$ranks" --oversubscribe --bind-to core)
  OMP_NUM_THREADS=$threads "${launcher[@]}" "$fdsolve" run "$example" --backend cpu \
    --output "$dir" --set solve.tolerance=1e-8 --set output.every=0 --set checkpoint.every=0 \
    "$@" > "$dir.log" 2>&1
  echo "$label $? $ranks $threads $dir"
}
summarize() {
  python3 - "$@" <<'PY'
import json, sys
base = {}
for line in sys.argv[1:]:
    label, rc, ranks, threads, d = line.split()
    try:
        s = json.load(open(f"{d}/summary.json"))
    except Exception as e:  # noqa: BLE001
        print(f"| {label} | exit {rc} | no summary ({e.__class__.__name__}) |"); continue
    solve = s["timings"]["solve"]; key = label.split("-")[0]
    if ranks == "1" and threads == "1": base[key] = solve
    p = s.get("parallel")
    split = "-"
    if p:
        r0 = p["seconds_rank0"]
        split = f"{r0['sweep']:.3f} / {r0['exchange']:.3f} / {r0['reductions']:.3f}"
    speed = base[key] / solve if key in base else float("nan")
    print(f"| {label} | {ranks} | {threads} | {s['iterations']} | {solve:.3f} | {speed:.2f}x | {split} |")
PY
}
lines=()
for n in "${counts[@]}"; do lines+=("$(row "2d4097-r$n" "$n" 1 --set grid.points=[4097,4097])"); done
lines+=("$(row "2d4097-t16" 1 16 --set grid.points=[4097,4097])")
for n in "${counts[@]}"; do
  lines+=("$(row "3d257-r$n" "$n" 1 --set grid.points=[257,257,257] --set grid.extent=[1,1,1] --set stencil=7)")
done
lines+=("$(row "3d257-t16" 1 16 --set grid.points=[257,257,257] --set grid.extent=[1,1,1] --set stencil=7)")
echo "| run | ranks | threads | cycles | solve s | vs 1 rank | rank 0: sweeps+transfers / exchanges / reductions s |"
echo "| --- | --- | --- | --- | --- | --- | --- |"
summarize "${lines[@]}"
