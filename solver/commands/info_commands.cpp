// `fdsolve check`, `fdsolve compare` and `--version`: the commands that run no solve.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include <cmath>
#include <sstream>

#include "backend.hpp"
#include "backend_select.hpp"
#include "case_reader.hpp"
#include "commands.hpp"
#include "compare.hpp"
#include "exit_codes.hpp"
#include "loop/jacobi.hpp"
#include "loop/discretization_stop.hpp"
#include "loop/probes.hpp"
#include "loop/stability.hpp"
#include "loop/stop_rules.hpp"
#include "operator/medium.hpp"
#include "operator/medium_sample.hpp"
#include "parallel/agree.hpp"
#include "parallel/comm.hpp"
#include "parallel/decomposition.hpp"
#include "parallel/halo_exchange.hpp"
#include "problem/finite_inputs.hpp"
#include "problem/memory_estimate.hpp"
#include "solve.hpp"
#include "tuning/case_kernel.hpp"

#ifndef FDSOLVE_CUDA_ARCHITECTURES
#define FDSOLVE_CUDA_ARCHITECTURES ""
#endif

namespace fdsolve {
namespace {

/// Everything `check` prints, built before anything is printed.
void check_text(const Case& c, const parallel::Comm& comm, const CoefficientRange& range,
                std::ostream& text);

/// "# expressions: ..." : how much of the grid check evaluated them at; empty without any.
std::string coverage_line(const Case& c, bool full);

}  // namespace

int check_command(const std::string& case_path, const std::vector<std::string>& overrides,
                  std::ostream& out, bool full) {
  const parallel::Comm comm = parallel::Comm::world();
  CoefficientRange range;  // the coefficient's, for the tolerance warning
  const Case c = parallel::agree(comm, [&] {
    Case read = read_case_file(case_path, overrides);
    resolve_method_defaults(read);
    // Cheap at any size: formulas are evaluated at samples unless --full asks for every node.
    check_finite_inputs(read, full ? Coverage::Every : Coverage::Sampled);
    if (op::may_need_flux(read) && !full && op::medium_can_be_sampled(read)) {
      const std::array<double, 2> seen = op::check_medium_sampled(read);
      range = {seen[0], seen[1]};
    } else {
      range = coefficient_range(read);  // resolves (and checks) a medium that may vary
    }
    return read;
  });
  // Everything is built before anything is printed: a check that fails late (e.g. heat's
  // stability limit) must leave stdout empty, as for any other invalid case.
  std::ostringstream text;
  parallel::agree(comm, [&] {
    check_text(c, comm, range, text);
    text << coverage_line(c, full);
  });
  if (comm.root()) out << text.str();  // under mpirun, once
  return kExitOk;
}

namespace {

std::string coverage_line(const Case& c, bool full) {
  bool any = c.initial.is_expression() || c.problem.source.is_expression() ||
             c.problem.coefficient.is_expression() || c.problem.capacity.is_expression();
  for (const FixedRegion& r : c.problem.fixed)
    any = any || r.where.is_expression() || r.value.is_expression();
  for (int face = 0; face < 2 * c.grid.dims; ++face)
    any = any || c.boundary[face].value.is_expression() ||
          c.boundary[face].gradient.is_expression() || c.boundary[face].ambient.is_expression();
  if (!any) return {};
  index_t cells = 1;
  for (int a = 0; a < c.grid.dims; ++a) cells *= c.grid.points[a];
  if (full || cells <= kSampleEveryNode)
    return "# expressions: evaluated at every node (t = 0)\n";
  const Box all{{0, 0, 0}, {c.grid.points[0], c.grid.points[1],
                            c.grid.dims == 3 ? c.grid.points[2] : 1}};
  return fmt::format("# expressions: sampled at {} of {} nodes (corners, face centres and a "
                     "lattice, t = 0); `fdsolve check --full` evaluates every node\n",
                     sample_nodes(all).size(), cells);
}

/// "# kernel: NAME (why)" for the backend this machine would run the case on.
/// On CUDA from the backend's catalog: no backend is created (a CUDA context costs 0.13 s).
template <typename T>
std::string kernel_line_typed(const Case& c, bool cuda) {
  const KernelCatalog catalog =
      cuda ? cuda_kernel_catalog<T>(0) : kernel_catalog(*make_backend<T>(false));
  const KernelChoice k = kernel_choice(c, catalog, static_cast<int>(sizeof(T)));
  const auto& names = catalog.kernels[c.grid.dims == 2 ? 0 : 1];
  if (std::find(names.begin(), names.end(), k.kernel) == names.end())
    return fmt::format("# kernel: '{}' is no {}D variant of {}: run refuses it ({})\n", k.kernel,
                       c.grid.dims, catalog.backend, fmt::join(names, ", "));
  return fmt::format("# kernel: {} on {} ({})\n", k.kernel, catalog.backend, k.reason);
}

std::string kernel_line(const Case& c) {
  const bool cuda = c.backend != BackendChoice::Cpu && cuda_device_count() > 0;
  if (c.backend == BackendChoice::Cuda && !cuda)
    return "# kernel: chosen when the run starts (no CUDA device here: " +
           cuda_unavailable_reason() + ")\n";
  return c.precision == Precision::Float ? kernel_line_typed<float>(c, cuda)
                                         : kernel_line_typed<double>(c, cuda);
}

void check_text(const Case& c, const parallel::Comm& comm, const CoefficientRange& range,
                std::ostream& text) {
  text << to_yaml(c);
  const auto gib = [](std::size_t b) { return static_cast<double>(b) / (1 << 30); };
  const std::size_t device = case_memory(c), host = required_host_memory(c);
  text << fmt::format("# memory: {} bytes ({:.3f} GiB) on the backend (device, or host for cpu)\n",
                      device, gib(device));
  text << fmt::format("# memory: {} bytes ({:.3f} GiB) more on the host with a GPU backend\n", host,
                      gib(host));
  if (c.problem.equation == Equation::Heat && c.time.scheme != TimeScheme::Explicit) {
    // The explicit limit beside dt (their ratio), the ringing warning, the hierarchy.
    for (const std::string& line : describe_method(c)) text << "# " << line << "\n";
  } else if (c.problem.equation == Equation::Heat) {
    const TimePlan p = heat_time_plan(c);
    text << fmt::format("# stability limit: dt <= {:.6g} ({}, {})\n", p.limit,
                        describe_diffusivity(c), describe_stencil(c));
    text << fmt::format("# dt: {:.6g} ({}), {} steps to t = {:g}\n", p.dt,
                        c.time.dt_auto ? fmt::format("auto: {:g} x the limit", c.time.safety)
                                       : std::string("given"),
                        p.steps, c.time.end);
  } else {
    for (const std::string& line : describe_method(c)) text << "# " << line << "\n";
  }
  if (!c.problem.coefficient.is_constant())
    text << (c.problem.sampling == Sampling::Cells
                 ? "# sampling: cells: the coefficient at cell centres, each face the harmonic "
                   "mean of the cells beside it (material interfaces on cell faces)\n"
                 : "# sampling: nodes: the coefficient at the nodes, each face the harmonic mean "
                   "of its two nodes (problem.sampling: cells puts interfaces on cell faces)\n");
  if (c.problem.equation == Equation::Heat && !c.problem.capacity.is_constant())
    text << (c.problem.sampling == Sampling::Cells
                 ? "# sampling: cells: the capacity at cell centres, each node's c the mean of "
                   "the cells around it\n"
                 : "# sampling: nodes: the capacity at the nodes\n");
  if (const std::string times = describe_output_times(c); !times.empty())
    text << "# " << times << "\n";
  for (const std::string& line : describe_probes(c)) text << "# probe " << line << "\n";
  // Jacobi's rate says nothing about multigrid cycles or conjugate gradients.
  if (c.problem.equation != Equation::Heat && !runs_multigrid(c)) {
    const JacobiEstimate e = jacobi_estimate(c);
    text << fmt::format("# Jacobi spectral radius on this grid: {:.9f}\n", e.spectral_radius);
    if (std::isfinite(e.iterations))
      text << fmt::format("# estimated iterations to reduce the norm by tolerance {:g}: {:.0f}{}\n",
                          c.solve.tolerance, std::ceil(e.iterations),
                          e.iterations > static_cast<double>(c.solve.max_iterations)
                              ? " (more than max_iterations)"
                              : "");
    else
      text << "# estimated iterations: the iteration does not contract on this grid\n";
  }
  if (runs_multigrid(c))
    text << fmt::format("# max_iterations: {} cycles{}{}\n", c.solve.max_iterations,
                        c.problem.equation == Equation::Heat ? " per step" : "",
                        c.locations.contains("solve.max_iterations")
                            ? ""
                            : " (the multigrid default; Jacobi's is 1000000)");
  if (c.solve.tolerance_discretization)
    text << fmt::format(
        "# tolerance: discretization: stop when the estimated algebraic error is at most {:g} x "
        "the estimated discretization error (Richardson's, against the grid through every "
        "other node, solved first; {} norm)\n",
        DiscretizationStop::kFraction, c.solve.norm == NormKind::L2 ? "l2" : "linf");
  if (const std::string w = tolerance_warning(c, runs_multigrid(c), range); !w.empty())
    text << "# warning: " << w << "\n";
  text << kernel_line(c);
  if (comm.several()) {
    // Rank 0 owns the largest sub-box (the first parts of an uneven split get a node more) and,
    // for multigrid, the levels gathered onto it.
    const std::array<int, 3> ranks = parallel::choose_ranks(c, comm);
    const parallel::Decomposition d = case_decomposition(c, ranks, 0);
    const std::size_t device = case_memory(c, ranks, 0);
    const std::size_t host = required_host_memory(c, d.sub, true);
    for (const std::string& line : describe_split(c, ranks)) text << "# " << line << "\n";
    // The backend a run would take (backend_select's rule, without its log line).
    const bool on_gpu = c.backend != BackendChoice::Cpu && cuda_device_count() > 0;
    text << fmt::format("# halo exchange: {}, {}\n", exchange_path(!on_gpu),
                        c.parallel.overlap ? "overlapped with the interior sweep"
                                           : "not overlapped (parallel.overlap: false)");
    text << fmt::format(
        "# memory per rank: at most {} bytes ({:.3f} GiB) on the backend, {} bytes "
        "({:.3f} GiB) more on the host of rank 0 with a GPU backend{}\n",
        device, gib(device), host, gib(host),
        output::parallel_hdf5() ? " (snapshots written collectively, parallel HDF5)"
                                : " (it gathers the snapshots: serial HDF5)");
  }
}

}  // namespace

int compare_command(const std::string& a, const std::string& b, double rtol, double atol,
                    std::ostream& out) {
  const output::CompareReport r = output::compare_paths(a, b, rtol, atol);
  for (const auto& f : r.fields) out << output::describe(f) << "\n";
  for (const auto& d : r.differences) out << "difference: " << d << "\n";
  for (const auto& o : r.one_side) out << "not compared: " << o << "\n";
  const std::string snapshots =
      r.one_side.empty()
          ? std::string()
          : fmt::format("; {} snapshot{} compared, {} in one directory only (not compared)",
                        r.snapshots_compared, r.snapshots_compared == 1 ? "" : "s",
                        r.one_side.size());
  out << fmt::format("{}: max abs diff {:.3e}, max rel diff {:.3e} (rtol {}, atol {}){}\n",
                     r.equal ? "equal" : "different", r.max_abs_diff, r.max_rel_diff, rtol, atol,
                     snapshots);
  return r.equal ? kExitOk : kExitRuntime;
}

std::string version_text() {
  std::string s = fmt::format("fdsolve {}\n", FDSOLVE_VERSION);
  s += FDSOLVE_HAVE_CUDA ? fmt::format("CUDA: on (architectures {})\n", FDSOLVE_CUDA_ARCHITECTURES)
                         : std::string("CUDA: off\n");
  s += parallel::mpi_build_text() + "\n";
  s += "precision: float, double\nCPU backend: OpenMP\n";
  const int n = cuda_device_count();
  if (n == 0) s += "CUDA devices: none (" + cuda_unavailable_reason() + ")";
  for (int i = 0; i < n; ++i)
    s += fmt::format("CUDA device {}: {}\n", i, make_cuda_backend<float>(i)->device());
  return s;
}

}  // namespace fdsolve
