// See medium.hpp.
#include "medium.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <chrono>
#include <cmath>
#include <mutex>

#include "backend.hpp"
#include "case_reader.hpp"
#include "elapsed.hpp"
#include "medium_detail.hpp"
#include "problem/finite_inputs.hpp"
#include "problem/problem_setup.hpp"

namespace fdsolve::op {
namespace detail {

/// "at node (i, j) = (3, 4), (x, y) = (0.3, 0.4)".
std::string at_node(const Case& c, const std::array<index_t, 3>& node) {
  const auto x = [&](int a) { return node_coordinate(c, a, node[a]); };
  if (c.grid.dims == 2)
    return fmt::format("at node (i, j) = ({}, {}), (x, y) = ({}, {})", node[0], node[1], x(0),
                       x(1));
  return fmt::format("at node (i, j, k) = ({}, {}, {}), (x, y, z) = ({}, {}, {})", node[0],
                     node[1], node[2], x(0), x(1), x(2));
}

std::string number_text(double v) { return std::isnan(v) ? "nan" : fmt::format("{}", v); }

namespace {

/// evaluate(), its failures reported as InputErrors naming `key` (and the first node where a
/// formula is not finite); a device's failure stays a BackendError.
template <typename Evaluate>
auto with_key(const Case& c, const std::string& key, const Evaluate& evaluate) {
  try {
    return evaluate();
  } catch (const InputError&) {
    throw;
  } catch (const BackendError&) {
    throw;  // the device failed: not the input's fault
  } catch (const NonFiniteValue& e) {
    throw InputError(c.where(key) + fmt::format("{}: evaluates to {} {}; it must be finite", key,
                                                number_text(e.value), at_node(c, e.node)));
  } catch (const std::exception& e) {
    throw InputError(c.where(key) + key + ": " + e.what());
  }
}

}  // namespace

HostArray<double> node_values(const Case& c, const Value& v, const std::string& key,
                              const NodeEvaluator& on_backend) {
  return with_key(c, key, [&] {
    if (on_backend && v.is_expression()) return on_backend.values(v);
    const Box all{{0, 0, 0},
                  {c.grid.points[0], c.grid.points[1], c.grid.dims == 3 ? c.grid.points[2] : 1}};
    HostArray<double> values(static_cast<std::size_t>(all.cells()));
    box_values<double>(c, v, all, 0.0, Subdomain::whole(c), values.data());
    return values;
  });
}

HostArray<std::uint8_t> node_nonzero(const Case& c, const Value& v, const std::string& key,
                                     const NodeEvaluator& on_backend) {
  return with_key(c, key, [&] { return on_backend.nonzero(v); });
}

}  // namespace detail

namespace {

using detail::at_node;
using detail::node_of;
using detail::number_text;

std::array<index_t, 3> cell_of(const CellGrid& g, index_t linear) {
  return {linear % g.cells[0], linear / g.cells[0] % g.cells[1],
          linear / (g.cells[0] * g.cells[1])};
}

/// node_means_of_cells into an array whose pages the averaging threads touch first.
HostArray<double> node_means(const CellGrid& g, const std::vector<double>& cells) {
  HostArray<double> nodes(static_cast<std::size_t>(g.nodes[0] * g.nodes[1] * g.nodes[2]));
  node_means_of_cells(g, cells.data(), nodes.data());
  return nodes;
}

/// A coefficient's or capacity's values scanned on all threads: the first (smallest index) that
/// is not finite and > 0 (or the size, when none), and the range.
struct ValueScan {
  std::size_t first_bad;
  double lo, hi;
};

ValueScan scan_positive(const double* v, std::size_t size) {
  std::size_t bad = size;
  double lo = v[0], hi = v[0];
  const auto n = static_cast<std::ptrdiff_t>(size);
#pragma omp parallel for schedule(static) reduction(min : bad, lo) reduction(max : hi)
  for (std::ptrdiff_t i = 0; i < n; ++i) {
    const double b = v[i];
    if (!std::isfinite(b) || !(b > 0)) bad = std::min(bad, static_cast<std::size_t>(i));
    lo = b < lo ? b : lo;
    hi = b > hi ? b : hi;
  }
  return {bad, lo, hi};
}

void resolve_coefficient(const Case& c, Medium& m, const NodeEvaluator& on_backend) {
  const std::string key = coefficient_key(c);
  const Value& v = c.problem.coefficient;
  if (v.is_constant()) {
    m.constant = c.problem.equation == Equation::Heat ? c.problem.diffusivity : v.constant;
    m.beta_min = m.beta_max = m.constant;
    return;
  }
  // The range in the same pass as the check: the rounding floor's |A| reads it, and a walk of
  // a large grid later would cost the solve.
  const auto scan = [&](const double* values, std::size_t size, const auto& where) {
    const ValueScan s = scan_positive(values, size);
    if (s.first_bad < size)
      throw InputError(c.where(key) +
                       fmt::format("{}: {} {} {}; a coefficient must be finite and > 0", key,
                                   v.is_file() ? "holds" : "evaluates to",
                                   number_text(values[s.first_bad]),
                                   where(static_cast<index_t>(s.first_bad))));
    m.beta_min = s.lo;
    m.beta_max = s.hi;
    return s.lo == s.hi;
  };
  if (c.problem.sampling == Sampling::Cells) {
    const CellGrid g = CellGrid::of(c);
    std::vector<double> cells = cell_values(c, v, key);
    if (scan(cells.data(), cells.size(), [&](index_t q) { return at_cell(c, cell_of(g, q)); })) {
      m.constant = cells[0];
      return;
    }
    m.cell_grid = g;
    m.beta = node_means(g, cells);
    m.cell_beta = std::move(cells);
    return;
  }
  HostArray<double> beta = detail::node_values(c, v, key, on_backend);
  if (scan(beta.data(), beta.size(), [&](index_t q) { return at_node(c, node_of(m, q)); })) {
    m.constant = beta[0];
    return;
  }
  m.beta = std::move(beta);
}

/// The capacity as the coefficient is read (the same checks) and sampled: at the nodes, or under
/// sampling: cells per cell (each checked, naming the cell) and a node's the mean of its cells
/// (node_means_of_cells, what sampled_node_values gives).
void resolve_capacity(const Case& c, Medium& m, const NodeEvaluator& on_backend) {
  const std::string key = "problem.capacity";
  const Value& v = c.problem.capacity;
  if (c.problem.equation != Equation::Heat) return;
  if (v.is_constant()) {
    m.capacity_constant = m.capacity_min = m.capacity_max = v.constant;
    return;
  }
  const auto bad = [&](const std::string& value, const std::string& where) {
    throw InputError(c.where(key) +
                     fmt::format("{}: {} {} {}; a capacity must be finite and > 0", key,
                                 v.is_file() ? "holds" : "evaluates to", value, where));
  };
  HostArray<double> cap;
  if (c.problem.sampling == Sampling::Cells) {
    const CellGrid g = CellGrid::of(c);
    const std::vector<double> cells = cell_values(c, v, key);
    const std::size_t q = scan_positive(cells.data(), cells.size()).first_bad;
    if (q < cells.size())
      bad(number_text(cells[q]), at_cell(c, cell_of(g, static_cast<index_t>(q))));
    cap = node_means(g, cells);
  } else {
    cap = detail::node_values(c, v, key, on_backend);
  }
  const ValueScan scan = scan_positive(cap.data(), cap.size());
  if (scan.first_bad < cap.size())
    bad(number_text(cap[scan.first_bad]),
        at_node(c, node_of(m, static_cast<index_t>(scan.first_bad))));
  const double lo = scan.lo, hi = scan.hi;
  m.capacity_min = lo;
  m.capacity_max = hi;
  if (lo == hi) {
    m.capacity_constant = cap[0];
    return;
  }
  m.capacity = std::move(cap);
}

}  // namespace

double Medium::face_beta(int a, const std::array<index_t, 3>& node) const {
  if (by_cells()) return cell_face(cell_grid, cell_beta, a, node);
  if (!varies()) return constant;
  std::array<index_t, 3> nb = node;
  nb[a] = (nb[a] + 1) % n[a];
  const double x = beta[index(node[0], node[1], node[2])], y = beta[index(nb[0], nb[1], nb[2])];
  return 2.0 * x * y / (x + y);
}

std::string coefficient_key(const Case& c) {
  return c.problem.equation == Equation::Heat ? "problem.diffusivity" : "problem.coefficient";
}

bool has_robin_face(const Case& c) {
  for (int face = 0; face < 2 * c.grid.dims; ++face)
    if (c.boundary[face].type == BoundaryType::Robin) return true;
  return false;
}

bool may_need_flux(const Case& c) {
  return !c.problem.coefficient.is_constant() || !c.problem.fixed.empty() ||
         !c.problem.capacity.is_constant() || has_robin_face(c);
}

Medium resolve_medium(const Case& c, const NodeEvaluator& evaluate) {
  Medium m;
  m.dims = c.grid.dims;
  for (int a = 0; a < c.grid.dims; ++a) m.n[a] = c.grid.points[a];
  auto start = std::chrono::steady_clock::now();
  resolve_coefficient(c, m, evaluate);
  const double coefficient = seconds_since(start);
  start = std::chrono::steady_clock::now();
  resolve_capacity(c, m, evaluate);
  const double capacity = seconds_since(start);
  start = std::chrono::steady_clock::now();
  detail::resolve_held(c, m, evaluate);
  spdlog::debug("medium resolved: coefficient {:.1f} ms, capacity {:.1f} ms, held regions {:.1f} ms",
                1e3 * coefficient, 1e3 * capacity, 1e3 * seconds_since(start));
  for (int face = 0; face < 2 * c.grid.dims; ++face) {
    m.robin_face[face] = c.boundary[face].type == BoundaryType::Robin;
    m.robin_h[face] = m.robin_face[face] ? c.boundary[face].h : 0.0;
  }
  return m;
}

std::shared_ptr<const Medium> resolved_medium(const Case& c) { return resolved_medium(c, {}); }

std::shared_ptr<const Medium> resolved_medium(const Case& c, const NodeEvaluator& evaluate) {
  // Two entries: a run's own case and the coarser case of a sub-solve (solve.tolerance:
  // discretization) do not displace each other.
  static std::mutex mutex;
  static std::array<std::pair<std::string, std::shared_ptr<const Medium>>, 2> kept;
  std::string key = to_yaml(c);
  std::lock_guard lock(mutex);
  for (const auto& [k, m] : kept)
    if (m && k == key) return m;
  kept[1] = std::move(kept[0]);
  kept[0] = {std::move(key), std::make_shared<const Medium>(resolve_medium(c, evaluate))};
  return kept[0].second;
}

Case with_constant_capacity(const Case& c, const Medium& m) {
  Case k = c;
  if (!c.problem.capacity.is_constant() && !m.capacity_varies()) {
    k.problem.capacity = Value{};
    k.problem.capacity.constant = m.capacity_constant;
  }
  return k;
}

Case with_constant_coefficient(const Case& c, const Medium& m) {
  Case k = with_constant_capacity(c, m);
  if (c.problem.coefficient.is_constant()) return k;
  k.problem.coefficient = Value{};
  k.problem.coefficient.constant = c.problem.equation == Equation::Heat ? 1.0 : m.constant;
  if (c.problem.equation == Equation::Heat) k.problem.diffusivity = m.constant;
  return k;
}

}  // namespace fdsolve::op
