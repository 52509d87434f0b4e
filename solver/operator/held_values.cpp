// See held_values.hpp.
#include "held_values.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <limits>

#include "case_reader.hpp"
#include "problem/field_programs.hpp"
#include "problem/finite_inputs.hpp"

namespace fdsolve::op {

template <typename T>
void write_held_values(const Medium& m, const Subdomain& sub, const Layout& L,
                       Backend<T>& backend, Buffer<T>& field) {
  if (!m.holds()) return;
  LevelFaceBuilder& build = backend.level_faces();
  const index_t nodes = m.n[0] * m.n[1] * m.n[2];
  const Buffer<std::uint8_t> held = build.marks(nodes, m.held.data());
  const bool by_mark = m.held_value.empty();
  const Buffer<double> values =
      by_mark ? build.dense(static_cast<index_t>(m.held_number.size()), m.held_number.data())
              : build.dense(nodes, m.held_value.data());
  WriteHeld<T> op;
  op.g.dims = m.dims;
  for (int a = 0; a < 3; ++a) {
    op.g.n[a] = m.n[a];
    op.part.n[a] = L.n[a];
    op.part.offset[a] = a < L.dims ? sub.offset[a] : 0;
  }
  op.part.layout = strides_of(L);
  op.held = held.data();
  op.values = values.data();
  op.by_mark = by_mark;
  op.out = field.data();
  build.run(op);
  backend.synchronize();  // before the arrays go
}

template <typename T>
HeldValues<T>::HeldValues(const Case& c, const Medium& m, Backend<T>& backend, const Layout& L,
                          const Subdomain& sub)
    : c_(c), backend_(backend), L_(L), sub_(sub) {
  for (std::size_t r = 0; r < c.problem.fixed.size(); ++r) {
    if (!c.problem.fixed[r].value.uses_time) continue;
    const std::string key = fmt::format("problem.fixed[{}].value", r);
    if (Medium::held_mark(r) != r + 1)
      throw InputError(c.where(key) + key +
                       ": a held value that uses t must belong to one of the first 254 regions "
                       "(later regions share one mark); move this region up the list");
    // The marker is the held-node mask the flux operations' combine reads: it keeps y where
    // the mask is negative, so this region's nodes are 1 and every other node (ghosts
    // included) is -1.
    std::vector<T> marker(static_cast<std::size_t>(L.size), T(-1));
    constexpr index_t kNone = std::numeric_limits<index_t>::max();
    Box box{{kNone, kNone, kNone}, {0, 0, 0}};
    for (index_t k = 0; k < L.n[2]; ++k)
      for (index_t j = 0; j < L.n[1]; ++j)
        for (index_t i = 0; i < L.n[0]; ++i) {
          const index_t node = m.index(sub.to_global(0, i), sub.to_global(1, j),
                                       L.dims == 3 ? sub.to_global(2, k) : 0);
          if (m.held[static_cast<std::size_t>(node)] != Medium::held_mark(r)) continue;
          marker[static_cast<std::size_t>(L.at(i, j, k))] = T(1);
          const index_t at[3] = {i, j, k};
          for (int a = 0; a < 3; ++a) {
            box.lo[a] = std::min(box.lo[a], at[a]);
            box.hi[a] = std::max(box.hi[a], at[a] + 1);
          }
        }
    if (box.lo[0] == kNone) continue;  // the region holds none of this rank's nodes
    Region region;
    region.index = r;
    region.box = box;
    region.marker = backend.allocate(L.size);
    backend.upload(region.marker, marker.data(), L.size);
    region.values = backend.allocate(L.size);
    backend.zero(region.values);
    regions_.push_back(std::move(region));
  }
}

template <typename T>
void HeldValues<T>::evaluate(double t) {
  for (Region& region : regions_) {
    const Value& value = c_.problem.fixed[region.index].value;
    try {
      evaluate_value(c_, backend_, value, L_, region.box, sub_, 1.0, t, region.values);
    } catch (const NonFiniteValue& e) {
      throw NonFiniteInput(
          describe_nonfinite(c_, fmt::format("problem.fixed[{}].value", region.index), e.value,
                             e.node, false) +
          fmt::format(" at t = {}", t));
    }
  }
}

template <typename T>
void HeldValues<T>::write(Buffer<T>& field) {
  for (Region& region : regions_) {
    // y = 1 x + 0 y where the marker is not negative: x itself, exactly, on the held nodes.
    LinearCombinationArgs<T> copy;
    copy.y = field.data();
    copy.x = region.values.data();
    copy.a = 1.0;
    copy.b = 0.0;
    copy.held_face = region.marker.data();
    copy.layout = L_;
    copy.box = region.box;
    require_flux_operations(backend_).combine(copy);
  }
}

template void write_held_values<float>(const Medium&, const Subdomain&, const Layout&,
                                       Backend<float>&, Buffer<float>&);
template void write_held_values<double>(const Medium&, const Subdomain&, const Layout&,
                                        Backend<double>&, Buffer<double>&);
template class HeldValues<float>;
template class HeldValues<double>;

}  // namespace fdsolve::op
