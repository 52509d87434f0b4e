// See medium.hpp.
#include "medium.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <cmath>
#include <mutex>

#include "backend.hpp"
#include "case_reader.hpp"
#include "problem/finite_inputs.hpp"
#include "problem/problem_setup.hpp"

namespace fdsolve::op {
namespace {

std::array<index_t, 3> node_of(const Medium& m, index_t linear) {
  return {linear % m.n[0], linear / m.n[0] % m.n[1], linear / (m.n[0] * m.n[1])};
}

/// "at node (i, j) = (3, 4), (x, y) = (0.3, 0.4)".
std::string at_node(const Case& c, const std::array<index_t, 3>& node) {
  const auto x = [&](int a) { return node_coordinate(c, a, node[a]); };
  if (c.grid.dims == 2)
    return fmt::format("at node (i, j) = ({}, {}), (x, y) = ({}, {})", node[0], node[1], x(0),
                       x(1));
  return fmt::format("at node (i, j, k) = ({}, {}, {}), (x, y, z) = ({}, {}, {})", node[0],
                     node[1], node[2], x(0), x(1), x(2));
}

/// A value as messages print it: NaN without a sign (host and device set it differently).
std::string number_text(double v) { return std::isnan(v) ? "nan" : fmt::format("{}", v); }

std::vector<double> evaluate(const Case& c, const Value& v, const std::string& key,
                             const NodeEvaluator& on_backend) {
  const Box all{{0, 0, 0}, {c.grid.points[0], c.grid.points[1], c.grid.dims == 3 ? c.grid.points[2] : 1}};
  try {
    if (on_backend && v.is_expression()) return on_backend(v);
    return box_values<double>(c, v, all, 0.0);
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

/// A coefficient's or capacity's values scanned on all threads: the first (smallest index) that
/// is not finite and > 0 (or the size, when none), and the range.
struct ValueScan {
  std::size_t first_bad;
  double lo, hi;
};

ValueScan scan_positive(const std::vector<double>& v) {
  std::size_t bad = v.size();
  double lo = v[0], hi = v[0];
  const auto n = static_cast<std::ptrdiff_t>(v.size());
#pragma omp parallel for schedule(static) reduction(min : bad, lo) reduction(max : hi)
  for (std::ptrdiff_t i = 0; i < n; ++i) {
    const double b = v[static_cast<std::size_t>(i)];
    if (!std::isfinite(b) || !(b > 0)) bad = std::min(bad, static_cast<std::size_t>(i));
    lo = b < lo ? b : lo;
    hi = b > hi ? b : hi;
  }
  return {bad, lo, hi};
}

/// Whether node (i, j, k) lies on a Dirichlet face (which holds it already, and wins).
bool on_dirichlet_face(const Case& c, const std::array<index_t, 3>& node) {
  for (int a = 0; a < c.grid.dims; ++a) {
    if (node[a] == 0 && c.boundary[2 * a].type == BoundaryType::Dirichlet) return true;
    if (node[a] == c.grid.points[a] - 1 && c.boundary[2 * a + 1].type == BoundaryType::Dirichlet)
      return true;
  }
  return false;
}

void resolve_coefficient(const Case& c, Medium& m, const NodeEvaluator& on_backend) {
  const std::string key = coefficient_key(c);
  const Value& v = c.problem.coefficient;
  if (v.is_constant()) {
    m.constant = c.problem.equation == Equation::Heat ? c.problem.diffusivity : v.constant;
    m.beta_min = m.beta_max = m.constant;
    return;
  }
  const bool by_cells = c.problem.sampling == Sampling::Cells;
  const CellGrid g = CellGrid::of(c);
  std::vector<double> beta = by_cells ? cell_values(c, v, key) : evaluate(c, v, key, on_backend);
  // The range in the same pass as the check: the rounding floor's |A| reads it, and a walk of
  // a large grid later would cost the solve.
  const ValueScan scan = scan_positive(beta);
  if (scan.first_bad < beta.size()) {
    const auto q = static_cast<index_t>(scan.first_bad);
    throw InputError(c.where(key) +
                     fmt::format("{}: {} {} {}; a coefficient must be finite and > 0", key,
                                 v.is_file() ? "holds" : "evaluates to",
                                 number_text(beta[scan.first_bad]),
                                 by_cells ? at_cell(c, {q % g.cells[0], q / g.cells[0] % g.cells[1],
                                                        q / (g.cells[0] * g.cells[1])})
                                          : at_node(c, node_of(m, q))));
  }
  const double lo = scan.lo, hi = scan.hi;
  m.beta_min = lo;
  m.beta_max = hi;
  if (lo == hi) {
    m.constant = beta[0];
    return;
  }
  if (by_cells) {
    m.cell_grid = g;
    m.beta = node_means_of_cells(g, beta);
    m.cell_beta = std::move(beta);
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
  std::vector<double> cap;
  if (c.problem.sampling == Sampling::Cells) {
    const CellGrid g = CellGrid::of(c);
    const std::vector<double> cells = cell_values(c, v, key);
    const std::size_t q = scan_positive(cells).first_bad;
    if (q < cells.size()) {
      const auto i = static_cast<index_t>(q);
      bad(number_text(cells[q]),
          at_cell(c, {i % g.cells[0], i / g.cells[0] % g.cells[1], i / (g.cells[0] * g.cells[1])}));
    }
    cap = node_means_of_cells(g, cells);
  } else {
    cap = evaluate(c, v, key, on_backend);
  }
  const ValueScan scan = scan_positive(cap);
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

/// A region that holds no node: a mistake in a formula (too small to reach a node, off the
/// grid), so an input error; a mask file only warns: it is data made elsewhere, which can be
/// empty on purpose (a part absent from this variant of a model) and cannot be edited here.
void empty_region(const Case& c, const std::string& key, const FixedRegion& region, index_t marked,
                  index_t on_faces) {
  std::string why;
  if (marked == 0) {
    std::string h;
    for (int a = 0; a < c.grid.dims; ++a)
      h += fmt::format("{}{:g}", a ? ", " : "", c.grid.spacing(a));
    why = fmt::format(
        "is zero at every node (a region narrower than the spacing h = [{}] can lie "
        "between the nodes)",
        h);
  } else if (on_faces == marked) {
    why = "is non-zero only on Dirichlet faces, whose nodes hold the face's value";
  } else if (on_faces > 0) {
    why = fmt::format(
        "marks {} nodes, each on a Dirichlet face or held by an earlier region (the first "
        "region that holds a node gives its value)",
        marked);
  } else {
    why = fmt::format(
        "marks {} node{} that earlier regions hold already (the first region that "
        "holds a node gives its value)",
        marked, marked == 1 ? "" : "s");
  }
  if (region.where.is_file()) {
    spdlog::warn("{}.where: the mask holds no node: it {}", key, why);
    return;
  }
  throw InputError(c.where(key + ".where") + key + ".where: the region holds no node: it " + why +
                   "; widen the region or remove it");
}

void resolve_fixed(const Case& c, Medium& m, const NodeEvaluator& on_backend) {
  if (c.problem.fixed.empty()) return;
  const index_t cells = m.n[0] * m.n[1] * m.n[2];
  m.held.assign(static_cast<std::size_t>(cells), 0);
  m.held_value.assign(static_cast<std::size_t>(cells), 0.0);
  for (std::size_t r = 0; r < c.problem.fixed.size(); ++r) {
    const FixedRegion& region = c.problem.fixed[r];
    const std::string key = fmt::format("problem.fixed[{}]", r);
    const std::vector<double> where = evaluate(c, region.where, key + ".where", on_backend);
    // A number needs no grid of copies of itself.
    const bool number = region.value.is_constant();
    const std::vector<double> value =
        number ? std::vector<double>{} : evaluate(c, region.value, key + ".value", on_backend);
    index_t mine = 0, marked = 0, on_faces = 0;
    for (index_t i = 0; i < cells; ++i) {
      if (where[i] == 0.0) continue;
      ++marked;
      if (m.held[i]) continue;
      const auto node = node_of(m, i);
      if (!std::isfinite(where[i]))
        throw InputError(c.where(key + ".where") + fmt::format("{}.where: is {} {}", key,
                                                               number_text(where[i]),
                                                               at_node(c, node)));
      if (on_dirichlet_face(c, node)) {
        ++on_faces;
        continue;
      }
      const double v = number ? region.value.constant : value[i];
      if (!std::isfinite(v))
        throw InputError(c.where(key + ".value") +
                         fmt::format("{}.value: is {} {}", key, number_text(v), at_node(c, node)));
      m.held[i] = Medium::held_mark(r);
      m.held_value[i] = v;
      ++mine;
    }
    if (mine == 0) empty_region(c, key, region, marked, on_faces);
    m.held_count += mine;
  }
  // Whether any node a sweep updates is left: a free node off the Dirichlet faces.
  index_t free = 0;
  const Box inner = update_box(c);
#pragma omp parallel for collapse(2) schedule(static) reduction(+ : free)
  for (index_t k = inner.lo[2]; k < inner.hi[2]; ++k)
    for (index_t j = inner.lo[1]; j < inner.hi[1]; ++j)
      for (index_t i = inner.lo[0]; i < inner.hi[0]; ++i) free += !m.held[m.index(i, j, k)];
  if (free == 0)
    throw InputError(c.where("problem.fixed") +
                     "problem.fixed: the regions hold every node a sweep would update: nothing "
                     "is left to solve for");
  if (m.held_count == 0) {
    m.held.clear();
    m.held_value.clear();
  }
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
  resolve_coefficient(c, m, evaluate);
  resolve_capacity(c, m, evaluate);
  resolve_fixed(c, m, evaluate);
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
