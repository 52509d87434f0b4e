// The cycles' work between ranks (see stencil_hierarchy.hpp): halo fills interleaved with exchanges, the
// gather of the coarse right-hand side (to rank 0, or to every rank) and the way back of its
// correction, and the memory each rank's levels take.
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
                                    const parallel::LevelSplit& split, int rank, bool redundant) {
  const auto bytes = [&](const std::array<index_t, 3>& n) {
    return static_cast<std::size_t>(layout_of(levels[0].dims, n, sizeof(T)).size) * sizeof(T);
  };
  std::size_t total = 0;
  for (int l = 1; l < static_cast<int>(levels.size()); ++l) {
    if (split.split(l))
      total += 3 * bytes(split.level[l].subdomain_of(rank).n);
    else if (rank == 0 || redundant)
      total += 3 * bytes(levels[l].n);
  }
  if (split.gather < static_cast<int>(levels.size())) {
    const std::array<index_t, 3> n = split.level[split.gather].subdomain_of(rank).n;
    const index_t owned = n[0] * n[1] * n[2];
    const LevelGeometry& g = levels[split.gather];
    // The packed transfer: the whole level on rank 0 when it scatters; every rank's block
    // (at most the whole level) on each when all run the level.
    const index_t packed = redundant ? owned + g.cells() : std::max(owned, rank == 0 ? g.cells() : 0);
    total += 2 * bytes(n) + static_cast<std::size_t>(packed) * sizeof(T);
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
Box StencilHierarchy<T>::gathered_box(int rank) const {
  const Subdomain s = split_[gather_].subdomain_of(rank);
  Box b;
  for (int a = 0; a < 3; ++a) {
    b.lo[a] = s.offset[a];
    b.hi[a] = s.offset[a] + s.n[a];
  }
  return b;
}

template <typename T>
void StencilHierarchy<T>::gather_rhs() {
  if (device_gather_) return allgather_rhs_on_device();
  const Box owned = copy_layout_.owned_box();
  backend_.pack_box(copy_rhs_, copy_layout_, owned, packed_);
  mine_.resize(static_cast<std::size_t>(owned.cells()));
  backend_.download(mine_.data(), packed_, owned.cells());
  const std::vector<T> whole = redundant_
                                   ? parallel::allgather_field(comm_, split_[gather_], mine_)
                                   : parallel::gather_field(comm_, split_[gather_], mine_);
  if (here(gather_))
    backend_.write_box(rhs_[gather_], layout_[gather_], layout_[gather_].owned_box(), whole.data());
}

template <typename T>
void StencilHierarchy<T>::allgather_rhs_on_device() {
  TransferQueue<T>& queue = backend_.transfers();
  queue.after_sweeps();  // the restriction into the split copy
  queue.pack_box(copy_rhs_, copy_layout_, copy_layout_.owned_box(), packed_);
  const int me = comm_.rank();
  std::vector<DeviceMessage<T>> sends, receives;
  for (int r = 0; r < comm_.size(); ++r) {
    if (r == me) continue;
    sends.push_back({packed_.data(), static_cast<std::size_t>(gathered_box(me).cells()), r});
    receives.push_back({blocks_[static_cast<std::size_t>(r)].data(),
                        static_cast<std::size_t>(gathered_box(r).cells()), r});
  }
  backend_.device_exchange()->exchange(sends, receives);
  for (int r = 0; r < comm_.size(); ++r)
    queue.unpack_box(rhs_[gather_], layout_[gather_], gathered_box(r),
                     r == me ? packed_ : blocks_[static_cast<std::size_t>(r)]);
  queue.before_sweeps();
}

template <typename T>
void StencilHierarchy<T>::scatter_correction() {
  if (redundant_) {
    // Every rank holds the whole correction, the same bits as rank 0's: its own box of it,
    // copied on the transfer queue, ordered by its events and never waited for, so that a
    // cycle recorded as a CUDA graph can hold it (a synchronisation cannot be captured).
    TransferQueue<T>& queue = backend_.transfers();
    queue.after_sweeps();
    queue.pack_box(x_[gather_], layout_[gather_], gathered_box(comm_.rank()), packed_);
    queue.unpack_box(copy_x_, copy_layout_, copy_layout_.owned_box(), packed_);
    queue.before_sweeps();
    return;
  }
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
template std::size_t StencilHierarchy<float>::coarse_bytes(const std::vector<LevelGeometry>&, const parallel::LevelSplit&, int, bool);
template Box StencilHierarchy<float>::gathered_box(int) const;
template void StencilHierarchy<float>::allgather_rhs_on_device();
template void StencilHierarchy<float>::fill_and_exchange(HaloFillArgs<float>, HaloExchange<float>*, Buffer<float>&);
template Buffer<float>& StencilHierarchy<float>::coarse_rhs(int);
template const Layout& StencilHierarchy<float>::coarse_layout(int) const;
template const Box& StencilHierarchy<float>::coarse_box(int) const;
template void StencilHierarchy<float>::gather_rhs();
template void StencilHierarchy<float>::scatter_correction();
template std::size_t StencilHierarchy<double>::coarse_bytes(const std::vector<LevelGeometry>&);
template std::size_t StencilHierarchy<double>::coarse_bytes(const std::vector<LevelGeometry>&, const parallel::LevelSplit&, int, bool);
template Box StencilHierarchy<double>::gathered_box(int) const;
template void StencilHierarchy<double>::allgather_rhs_on_device();
template void StencilHierarchy<double>::fill_and_exchange(HaloFillArgs<double>, HaloExchange<double>*, Buffer<double>&);
template Buffer<double>& StencilHierarchy<double>::coarse_rhs(int);
template const Layout& StencilHierarchy<double>::coarse_layout(int) const;
template const Box& StencilHierarchy<double>::coarse_box(int) const;
template void StencilHierarchy<double>::gather_rhs();
template void StencilHierarchy<double>::scatter_correction();

}  // namespace fdsolve::multigrid
