// The kernel variant a case runs with on a backend (see case_kernel.hpp).
#include "case_kernel.hpp"

#include <spdlog/spdlog.h>

#include <set>
#include <stdexcept>

#include "case_reader.hpp"
#include "problem/problem_setup.hpp"

namespace fdsolve {

template <typename T>
KernelChoice kernel_choice(const Case& c, const Backend<T>& backend) {
  return kernel_choice(c, kernel_catalog(backend), static_cast<int>(sizeof(T)));
}

KernelChoice kernel_choice(const Case& c, const KernelCatalog& k, int value_bytes) {
  const int dims = c.grid.dims;
  const ChoiceKey key{dims, stencil_class(dims, c.stencil.points),
                      value_bytes == 4 ? "float" : "double", update_box(c).cells()};
  KernelChoice choice = choose_with_cache(c.tuning.kernel, key, k.backend, k.device, k.kernels[0],
                                          k.kernels[1], k.defaults[dims == 2 ? 0 : 1]);
  if (!choice.warning.empty()) {
    // Once per message: the choice is made both before the run and by the solve.
    static std::set<std::string> warned;
    if (warned.insert(choice.warning).second) spdlog::warn("{}", choice.warning);
  }
  return choice;
}

template <typename T>
KernelId choose_kernel(const Case& c, const Backend<T>& backend) {
  const KernelChoice choice = kernel_choice(c, backend);
  try {
    return backend.find_kernel(c.grid.dims, choice.kernel);
  } catch (const std::invalid_argument& e) {
    throw InputError(c.where("tuning.kernel") + "tuning.kernel: " + e.what());
  }
}

template KernelChoice kernel_choice<float>(const Case&, const Backend<float>&);
template KernelChoice kernel_choice<double>(const Case&, const Backend<double>&);
template KernelId choose_kernel<float>(const Case&, const Backend<float>&);
template KernelId choose_kernel<double>(const Case&, const Backend<double>&);

}  // namespace fdsolve
