// Richardson's estimate of the discretization error (see richardson.hpp).
#include "richardson.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "case_reader.hpp"
#include "loop/jacobi.hpp"
#include "multigrid_solve.hpp"
#include "problem/problem_setup.hpp"
#include "run_output.hpp"
#include "snapshot.hpp"

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
  k.problem.fixed.clear();
  k.solve.method = SolveMethod::Multigrid;
  k.solve.tolerance_discretization = false;
  k.solve.tolerance = c.precision == Precision::Float ? 1e-5 : 1e-10;
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
std::vector<double> solve_coarse(const Case& c, Backend<T>& backend) {
  Case k = coarse_case(c);
  k.output.directory = (std::filesystem::path(c.output.directory) / ".richardson").string();
  std::filesystem::remove_all(k.output.directory);
  std::vector<double> u;
  const auto level = spdlog::get_level();
  spdlog::set_level(spdlog::level::warn);
  try {
    output::RunOutput out(k.output.directory, k.name, grid_meta(k), to_yaml(k));
    const SolveResult r = solve_multigrid<T>(k, backend, out, SolveOptions{});
    if (r.status != SolveStatus::Converged)
      spdlog::warn("tolerance: discretization: the coarse grid's solve stopped as {} after {} "
                   "cycles; the estimate uses its last state",
                   to_string(r.status), r.iterations);
    u = output::read_snapshot(out.snapshots().back()).fields.at(0);
  } catch (...) {
    spdlog::set_level(level);
    std::filesystem::remove_all(k.output.directory);
    throw;
  }
  spdlog::set_level(level);
  std::filesystem::remove_all(k.output.directory);
  return u;
}

template <typename T>
double richardson_estimate(const Case& c, const std::vector<double>& coarse, Backend<T>& backend,
                           const Buffer<T>& u, const Layout& L, const Box& box) {
  std::vector<T> fine(static_cast<std::size_t>(L.size));
  backend.download(fine.data(), u, L.size);
  const Case k = coarse_case(c);
  const std::int64_t nx = k.grid.points[0], ny = k.grid.points[1];
  const std::int64_t nz = c.grid.dims == 3 ? k.grid.points[2] : 1;
  double sum = 0, max = 0;
  std::int64_t count = 0;
  for (std::int64_t K = 0; K < nz; ++K)
    for (std::int64_t J = 0; J < ny; ++J)
      for (std::int64_t I = 0; I < nx; ++I) {
        const index_t i = 2 * I, j = 2 * J, kk = c.grid.dims == 3 ? 2 * K : 0;
        if (i < box.lo[0] || i >= box.hi[0] || j < box.lo[1] || j >= box.hi[1] ||
            kk < box.lo[2] || kk >= box.hi[2])
          continue;  // a node the sweeps do not update (a Dirichlet face)
        const double d =
            static_cast<double>(fine[static_cast<std::size_t>(L.at(i, j, kk))]) -
            coarse[static_cast<std::size_t>((K * ny + J) * nx + I)];
        sum += d * d;
        max = std::max(max, std::abs(d));
        ++count;
      }
  const double norm = c.solve.norm == NormKind::L2
                          ? (count > 0 ? std::sqrt(sum / static_cast<double>(count)) : 0.0)
                          : max;
  return norm / 3;
}

template std::vector<double> solve_coarse<float>(const Case&, Backend<float>&);
template std::vector<double> solve_coarse<double>(const Case&, Backend<double>&);
template double richardson_estimate<float>(const Case&, const std::vector<double>&,
                                           Backend<float>&, const Buffer<float>&, const Layout&,
                                           const Box&);
template double richardson_estimate<double>(const Case&, const std::vector<double>&,
                                            Backend<double>&, const Buffer<double>&,
                                            const Layout&, const Box&);

}  // namespace fdsolve::multigrid
