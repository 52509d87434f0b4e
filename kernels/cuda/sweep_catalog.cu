// The CUDA backend's sweep variants and defaults, and its kernel catalog for `check` (known
// without creating a backend: no CUDA context).
#include <string>
#include <vector>

#include "backend.hpp"
#include "cuda_check.cuh"
#include "variants.cuh"

namespace fdsolve {
namespace cuda {

template <typename T>
void add_sweep_variants(std::vector<Variant<T>> (&tables)[2]) {
  add_plain_variants<T>(2, tables[0]);
  add_tile2d_variants<T>(tables[0]);
  add_rows2d_variants<T>(tables[0]);
  add_plain_variants<T>(3, tables[1]);
  add_march3d_variants<T>(tables[1]);
  add_vmarch3d_variants<T>(tables[1]);
}

template void add_sweep_variants<float>(std::vector<Variant<float>> (&)[2]);
template void add_sweep_variants<double>(std::vector<Variant<double>> (&)[2]);

// Defaults: the best of `fdsolve bench` per dimension at 2D 16384^2 and 3D 512^3 27-point on
// an H200, the same for float and double: rows128g4 (2D) within the run-to-run spread of
// rows256g2 unchecked and ahead of it with a norm every sweep in double; vring16s3 (3D) ahead
// of vmarch4p1, most with norms (docs/performance-history.md, "Results (last run, ..., H200)").
// They serve a GPU that neither a tune cache nor a built-in table covers: those come first
// (solver/tuning/kernel_choice.hpp; docs/performance.md, "Size ladder: the best variant per
// size").
const char* default_sweep_variant(int dims) { return dims == 2 ? "rows128g4" : "vring16s3"; }

std::string driver_version_text() {
  int driver = 0;
  FDSOLVE_CUDA_CHECK(cudaDriverGetVersion(&driver));
  return std::to_string(driver / 1000) + "." + std::to_string(driver % 1000 / 10);
}

}  // namespace cuda

template <typename T>
KernelCatalog cuda_kernel_catalog(int device) {
  const int count = cuda_device_count();
  if (count == 0) throw BackendError("CUDA backend unavailable: " + cuda_unavailable_reason());
  // The device's name by a property query, which needs no context.
  cudaDeviceProp props{};
  FDSOLVE_CUDA_CHECK(cudaGetDeviceProperties(&props, device % count));
  std::vector<cuda::Variant<T>> tables[2];
  cuda::add_sweep_variants<T>(tables);
  KernelCatalog catalog;
  catalog.backend = "cuda";
  catalog.device = {props.name, cuda::driver_version_text()};
  for (int d = 0; d < 2; ++d)
    for (const auto& v : tables[d]) catalog.kernels[d].emplace_back(v.name);
  catalog.defaults = {cuda::default_sweep_variant(2), cuda::default_sweep_variant(3)};
  return catalog;
}

template KernelCatalog cuda_kernel_catalog<float>(int);
template KernelCatalog cuda_kernel_catalog<double>(int);

}  // namespace fdsolve
