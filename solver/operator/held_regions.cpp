// See medium.hpp (resolve_medium) and medium_detail.hpp: the held regions of problem.fixed,
// each marked in one pass over the grid on all threads.
#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cmath>

#include "case_reader.hpp"
#include "medium_detail.hpp"
#include "problem/problem_setup.hpp"

namespace fdsolve::op::detail {
namespace {

/// The grid's Dirichlet faces, which hold their nodes already (and win over a region): asked
/// once per row (j, k) and then per i, not per node and axis.
struct DirichletFaces {
  std::array<bool, 6> face{};  // Face order; false on the axes a 2D grid lacks
  std::array<index_t, 3> last{};

  static DirichletFaces of(const Case& c) {
    DirichletFaces d;
    for (int a = 0; a < c.grid.dims; ++a) {
      d.face[2 * a] = c.boundary[2 * a].type == BoundaryType::Dirichlet;
      d.face[2 * a + 1] = c.boundary[2 * a + 1].type == BoundaryType::Dirichlet;
      d.last[a] = c.grid.points[a] - 1;
    }
    return d;
  }
  bool holds_row(index_t j, index_t k) const {
    return (j == 0 && face[2]) || (j == last[1] && face[3]) || (k == 0 && face[4]) ||
           (k == last[2] && face[5]);
  }
  bool holds_x(index_t i) const { return (i == 0 && face[0]) || (i == last[0] && face[1]); }
};

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

/// A region's where or value at every node: a number needs no grid of copies of itself, and a
/// `where` formula evaluated on a device comes back as its non-zero marks.
struct RegionValues {
  HostArray<double> values;  // empty for a number or marks
  double number = 0.0;
  HostArray<std::uint8_t> nonzero;  // 1 where a `where` formula is non-zero (finite: checked)

  double at(index_t node) const {
    if (!nonzero.empty()) return nonzero[static_cast<std::size_t>(node)];
    return values.empty() ? number : values[static_cast<std::size_t>(node)];
  }
};

RegionValues region_values(const Case& c, const Value& v, const std::string& key,
                           const NodeEvaluator& on_backend) {
  if (v.is_constant()) return {{}, v.constant, {}};
  return {node_values(c, v, key, on_backend), 0.0, {}};
}

/// A region's `where`: only whether it is non-zero counts.
RegionValues region_where(const Case& c, const Value& v, const std::string& key,
                          const NodeEvaluator& on_backend) {
  if (on_backend.nonzero && v.is_expression())
    return {{}, 0.0, node_nonzero(c, v, key, on_backend)};
  return region_values(c, v, key, on_backend);
}

/// What one region's pass found: the nodes it holds (`mine`), those where `where` is non-zero
/// (`marked`), those of them on a Dirichlet face, and the first node (C order) whose where or
/// value is not finite, where a walk in C order would stop (the node count when none).
struct RegionPass {
  index_t mine = 0, marked = 0, on_faces = 0, first_bad = 0;
};

/// Marks the nodes region `mark` takes, on all threads: where `where` is non-zero, not held by
/// an earlier region nor by a Dirichlet face. The first region's pass also writes every other
/// node's mark and value (0), so that these threads touch the arrays' pages first and no
/// serial fill precedes it. The marks and counts are those of a walk in C order; past a bad
/// node they are not (the caller throws).
RegionPass mark_region(Medium& m, const DirichletFaces& faces, std::uint8_t mark,
                       const RegionValues& where, const RegionValues& value, bool first) {
  const index_t nx = m.n[0], ny = m.n[1], nz = m.n[2];
  std::uint8_t* held = m.held.data();
  double* held_value = m.held_value.empty() ? nullptr : m.held_value.data();  // else by mark
  index_t mine = 0, marked = 0, on_faces = 0, bad = nx * ny * nz;
#pragma omp parallel for collapse(2) schedule(static) reduction(+ : mine, marked, on_faces) \
    reduction(min : bad)
  for (index_t k = 0; k < nz; ++k)
    for (index_t j = 0; j < ny; ++j) {
      const bool row_on_face = faces.holds_row(j, k);
      const index_t row = (k * ny + j) * nx;
      for (index_t i = 0; i < nx; ++i) {
        const index_t q = row + i;
        if (first) {
          held[q] = 0;
          if (held_value) held_value[q] = 0.0;
        }
        const double w = where.at(q);
        if (w == 0.0) continue;
        ++marked;
        if (held[q]) continue;
        if (!std::isfinite(w)) {
          bad = std::min(bad, q);
          continue;
        }
        if (row_on_face || faces.holds_x(i)) {
          ++on_faces;
          continue;
        }
        const double v = value.at(q);
        if (!std::isfinite(v)) {
          bad = std::min(bad, q);
          continue;
        }
        held[q] = mark;
        if (held_value) held_value[q] = v;
        ++mine;
      }
    }
  return {mine, marked, on_faces, bad};
}

}  // namespace

void resolve_held(const Case& c, Medium& m, const NodeEvaluator& on_backend) {
  if (c.problem.fixed.empty()) return;
  const index_t nodes = m.n[0] * m.n[1] * m.n[2];
  // Uninitialised: the first region's pass writes every node.
  m.held = HostArray<std::uint8_t>(static_cast<std::size_t>(nodes));
  // Values by mark where each region's value is a number and has a mark of its own.
  bool by_mark = c.problem.fixed.size() < 255;
  for (std::size_t r = 0; r < c.problem.fixed.size() && by_mark; ++r) {
    by_mark = c.problem.fixed[r].value.is_constant();
    m.held_number[Medium::held_mark(r)] = c.problem.fixed[r].value.constant;
  }
  if (!by_mark) {
    m.held_number = {};
    m.held_value = HostArray<double>(static_cast<std::size_t>(nodes));
  }
  const DirichletFaces faces = DirichletFaces::of(c);
  // Region by region in order: an earlier region's bad node is reported before a later one's.
  for (std::size_t r = 0; r < c.problem.fixed.size(); ++r) {
    const FixedRegion& region = c.problem.fixed[r];
    const std::string key = fmt::format("problem.fixed[{}]", r);
    const RegionValues where = region_where(c, region.where, key + ".where", on_backend);
    const RegionValues value = region_values(c, region.value, key + ".value", on_backend);
    const RegionPass pass = mark_region(m, faces, Medium::held_mark(r), where, value, r == 0);
    if (pass.first_bad < nodes) {
      const index_t q = pass.first_bad;
      const double w = where.at(q);
      if (!std::isfinite(w))
        throw InputError(c.where(key + ".where") + fmt::format("{}.where: is {} {}", key,
                                                               number_text(w),
                                                               at_node(c, node_of(m, q))));
      throw InputError(c.where(key + ".value") + fmt::format("{}.value: is {} {}", key,
                                                             number_text(value.at(q)),
                                                             at_node(c, node_of(m, q))));
    }
    if (pass.mine == 0) empty_region(c, key, region, pass.marked, pass.on_faces);
    m.held_count += pass.mine;
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
    m.held = {};
    m.held_value = {};
    m.held_number = {};
  }
}

}  // namespace fdsolve::op::detail
