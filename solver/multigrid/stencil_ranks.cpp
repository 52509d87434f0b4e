// The cycles' work between ranks (see stencil_hierarchy.hpp): halo fills interleaved with exchanges, the
// gather of the coarse right-hand side to rank 0 and the scatter of its correction, and the
// memory each rank's levels take.
#include <algorithm>

#include "stencil_hierarchy.hpp"
#include "cycles_detail.hpp"
#include "parallel/field_gather.hpp"

namespace fdsolve::multigrid {

using detail::layout_of;

template <typename T>
std::size_t StencilHierarchy<T>::coarse_bytes(const std::vector<LevelGeometry>& levels) {
  std::size_t bytes = 0;
  for (std::size_t l = 1; l < levels.size(); ++l)
    bytes += 3 * static_cast<std::size_t>(levels[l].layout(sizeof(T)).size) * sizeof(T);
  return bytes;
}

template <typename T>
std::size_t StencilHierarchy<T>::coarse_bytes(const std::vector<LevelGeometry>& levels,
                                    const parallel::LevelSplit& split, int rank) {
  const auto bytes = [&](const std::array<index_t, 3>& n) {
    return static_cast<std::size_t>(layout_of(levels[0].dims, n, sizeof(T)).size) * sizeof(T);
  };
  std::size_t total = 0;
  for (int l = 1; l < static_cast<int>(levels.size()); ++l) {
    if (split.split(l))
      total += 3 * bytes(split.level[l].subdomain_of(rank).n);
    else if (rank == 0)
      total += 3 * bytes(levels[l].n);
  }
  if (split.gather < static_cast<int>(levels.size())) {
    const std::array<index_t, 3> n = split.level[split.gather].subdomain_of(rank).n;
    const index_t owned = n[0] * n[1] * n[2];
    const LevelGeometry& g = levels[split.gather];
    total += 2 * bytes(n) +
             static_cast<std::size_t>(std::max(owned, rank == 0 ? g.cells() : 0)) * sizeof(T);
  }
  return total;
}

template <typename T>
void StencilHierarchy<T>::fill_and_exchange(HaloFillArgs<T> rules, HaloExchange<T>* halo, Buffer<T>& x) {
  detail::fill_and_exchange(backend_, std::move(rules), halo, x);
}

template <typename T>
Buffer<T>& StencilHierarchy<T>::coarse_rhs(int level) {
  return level + 1 == gather_ ? copy_rhs_ : rhs_[level + 1];
}

template <typename T>
const Layout& StencilHierarchy<T>::coarse_layout(int level) const {
  return level + 1 == gather_ ? copy_layout_ : layout_[level + 1];
}

template <typename T>
const Box& StencilHierarchy<T>::coarse_box(int level) const {
  return level + 1 == gather_ ? copy_box_ : box_[level + 1];
}

template <typename T>
void StencilHierarchy<T>::gather_rhs() {
  const Box owned = copy_layout_.owned_box();
  backend_.pack_box(copy_rhs_, copy_layout_, owned, packed_);
  mine_.resize(static_cast<std::size_t>(owned.cells()));
  backend_.download(mine_.data(), packed_, owned.cells());
  const std::vector<T> whole = parallel::gather_field(comm_, split_[gather_], mine_);
  if (comm_.root())
    backend_.write_box(rhs_[gather_], layout_[gather_], layout_[gather_].owned_box(), whole.data());
}

template <typename T>
void StencilHierarchy<T>::scatter_correction() {
  std::vector<T> blocks;
  std::vector<std::size_t> bytes;
  if (comm_.root()) {
    const Box owned = layout_[gather_].owned_box();
    backend_.pack_box(x_[gather_], layout_[gather_], owned, packed_);
    whole_.resize(static_cast<std::size_t>(owned.cells()));
    backend_.download(whole_.data(), packed_, owned.cells());
    blocks = parallel::split_field(split_[gather_], whole_, bytes);
  }
  const Box owned = copy_layout_.owned_box();
  mine_.resize(static_cast<std::size_t>(owned.cells()));
  comm_.scatter_from_root(blocks.data(), bytes, mine_.data(), mine_.size() * sizeof(T));
  backend_.write_box(copy_x_, copy_layout_, owned, mine_.data());
}


template std::size_t StencilHierarchy<float>::coarse_bytes(const std::vector<LevelGeometry>&);
template std::size_t StencilHierarchy<float>::coarse_bytes(const std::vector<LevelGeometry>&, const parallel::LevelSplit&, int);
template void StencilHierarchy<float>::fill_and_exchange(HaloFillArgs<float>, HaloExchange<float>*, Buffer<float>&);
template Buffer<float>& StencilHierarchy<float>::coarse_rhs(int);
template const Layout& StencilHierarchy<float>::coarse_layout(int) const;
template const Box& StencilHierarchy<float>::coarse_box(int) const;
template void StencilHierarchy<float>::gather_rhs();
template void StencilHierarchy<float>::scatter_correction();
template std::size_t StencilHierarchy<double>::coarse_bytes(const std::vector<LevelGeometry>&);
template std::size_t StencilHierarchy<double>::coarse_bytes(const std::vector<LevelGeometry>&, const parallel::LevelSplit&, int);
template void StencilHierarchy<double>::fill_and_exchange(HaloFillArgs<double>, HaloExchange<double>*, Buffer<double>&);
template Buffer<double>& StencilHierarchy<double>::coarse_rhs(int);
template const Layout& StencilHierarchy<double>::coarse_layout(int) const;
template const Box& StencilHierarchy<double>::coarse_box(int) const;
template void StencilHierarchy<double>::gather_rhs();
template void StencilHierarchy<double>::scatter_correction();

}  // namespace fdsolve::multigrid
