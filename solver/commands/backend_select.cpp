// Backend selection for `fdsolve run`.
#include "backend_select.hpp"

#include <spdlog/spdlog.h>

namespace fdsolve {

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
