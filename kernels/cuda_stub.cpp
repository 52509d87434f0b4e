// Stands in for the CUDA backend when fdsolve is built without CUDA, so that the solver needs
// no #ifdef: asking for CUDA reports why it is missing.
#include "backend.hpp"
#include "formula_cache_use.hpp"

namespace fdsolve {

int cuda_device_count() { return 0; }

std::string cuda_unavailable_reason() { return "fdsolve was built without CUDA"; }

void compile_formulas_ahead(const std::vector<FieldProgram>&, int) {}

void compile_formulas_for_arch(const std::vector<FieldProgram>&, int) {}

void use_formula_cache(const std::filesystem::path&) {}

template <typename T>
std::unique_ptr<Backend<T>> make_cuda_backend(int) {
  throw BackendError("CUDA backend unavailable: " + cuda_unavailable_reason());
}

template <typename T>
KernelCatalog cuda_kernel_catalog(int) {
  throw BackendError("CUDA backend unavailable: " + cuda_unavailable_reason());
}

template KernelCatalog cuda_kernel_catalog<float>(int);
template KernelCatalog cuda_kernel_catalog<double>(int);
template std::unique_ptr<Backend<float>> make_cuda_backend<float>(int);
template std::unique_ptr<Backend<double>> make_cuda_backend<double>(int);

}  // namespace fdsolve
