// Device queries and the copy yardstick of `fdsolve bench` (see cuda_device.cuh).
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "backend.hpp"
#include "cuda_check.cuh"
#include "cuda_device.cuh"
#include "expression_compile.hpp"

namespace fdsolve {

int cuda_device_count() {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) {
    cudaGetLastError();  // clear the non-sticky error so later calls start clean
    return 0;
  }
  return n;
}

std::string cuda_unavailable_reason() {
  int n = 0;
  const cudaError_t err = cudaGetDeviceCount(&n);
  if (err != cudaSuccess) {
    cudaGetLastError();
    return std::string(cudaGetErrorName(err)) + ": " + cudaGetErrorString(err);
  }
  return n == 0 ? "no CUDA device found" : "";
}

void compile_formulas_ahead(const std::vector<FieldProgram>& programs, int device) {
  // The architecture without creating a context (that is what the compiling overlaps).
  int major = 0, minor = 0;
  if (cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device) != cudaSuccess ||
      cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device) != cudaSuccess) {
    cudaGetLastError();  // the backend reports the device's trouble when it is created
    return;
  }
  compile_formulas_for_arch(programs, major * 10 + minor);
}

void compile_formulas_for_arch(const std::vector<FieldProgram>& programs, int arch) {
  for (const FieldProgram& p : programs)
    if (!p.cuda_body.empty() && !p.is_constant)
      cuda::compile_expression_ahead(cuda::expression_source(p), arch);
}

namespace cuda {

std::string describe_device(const cudaDeviceProp& props) {
  char text[256];
  std::snprintf(text, sizeof text, "%s (sm_%d%d, %d SMs, %.1f GiB)", props.name, props.major,
                props.minor, props.multiProcessorCount,
                static_cast<double>(props.totalGlobalMem) / (1024.0 * 1024.0 * 1024.0));
  return text;
}

double device_copy_bandwidth(char* a, char* b, std::size_t nbytes, cudaStream_t stream) {
  FDSOLVE_CUDA_CHECK(cudaMemsetAsync(a, 1, nbytes, stream));
  cudaEvent_t start, stop;
  FDSOLVE_CUDA_CHECK(cudaEventCreate(&start));
  FDSOLVE_CUDA_CHECK(cudaEventCreate(&stop));
  std::vector<float> ms;
  for (int rep = 0; rep < 12; ++rep) {
    FDSOLVE_CUDA_CHECK(cudaEventRecord(start, stream));
    FDSOLVE_CUDA_CHECK(cudaMemcpyAsync(b, a, nbytes, cudaMemcpyDeviceToDevice, stream));
    FDSOLVE_CUDA_CHECK(cudaEventRecord(stop, stream));
    FDSOLVE_CUDA_CHECK(cudaEventSynchronize(stop));
    float t = 0;
    FDSOLVE_CUDA_CHECK(cudaEventElapsedTime(&t, start, stop));
    if (rep >= 2) ms.push_back(t);  // the first copies warm up clocks and TLBs
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  std::sort(ms.begin(), ms.end());
  const double median_s = 1e-3 * ms[ms.size() / 2];
  return 2.0 * static_cast<double>(nbytes) / median_s;  // bytes read + bytes written
}

}  // namespace cuda
}  // namespace fdsolve
