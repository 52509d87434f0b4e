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

// Defaults: the measured best per dimension, same for float and double (docs/performance.md).
// Measured 2026-11-21 on an NVIDIA H200 (no H100 was lent), `fdsolve bench`, copy 4.23 TB/s:
//   2D 16384^2: rows128g4 81.8% (float) / 84.2-87.6% (double, two runs) of copy, 75.0% / 79.1%
//     with a norm every sweep; rows256g2 79.8-83.9% / 87.5-88.2%, 75.2% / 75.9% with norms.
//   3D 512^3 27-point: vring16s3 72.1% / 71.3%, 61.3% / 62.3% with norms; vmarch4p1 69.3% /
//     70.2%, 55.2% / 52.0% with norms; best march 40% / 54%.
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
