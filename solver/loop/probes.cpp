// Locating and sampling the probes of output.probes (see probes.hpp).
#include "probes.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>

namespace fdsolve {

namespace {

/// The cell of coordinate `x` on axis `a` of grid `g`.
void locate_on_axis(const GridSpec& g, int a, double x, ProbeCell& cell) {
  const index_t n = g.points[a];
  double s = (x - g.origin[a]) / g.spacing(a);
  if (const double nearest = std::round(s); std::abs(s - nearest) <= kOnNode) s = nearest;
  // The input check keeps points inside; rounding at the far end stays on the last node.
  s = std::clamp(s, 0.0, static_cast<double>(g.periodic[a] ? n : n - 1));
  index_t i = static_cast<index_t>(std::floor(s));
  double f = s - static_cast<double>(i);
  if (i >= n - 1 && !g.periodic[a]) {
    i = n - 1;
    f = 0;
  }
  if (i >= n) i = 0;  // a periodic axis's far end is node 0
  cell.node[a] = i;
  cell.next[a] = i + 1 < n ? i + 1 : 0;
  cell.fraction[a] = f;
}

}  // namespace

std::vector<ProbeCell> locate_probes(const Case& c) {
  std::vector<ProbeCell> cells;
  for (const ProbeSpec& p : c.output.probes) {
    ProbeCell cell;
    for (int a = 0; a < c.grid.dims; ++a) locate_on_axis(c.grid, a, p.at[a], cell);
    cells.push_back(cell);
  }
  return cells;
}

double corner_weight(const ProbeCell& cell, int dims, int corner) {
  double w = 1;
  for (int a = 0; a < dims; ++a)
    w *= (corner >> a) & 1 ? cell.fraction[a] : 1.0 - cell.fraction[a];
  return w;
}

std::vector<std::string> describe_probes(const Case& c) {
  std::vector<std::string> lines;
  const std::vector<ProbeCell> cells = locate_probes(c);
  const int dims = c.grid.dims;
  for (std::size_t p = 0; p < cells.size(); ++p) {
    const ProbeCell& cell = cells[p];
    std::string point, node, span, fractions;
    bool on_node = true;
    for (int a = 0; a < dims; ++a) {
      const char* sep = a ? ", " : "";
      point += fmt::format("{}{:g}", sep, c.output.probes[p].at[a]);
      node += fmt::format("{}{}", sep, cell.node[a]);
      span += cell.fraction[a] > 0 ? fmt::format("{}{}..{}", sep, cell.node[a], cell.next[a])
                                   : fmt::format("{}{}", sep, cell.node[a]);
      fractions += fmt::format("{}{:.4g}", sep, cell.fraction[a]);
      on_node = on_node && cell.fraction[a] == 0;
    }
    lines.push_back(on_node ? fmt::format("{} at ({}): on node ({})", c.output.probes[p].name,
                                          point, node)
                            : fmt::format("{} at ({}): in the cell of nodes ({}), fractions ({})",
                                          c.output.probes[p].name, point, span, fractions));
  }
  return lines;
}

template <typename T>
ProbeSampler<T>::ProbeSampler(const Case& c, Backend<T>& backend, const Layout& L,
                              const Subdomain& sub, const parallel::Comm& comm)
    : dims_(c.grid.dims), backend_(backend), L_(L), comm_(comm), cells_(locate_probes(c)) {
  const int corners = 1 << dims_;
  for (std::size_t p = 0; p < cells_.size(); ++p)
    for (int corner = 0; corner < corners; ++corner) {
      // A corner of weight 0 is not read: a probe on a node is that node's value, whatever
      // its neighbours hold.
      if (corner_weight(cells_[p], dims_, corner) == 0) continue;
      OwnedCorner owned;
      owned.slot = static_cast<std::int32_t>(p * static_cast<std::size_t>(corners) + corner);
      bool mine = true;
      for (int a = 0; a < dims_; ++a) {
        const index_t global = (corner >> a) & 1 ? cells_[p].next[a] : cells_[p].node[a];
        const index_t local = global - sub.offset[a];
        mine = mine && local >= 0 && local < sub.n[a];
        owned.box.lo[a] = local;
        owned.box.hi[a] = local + 1;
      }
      if (mine) owned_.push_back(owned);
    }
  if (!owned_.empty()) one_ = backend.allocate(1);
}

template <typename T>
std::vector<double> ProbeSampler<T>::sample(const Buffer<T>& u) {
  std::vector<SlotValue> mine;
  for (const OwnedCorner& corner : owned_) {
    T value{};
    backend_.pack_box(u, L_, corner.box, one_);
    backend_.download(&value, one_, 1);
    mine.push_back({corner.slot, static_cast<double>(value)});
  }
  std::vector<SlotValue> all = mine;
  if (comm_.several()) {
    const std::vector<char> bytes = comm_.gather_to_root(mine.data(), mine.size() * sizeof(SlotValue));
    if (!comm_.root()) return {};
    all.resize(bytes.size() / sizeof(SlotValue));
    std::memcpy(all.data(), bytes.data(), bytes.size());
  }
  const int corners = 1 << dims_;
  std::vector<double> corner_values(cells_.size() * static_cast<std::size_t>(corners), 0.0);
  for (const SlotValue& v : all) corner_values[static_cast<std::size_t>(v.slot)] = v.value;
  // The same sum in the same order on any number of ranks: corners in order, weight-0 ones
  // left out, the first term not added to 0 (a value of -0 stays -0).
  std::vector<double> values;
  for (std::size_t p = 0; p < cells_.size(); ++p) {
    double sum = 0;
    bool first = true;
    for (int corner = 0; corner < corners; ++corner) {
      const double w = corner_weight(cells_[p], dims_, corner);
      if (w == 0) continue;
      const double term = w * corner_values[p * static_cast<std::size_t>(corners) + corner];
      sum = first ? term : sum + term;
      first = false;
    }
    values.push_back(sum);
  }
  return values;
}

template class ProbeSampler<float>;
template class ProbeSampler<double>;

}  // namespace fdsolve
