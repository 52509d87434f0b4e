// Launches and variants of the 3D 7/19/27-point temporally blocked sweep (tblock3d_kernel.cuh):
// one-wave z chunks sized from the occupancy at the step count's shared memory.
#include <array>

#include "tblock3d_kernel.cuh"
#include "variants.cuh"

namespace fdsolve::cuda {
namespace {

constexpr int kMaxSteps3d = 4;

/// Resident blocks per SM of one instantiation for each step count (its shared memory grows
/// with the steps); the first call, at table building, asks the driver for every count and
/// raises the kernel's shared-memory limit, so that launches (possibly inside a CUDA graph
/// capture) only read the table.
template <typename T, int TY, int Points>
int tblock3d_resident(int steps) {
  constexpr auto kernel = &tblock3d_kernel<T, TY, Points>;
  static const auto table = [] {
    std::array<int, kMaxSteps3d + 1> per_sm{};
    allow_shared_bytes<kernel>(tblock3d_shared_bytes<T, TY>(kMaxSteps3d));
    for (int k = 1; k <= kMaxSteps3d; ++k) {
      if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(
              &per_sm[k], kernel, 32 * TY, tblock3d_shared_bytes<T, TY>(k)) != cudaSuccess) {
        cudaGetLastError();
        per_sm[k] = 1;
      }
      per_sm[k] = std::max(per_sm[k], 1);
    }
    return per_sm;
  }();
  return table[steps];
}

template <typename T, int TY, int Points>
void tblock3d_launch_points(const DevArgs<T>& a, int steps, int sm_count, cudaStream_t stream) {
  long long chunk = 0;
  const long long capacity =
      static_cast<long long>(tblock3d_resident<T, TY, Points>(steps)) * sm_count;
  const dim3 grid = tblock3d_grid<T, TY>(a, steps, capacity, chunk);
  tblock3d_kernel<T, TY, Points>
      <<<grid, dim3(32, TY), tblock3d_shared_bytes<T, TY>(steps), stream>>>(a, steps, chunk);
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

template <typename T, int TY>
StepVariant<T> tblock3d(const char* name) {
  tblock3d_resident<T, TY, 7>(1);
  tblock3d_resident<T, TY, 19>(1);
  tblock3d_resident<T, TY, 27>(1);
  return {name, kMaxSteps3d, &tblock3d_launch<T, TY>};
}

}  // namespace

template <typename T>
void add_tblock3d_variants(std::vector<StepVariant<T>>& table) {
  // Names: tb3d<TY>, a tile of 32 vectors by TY rows; at most 4 sweeps per pass (the output
  // tile keeps TY-8 rows, and four sweeps' rings of a 32-row tile fill the shared memory).
  table.push_back(tblock3d<T, 16>("tb3d16"));
  table.push_back(tblock3d<T, 32>("tb3d32"));
}

template void add_tblock3d_variants<float>(std::vector<StepVariant<float>>&);
template void add_tblock3d_variants<double>(std::vector<StepVariant<double>>&);

}  // namespace fdsolve::cuda
