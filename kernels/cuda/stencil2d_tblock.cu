// Launches and variants of the 2D 5-point temporally blocked sweep (tblock2d_kernel.cuh).
#include "tblock2d_kernel.cuh"
#include "variants.cuh"

namespace fdsolve::cuda {
namespace {

template <typename T, int W, int TY, int R>
void tblock2d_launch(const DevArgs<T>& a, int steps, int, cudaStream_t stream) {
  constexpr int H = TY * R;
  const std::size_t bytes = sizeof(T) * W * H;
  tblock2d_kernel<T, W, TY, R>
      <<<tblock2d_grid<W, H>(a, steps), dim3(W, TY), bytes, stream>>>(a, steps);
  FDSOLVE_CUDA_CHECK_LAUNCH();
}

/// At most H/8 sweeps per pass: the output tile keeps at least 3/4 of the rows.
/// The shared-memory limit is raised here, when the backend builds its tables, not at launch:
/// launches may happen while a CUDA graph is being captured.
template <typename T, int W, int TY, int R>
StepVariant<T> tblock2d(const char* name) {
  allow_shared_bytes<tblock2d_kernel<T, W, TY, R>>(sizeof(T) * W * TY * R);
  return {name, TY * R / 8, &tblock2d_launch<T, W, TY, R>};
}

}  // namespace

template <typename T>
void add_tblock2d_variants(std::vector<StepVariant<T>>& table) {
  // Names: tb<W>x<H>, a W x H shared-memory tile (W x H/R threads, R rows each). Blocks of
  // 1024 threads get 64 registers: 16 double rows per thread spill (ptxas), so double keeps
  // 8 rows per thread and takes the taller tile with half the width.
  table.push_back(tblock2d<T, 128, 8, 8>("tb128x64"));
  if constexpr (sizeof(T) == 4) {
    table.push_back(tblock2d<T, 128, 8, 16>("tb128x128"));
    table.push_back(tblock2d<T, 256, 4, 16>("tb256x64"));
  } else {
    table.push_back(tblock2d<T, 64, 16, 8>("tb64x128"));
  }
}

template void add_tblock2d_variants<float>(std::vector<StepVariant<float>>&);
template void add_tblock2d_variants<double>(std::vector<StepVariant<double>>&);

}  // namespace fdsolve::cuda
