// Richardson's estimate of the discretization error (see richardson.hpp).
#include "richardson.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <chrono>

#include "case_reader.hpp"
#include "loop/solve_result.hpp"
#include "multigrid_solve.hpp"
#include "problem/problem_setup.hpp"
#include "run_output.hpp"
#include "steady_solve.hpp"

namespace fdsolve::multigrid {

std::string richardson_obstacle(const Case& c) {
  for (int a = 0; a < c.grid.dims; ++a) {
    const std::int64_t intervals = c.grid.periodic[a] ? c.grid.points[a] : c.grid.points[a] - 1;
    if (intervals % 2 != 0 || intervals < 4)
      return fmt::format("the {} axis has {} intervals: the estimate needs the grid through every "
                         "other node, an even number of at least 4",
                         "xyz"[a], intervals);
  }
  if (c.problem.source.is_file())
    return "problem.source comes from a file, which has no values on the coarser grid";
  for (int face = 0; face < 2 * c.grid.dims; ++face)
    if (c.boundary[face].value.is_file() || c.boundary[face].gradient.is_file())
      return "boundary data come from a file";
  return {};
}

Case coarse_case(const Case& c) {
  Case k = c;
  for (int a = 0; a < c.grid.dims; ++a)
    k.grid.points[a] = c.grid.periodic[a] ? c.grid.points[a] / 2 : (c.grid.points[a] - 1) / 2 + 1;
  k.name = c.name + "_coarse";
  k.initial = Value{};  // the start does not change the solution
  k.solve.method = SolveMethod::Multigrid;
  k.solve.tolerance_discretization = false;
  k.solve.tolerance = c.precision == Precision::Float ? 1e-5 : 1e-7;
  k.solve.absolute_tolerance = 0;
  k.solve.max_iterations = 100;
  k.solve.diagnostics = false;
  k.solve.max_wall_time = 0;
  k.output.every = 0;
  k.output.fields = {"u"};
  k.output.queue = 0;
  k.checkpoint.every = 0;
  return k;
}

template <typename T>
RichardsonEstimate<T>::RichardsonEstimate(const Case& c, Backend<T>& backend, const Layout& L,
                                          const Box& box)
    : l2_(c.solve.norm == NormKind::L2), backend_(backend), fine_layout_(L) {
  const auto start = std::chrono::steady_clock::now();
  const Case k = coarse_case(c);
  SolveOptions options;
  // The coarse solution stays in backend memory: copied out of the run's field at its end.
  options.final_state = [this](const void* field, const Layout& layout) {
    coarse_layout_ = layout;
    coarse_ = backend_.allocate(layout.size);
    backend_.copy(coarse_, *static_cast<const Buffer<T>*>(field));
  };
  // The coarse run writes nothing (RunOutput without writes) and logs only warnings.
  const auto level = spdlog::get_level();
  spdlog::set_level(spdlog::level::warn);
  SolveResult r;
  try {
    output::RunOutput out("", k.name, grid_meta(k), "", false);
    r = solve_steady<T>(problem::on_stencil(k, problem::Method::Multigrid, sizeof(T), options),
                        backend, out, options);
  } catch (...) {
    spdlog::set_level(level);
    throw;
  }
  spdlog::set_level(level);
  spdlog::debug("tolerance: discretization: the coarse grid's solve took {:.4f} s ({} cycles, "
                "loop {:.4f} s)",
                std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(),
                r.iterations, r.seconds);
  if (r.status != SolveStatus::Converged)
    spdlog::warn("tolerance: discretization: the coarse grid's solve stopped as {} after {} "
                 "cycles; the estimate uses its last state",
                 to_string(r.status), r.iterations);
  // Coarse node I is fine node 2I: the coarse nodes from ceil(lo / 2) to floor((hi - 1) / 2).
  for (int a = 0; a < 3; ++a) {
    const bool axis = a < c.grid.dims;
    coarse_box_.lo[a] = axis ? (box.lo[a] + 1) / 2 : 0;
    coarse_box_.hi[a] = axis ? (box.hi[a] - 1) / 2 + 1 : 1;
  }
  seconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

template <typename T>
double RichardsonEstimate<T>::operator()(const Buffer<T>& u) const {
  SharedNodesArgs<T> a;
  a.fine = u.data();
  a.fine_layout = fine_layout_;
  a.coarse = coarse_.data();
  a.coarse_layout = coarse_layout_;
  a.coarse_box = coarse_box_;
  return difference_norm(backend_.shared_node_difference(a), l2_) / 3;
}

template class RichardsonEstimate<float>;
template class RichardsonEstimate<double>;

}  // namespace fdsolve::multigrid
