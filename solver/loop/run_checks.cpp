// History rows, divergence and stagnation of the checks (see run_checks.hpp).
#include "run_checks.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "progress.hpp"
#include "stability.hpp"
#include "stop_rules.hpp"

namespace fdsolve {
namespace {

double chosen(const Case& c, const output::HistoryRow& row) {
  return c.solve.norm == NormKind::L2 ? row.norm_l2 : row.norm_linf;
}

/// "(i, j) at (x, y)" or the 3D form.
std::string node_text(const output::NodeAt& at, int dims) {
  if (dims == 2)
    return fmt::format("({}, {}) at ({}, {})", at.node[0], at.node[1], at.x[0], at.x[1]);
  return fmt::format("({}, {}, {}) at ({}, {}, {})", at.node[0], at.node[1], at.node[2], at.x[0],
                     at.x[1], at.x[2]);
}

}  // namespace

output::HistoryRow history_row(std::int64_t it, double time, const SweepStats& stats,
                               const Diagnostics* diag, double wall_seconds) {
  output::HistoryRow row;
  row.iteration = it;
  row.time = time;
  row.norm_l2 = stats.l2();
  row.norm_linf = stats.linf();
  row.wall_seconds = wall_seconds;
  if (!diag) {
    row.min = stats.min;
    row.max = stats.max;
    row.mean = stats.count > 0 ? stats.sum / static_cast<double>(stats.count) : 0.0;
    return row;
  }
  add_diagnostics(row, *diag);
  return row;
}

void add_diagnostics(output::HistoryRow& row, const Diagnostics& diag) {
  row.diagnosed = true;
  row.min = diag.min;
  row.max = diag.max;
  row.mean = diag.mean;
  row.nonfinite = diag.nonfinite;
  row.p50 = diag.p50;
  row.p90 = diag.p90;
  row.p99 = diag.p99;
  row.linf_at = diag.linf_at;
}

double norm_factor(const output::HistoryRow& row, const std::vector<output::HistoryRow>& earlier,
                   NormKind norm) {
  if (earlier.empty()) return std::numeric_limits<double>::quiet_NaN();
  const auto chosen = [&](const output::HistoryRow& r) {
    return norm == NormKind::L2 ? r.norm_l2 : r.norm_linf;
  };
  return chosen(row) / chosen(earlier.back());
}

bool diverged(double norm, double limit, const SweepStats& stats, const Diagnostics* diag) {
  if (diag && (diag->nonfinite > 0 || diag->nonfinite_updates() > 0)) return true;
  return !std::isfinite(norm) || !std::isfinite(stats.sum) || norm > limit;
}

output::Divergence locate_divergence(std::int64_t it, double time, double norm, double limit,
                                     const Diagnostics& diag, const output::GridMeta& grid) {
  output::Divergence d;
  d.iteration = it;
  d.time = time;
  d.norm = norm;
  d.limit = limit;
  d.nonfinite = diag.nonfinite;
  const bool bad = diag.nonfinite > 0 || diag.nonfinite_updates() > 0;
  d.reason = bad ? "nonfinite" : "norm";
  if (diag.nonfinite > 0) {
    for (const auto& node : diag.nonfinite_at) d.nodes.push_back(output::node_at(grid, node));
  } else if (diag.linf_at[0] >= 0) {
    d.nodes.push_back(output::node_at(grid, diag.linf_at));  // the first NaN update, or the largest
    d.largest_update = diag.linf;
  }
  return d;
}

std::string describe_divergence(const output::Divergence& d, int dims, bool heat) {
  const std::string when = heat ? fmt::format("diverged at step {} (t = {})", d.iteration, d.time)
                                : fmt::format("diverged at iteration {}", d.iteration);
  const char* axes = dims == 2 ? "(i, j) at (x, y)" : "(i, j, k) at (x, y, z)";
  if (d.nonfinite > 0) {
    std::string text =
        fmt::format("{}: {} non-finite value(s) of u (NaN or Inf); ", when, d.nonfinite);
    text += d.nodes.size() == static_cast<std::size_t>(d.nonfinite)
                ? fmt::format("at node {}: ", axes)
                : fmt::format("the first {} in C order (x fastest), as node {}: ", d.nodes.size(),
                              axes);
    for (std::size_t n = 0; n < d.nodes.size(); ++n)
      text += (n ? "; " : "") + node_text(d.nodes[n], dims);
    return text;
  }
  std::string text = when + ": ";
  if (d.reason == "input") return text + d.input;
  if (d.reason == "nonfinite")
    text += "the update u' - u is not finite (NaN or Inf) although every value of u is";
  else if (!std::isfinite(d.norm))
    text += "the norm overflows to Inf although every value of u is finite";
  else if (d.norm > d.limit)
    text += fmt::format(
        "the norm {:.6e} exceeds divergence_factor x first norm = {:.6e}; every value of u is "
        "finite",
        d.norm, d.limit);
  else
    text += "the sum of u overflows although every value of u is finite";
  if (!d.nodes.empty()) {
    const output::NodeAt& at = d.nodes[0];
    text += fmt::format("; the largest update |u' - u| = {:.6e} is at ", d.largest_update);
    text += dims == 2 ? fmt::format("(i, j) = ({}, {}), (x, y) = ({}, {})", at.node[0], at.node[1],
                                    at.x[0], at.x[1])
                      : fmt::format("(i, j, k) = ({}, {}, {}), (x, y, z) = ({}, {}, {})",
                                    at.node[0], at.node[1], at.node[2], at.x[0], at.x[1], at.x[2]);
  }
  return text;
}

StagnationWatch::StagnationWatch(const Case& c, bool multigrid)
    : c_(c),
      multigrid_(multigrid),
      on_(c.problem.equation != Equation::Heat && c.solve.stagnation_checks > 0) {}

std::string StagnationWatch::check(const std::vector<output::HistoryRow>& rows, double target) {
  const auto window = static_cast<std::size_t>(c_.solve.stagnation_checks);
  if (!on_ || warned_ || rows.size() <= window) return {};
  const output::HistoryRow& now = rows.back();
  const output::HistoryRow& then = rows[rows.size() - 1 - window];
  const double n1 = chosen(c_, now), n0 = chosen(c_, then);
  if (!std::isfinite(n0) || !std::isfinite(n1) || n1 < (1.0 - kStagnationFall) * n0) return {};
  warned_ = true;

  std::string text = fmt::format(
      "the {} norm has fallen by less than {:g}% over the last {} checks (iterations {} to {}: "
      "{:.4e} to {:.4e}; target {:.4e}). ",
      c_.solve.norm == NormKind::L2 ? "l2" : "linf", 100 * kStagnationFall, window, then.iteration,
      now.iteration, n0, n1, target);
  if (multigrid_) {
    const double u_max = std::max(std::abs(now.min), std::abs(now.max));
    text += fmt::format(
        "Multigrid cycles reduce the residual by a fixed factor per cycle until {} rounding "
        "limits it, at about eps x |A| x |u| = {:.2e} here (max norm): the target may lie below "
        "that floor, where the solve ends as converged at the rounding floor (raise "
        "solve.tolerance or set solve.absolute_tolerance to stop sooner{}).",
        c_.precision == Precision::Float ? "float" : "double", rounding_floor(c_, u_max),
        c_.precision == Precision::Float ? ", or use precision: double" : "");
    spdlog::warn("{}", text);
    return text;
  }
  const JacobiEstimate estimate = jacobi_estimate(c_);
  const std::string grid = fmt::format(
      "{}", fmt::join(c_.grid.points.begin(), c_.grid.points.begin() + c_.grid.dims, "x"));
  if (!(estimate.spectral_radius < 1.0)) {
    text += fmt::format(
        "The iteration does not contract on this {} grid (spectral radius {:.9g} >= 1 for these "
        "weights and boundaries): it will not reach the target.",
        grid, estimate.spectral_radius);
  } else {
    const double measured = iterations_to_target(then.iteration, n0, now.iteration, n1, target);
    const double predicted = n1 > target && target > 0
                                 ? std::log(target / n1) / std::log(estimate.spectral_radius)
                                 : 0.0;
    text += fmt::format(
        "Jacobi converges slowly on large grids: on this {} grid the spectral radius is "
        "{:.9g}, which predicts about {:.3g} more iterations to the target",
        grid, estimate.spectral_radius, predicted);
    if (measured > 0)
      text += fmt::format(" (at the rate measured over the window: {:.3g})", measured);
    else
      text += fmt::format(
          "; but the norm is not decaying at all, so the target may lie below what {} "
          "roundoff resolves (raise solve.tolerance or set solve.absolute_tolerance)",
          c_.precision == Precision::Float ? "float" : "double");
    text +=
        fmt::format("; max_iterations allows {} more.", c_.solve.max_iterations - now.iteration);
  }
  spdlog::warn("{}", text);
  return text;
}

}  // namespace fdsolve
