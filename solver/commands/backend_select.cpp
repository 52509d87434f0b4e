// Backend selection for `fdsolve run`.
#include "backend_select.hpp"

#include <spdlog/spdlog.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "problem/field_programs.hpp"

#ifndef FDSOLVE_CUDA_ARCHITECTURES
#define FDSOLVE_CUDA_ARCHITECTURES ""
#endif

namespace fdsolve {

namespace {

/// The first architecture of the build's CMAKE_CUDA_ARCHITECTURES ("90", "90-real", "native:
/// 90", "80;90"), or 0 where none is named.
int built_cuda_architecture() {
  const std::string text = FDSOLVE_CUDA_ARCHITECTURES;
  const std::size_t first = text.find_first_of("0123456789");
  return first == std::string::npos ? 0 : std::atoi(text.c_str() + first);
}

}  // namespace

void compile_formulas_early(const Case& c) {
  // Only beside the NVIDIA driver's device node: elsewhere the run fails or takes the CPU, and
  // its exit would wait for a compile nobody uses.
  const int arch = built_cuda_architecture();
  if (c.backend == BackendChoice::Cpu || arch == 0 || !std::filesystem::exists("/dev/nvidiactl"))
    return;
  try {
    compile_formulas_for_arch(case_formula_programs(c), arch);
  } catch (...) {
    // A head start only: the run's own compile reports any trouble, on every rank alike.
  }
}

bool use_cuda(BackendChoice choice) {
  if (choice == BackendChoice::Cpu) return false;
  const bool available = cuda_device_count() > 0;
  if (choice == BackendChoice::Cuda && !available)
    throw BackendError("backend cuda requested, but no CUDA device is usable: " +
                       cuda_unavailable_reason());
  if (!available) spdlog::info("backend auto: using the CPU ({})", cuda_unavailable_reason());
  return available;
}

template <typename T>
std::unique_ptr<Backend<T>> make_backend(bool cuda, int device) {
  if (!cuda) return make_cpu_backend<T>();
  const int devices = cuda_device_count();
  return make_cuda_backend<T>(devices > 0 ? device % devices : 0);
}

template std::unique_ptr<Backend<float>> make_backend<float>(bool, int);
template std::unique_ptr<Backend<double>> make_backend<double>(bool, int);

}  // namespace fdsolve
