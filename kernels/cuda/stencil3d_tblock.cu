// Launches and variants of the 3D 7/19/27-point temporally blocked sweep (tblock3d_kernel.cuh):
// one-wave z chunks sized from the occupancy at the step count's shared memory.
#include "tblock3d_kernel.cuh"
#include "variants.cuh"

namespace fdsolve::cuda {
namespace {

template <typename T, int TY, int Points>
void tblock3d_launch_points(const DevArgs<T>& a, int steps, int sm_count, cudaStream_t stream) {
  const std::size_t bytes = tblock3d_shared_bytes<T, TY>(steps);
  constexpr auto kernel = &tblock3d_kernel<T, TY, Points>;
  allow_shared_bytes<kernel>(bytes);
  // Resident blocks per SM for each step count (the shared memory grows with it), asked once.
  static int resident[17] = {};
  int& per_sm = resident[steps];
  if (per_sm == 0) {
    if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, 32 * TY, bytes) !=
        cudaSuccess) {
      cudaGetLastError();
      per_sm = 1;
    }
    per_sm = std::max(per_sm, 1);
  }
  long long chunk = 0;
  const dim3 grid =
      tblock3d_grid<T, TY>(a, steps, static_cast<long long>(per_sm) * sm_count, chunk);
  kernel<<<grid, dim3(32, TY), bytes, stream>>>(a, steps, chunk);
  FDSOLVE_CUDA_CHECK_LAUNCH();
}

template <typename T, int TY>
void tblock3d_launch(const DevArgs<T>& a, int steps, int sm_count, cudaStream_t stream) {
  switch (a.points) {
    case 7:
      return tblock3d_launch_points<T, TY, 7>(a, steps, sm_count, stream);
    case 19:
      return tblock3d_launch_points<T, TY, 19>(a, steps, sm_count, stream);
    default:
      return tblock3d_launch_points<T, TY, 27>(a, steps, sm_count, stream);
  }
}

}  // namespace

template <typename T>
void add_tblock3d_variants(std::vector<StepVariant<T>>& table) {
  // Names: tb3d<TY>, a tile of 32 vectors by TY rows; at most 4 sweeps per pass (the output
  // tile keeps TY-8 rows, and four sweeps' rings of a 32-row tile fill the shared memory).
  table.push_back({"tb3d16", 4, &tblock3d_launch<T, 16>});
  table.push_back({"tb3d32", 4, &tblock3d_launch<T, 32>});
}

template void add_tblock3d_variants<float>(std::vector<StepVariant<float>>&);
template void add_tblock3d_variants<double>(std::vector<StepVariant<double>>&);

}  // namespace fdsolve::cuda
