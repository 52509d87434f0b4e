// `fdsolve check`, `fdsolve compare` and `--version`: the commands that run no solve.
#include <fmt/format.h>

#include "backend.hpp"
#include "case_reader.hpp"
#include "commands.hpp"
#include "compare.hpp"
#include "exit_codes.hpp"
#include "jacobi.hpp"

#ifndef FDSOLVE_CUDA_ARCHITECTURES
#define FDSOLVE_CUDA_ARCHITECTURES ""
#endif

namespace fdsolve {

int check_command(const std::string& case_path, const std::vector<std::string>& overrides,
                  std::ostream& out) {
  const Case c = read_case_file(case_path, overrides);
  const std::size_t bytes = required_memory(c);
  out << to_yaml(c);
  out << fmt::format("# memory: {} bytes ({:.3f} GiB) for the fields on the backend\n", bytes,
                     static_cast<double>(bytes) / (1 << 30));
  return kExitOk;
}

int compare_command(const std::string& a, const std::string& b, double rtol, double atol,
                    std::ostream& out) {
  const output::CompareReport r = output::compare_paths(a, b, rtol, atol);
  for (const auto& f : r.fields) out << output::describe(f) << "\n";
  for (const auto& d : r.differences) out << "difference: " << d << "\n";
  out << fmt::format("{}: max abs diff {:.3e}, max rel diff {:.3e} (rtol {}, atol {})\n",
                     r.equal ? "equal" : "different", r.max_abs_diff, r.max_rel_diff, rtol, atol);
  return r.equal ? kExitOk : kExitRuntime;
}

std::string version_text() {
  std::string s = fmt::format("fdsolve {}\n", FDSOLVE_VERSION);
  s += FDSOLVE_HAVE_CUDA ? fmt::format("CUDA: on (architectures {})\n", FDSOLVE_CUDA_ARCHITECTURES)
                         : std::string("CUDA: off\n");
  s += "precision: float, double\nCPU backend: OpenMP\n";
  const int n = cuda_device_count();
  if (n == 0) s += "CUDA devices: none (" + cuda_unavailable_reason() + ")";
  for (int i = 0; i < n; ++i)
    s += fmt::format("CUDA device {}: {}\n", i, make_cuda_backend<float>(i)->device());
  return s;
}

}  // namespace fdsolve
