#!/usr/bin/env bash
# NVIDIA's multi-GPU Jacobi samples beside fdsolve's Jacobi over GPU ranks (docs/parallel.md,
# "Two GPUs"): builds them from a checkout of NVIDIA/multi-gpu-programming-models and runs
# them on this node's GPUs, strong (16384^2 split over the GPUs) and weak (16384 x 16384 per
# GPU), float and double, with the norm every iteration (the samples' default) and every 100.
#   tools/nvidia-jacobi-anchor.sh SAMPLES_DIR [GPUS] [OUTDIR]
# SAMPLES_DIR holds the samples' folders mpi_overlap/ and multi_threaded_copy_overlap/ (the
# device call carries them in an ignored folder; they are not part of fdsolve). mpi_overlap
# hands device pointers to MPI, so it runs only where Open MPI is CUDA-aware (the sample checks
# and says so); multi_threaded_copy_overlap (one process, a thread per GPU, peer copies) runs
# everywhere, in float only (its `real` is float; mpi_overlap's is double with -DUSE_DOUBLE).
# The NCCL samples (nccl, nccl_overlap, nccl_graphs: one process per GPU, the halos through NCCL
# on the device, MPI only to start) need no CUDA-aware MPI; they build against the system's
# NCCL (NCCL_HOME, default /usr) and run in float or double (-DUSE_DOUBLE).
# ANCHOR_SAMPLES picks the samples (default: multi_threaded_copy_overlap mpi_overlap nccl
# nccl_overlap nccl_graphs), ANCHOR_PRECISIONS the precisions (float double), ANCHOR_CHECKS
# the norm intervals (1 100), ANCHOR_KINDS strong and/or weak.
# The samples time 1000 iterations (-niter) on a grid of -nx columns and -ny rows,
# the rows split over the GPUs, and print "1 GPU: t1 s, N GPUs: tN s, speedup, efficiency";
# for the weak rows the N-GPU time of the doubled grid is set against the 1-GPU time of one.
set -uo pipefail
src=${1:?usage: tools/nvidia-jacobi-anchor.sh SAMPLES_DIR [GPUS] [OUTDIR]}
gpus=${2:-2}
out=${3:-nvidia-anchor}
iters=${ANCHOR_ITERS:-1000}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mkdir -p "$out"
out=$(cd "$out" && pwd)
arch=${BUILD_SM_ARCH:-90}
nccl_home=${NCCL_HOME:-/usr}
samples=${ANCHOR_SAMPLES:-multi_threaded_copy_overlap mpi_overlap nccl nccl_overlap nccl_graphs}
precisions=${ANCHOR_PRECISIONS:-float double}
checks=${ANCHOR_CHECKS:-1 100}
kinds=${ANCHOR_KINDS:-strong weak}

build() {  # sample precision: a binary $out/<sample>-<precision>, or nothing on failure
  local sample=$1 precision=$2 dir="$out/build-$1-$2"
  rm -rf "$dir" && cp -r "$src/$sample" "$dir" || return 1
  local extra=""
  [[ $precision == double ]] && extra="-DUSE_DOUBLE"
  if [[ $sample == nccl* ]]; then
    (cd "$dir" && nvcc -DHAVE_CUB -lineinfo -gencode "arch=compute_$arch,code=sm_$arch" \
        -std=c++17 $extra -c jacobi_kernels.cu \
      && mpicxx -I/usr/local/cuda/include -I"$nccl_home/include" -std=c++17 $extra jacobi.cpp \
        jacobi_kernels.o -L/usr/local/cuda/lib64 -L"$nccl_home/lib" \
        -L"$nccl_home/lib/x86_64-linux-gnu" -lcudart -ldl -lnccl -o jacobi) \
      > "$dir.log" 2>&1 || return 1
  elif [[ $sample == mpi_overlap ]]; then
    (cd "$dir" && nvcc -DHAVE_CUB -lineinfo -gencode "arch=compute_$arch,code=sm_$arch" \
        -std=c++17 $extra -c jacobi_kernels.cu \
      && mpicxx -DSKIP_CUDA_AWARENESS_CHECK -I/usr/local/cuda/include -std=c++17 $extra \
        jacobi.cpp jacobi_kernels.o -L/usr/local/cuda/lib64 -lcudart -ldl -o jacobi) \
      > "$dir.log" 2>&1 || return 1
  else
    (cd "$dir" && nvcc -DHAVE_CUB -Xcompiler -fopenmp -lineinfo \
        -gencode "arch=compute_$arch,code=sm_$arch" -std=c++17 $extra jacobi.cu -o jacobi) \
      > "$dir.log" 2>&1 || return 1
  fi
  cp "$dir/jacobi" "$out/$sample-$precision"
}

# Is Open MPI CUDA-aware? (mpi_overlap gives MPI device pointers; staged MPI would crash.)
cuda_aware=$(ompi_info --parsable --all 2>/dev/null \
  | awk -F: '/mpi_built_with_cuda_support:value/ { print $NF; exit }')
echo "Open MPI built with CUDA support: ${cuda_aware:-unknown}"

printf '| sample | precision | kind | grid (nx x ny) | GPUs | norm every | 1 GPU s | %s GPUs s | efficiency |\n' "$gpus"
echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"
for precision in $precisions; do
  for sample in $samples; do
    if [[ $sample == multi_threaded_copy_overlap && $precision == double ]]; then
      echo "| $sample | double | not built: the sample computes in float only | | | | | | |"
      continue
    fi
    if ! build "$sample" "$precision"; then
      echo "| $sample | $precision | build failed ($out/build-$sample-$precision.log) | | | | | | |"
      continue
    fi
    if [[ $sample == mpi_overlap && $cuda_aware != true ]]; then
      echo "| $sample | $precision | not run: Open MPI is not CUDA-aware | | | | | | |"
      continue
    fi
    for kind in $kinds; do
      ny=16384
      [[ $kind == weak ]] && ny=$((16384 * gpus))
      for check in $checks; do
        args=(-nx 16384 -ny "$ny" -niter "$iters" -nccheck "$check")
        # The NCCL samples take no -use_hp_streams.
        [[ $check -gt 1 && $sample != nccl* ]] && args+=(-use_hp_streams)
        log="$out/$sample-$precision-$kind-check$check.log"
        if [[ $sample == mpi_overlap || $sample == nccl* ]]; then
          mpirun -n "$gpus" --oversubscribe --bind-to none "$out/$sample-$precision" "${args[@]}" \
            > "$log" 2>&1
        else
          CUDA_VISIBLE_DEVICES=$(seq -s, 0 $((gpus - 1))) "$out/$sample-$precision" "${args[@]}" \
            > "$log" 2>&1
        fi
        # "16384x16384: 1 GPU: t1 s, 2 GPUs: t2 s, speedup: ..., efficiency: ..."
        line=$(grep -E "GPU: +[0-9.]+ s" "$log" | tail -1)
        if [[ -z $line ]]; then
          echo "| $sample | $precision | $kind | 16384 x $ny | $gpus | $check | failed ($log) | | |"
          continue
        fi
        t1=$(sed -E 's/.*1 GPU: +([0-9.]+) s.*/\1/' <<< "$line")
        tn=$(sed -E 's/.*GPUs: +([0-9.]+) s.*/\1/' <<< "$line")
        # t1 / (N tN), as the sample prints it: for the weak rows the 1-GPU run of the grown
        # grid does N GPUs' shares, so t1 / N is one share's time on one GPU.
        eff=$(awk -v a="$t1" -v b="$tn" -v n="$gpus" 'BEGIN { printf "%.1f%%", 100 * a / n / b }')
        echo "| $sample | $precision | $kind | 16384 x $ny | $gpus | $check | $t1 | $tn | $eff |"
      done
    done
  done
done
