// The sweep step over a rank's interior and rim (split_sweep.hpp).
#include "parallel/split_sweep.hpp"

#include <algorithm>
#include <chrono>

namespace fdsolve {
namespace {

double seconds_between(std::chrono::steady_clock::time_point a,
                       std::chrono::steady_clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

}  // namespace

std::vector<Box> split_box(const Box& box, const Layout& layout,
                           const std::array<bool, 6>& exchanged) {
  // The interior stops one node short of an exchanged face: nodes 0 and n-1 read its halo.
  Box interior = box;
  for (int axis = 0; axis < layout.dims; ++axis) {
    if (exchanged[2 * axis]) interior.lo[axis] = std::max<index_t>(box.lo[axis], 1);
    if (exchanged[2 * axis + 1])
      interior.hi[axis] = std::min<index_t>(box.hi[axis], layout.n[axis] - 1);
    interior.lo[axis] = std::min(interior.lo[axis], box.hi[axis]);
    interior.hi[axis] = std::max(interior.hi[axis], interior.lo[axis]);
  }
  std::vector<Box> pieces{interior};
  // The rim: per axis the slabs below and above the interior, over what earlier axes left.
  Box rest = box;
  for (int axis = 0; axis < 3; ++axis) {
    Box low = rest, high = rest;
    low.hi[axis] = interior.lo[axis];
    high.lo[axis] = interior.hi[axis];
    if (!low.empty()) pieces.push_back(low);
    if (!high.empty()) pieces.push_back(high);
    rest.lo[axis] = interior.lo[axis];
    rest.hi[axis] = interior.hi[axis];
  }
  return pieces;
}

template <typename T>
SplitSweep<T>::SplitSweep(Backend<T>& backend, HaloExchange<T>& halo, KernelId kernel,
                          const Box& box, bool overlap)
    : backend_(backend), halo_(halo), kernel_(kernel), overlap_(overlap && halo.active()) {
  std::array<bool, 6> exchanged{};
  for (int face = 0; face < 6; ++face) exchanged[face] = halo.exchanged(face);
  pieces_ = halo.active() ? split_box(box, halo.layout(), exchanged) : std::vector<Box>{box};
}

template <typename T>
template <typename SweepPiece>
void SplitSweep<T>::run(Buffer<T>& field, SweepArgs<T>& /*args*/, SweepPiece&& sweep_piece) {
  // The interior reads no exchanged halo: with overlap it is swept (enqueued, on a GPU) while
  // the faces travel; the rim waits for them.
  const auto t0 = std::chrono::steady_clock::now();
  const ExchangeTimes before = halo_.times();
  const auto sweep_nonempty = [&](const Box& piece) {
    if (!piece.empty()) sweep_piece(piece);
  };
  if (overlap_) {
    halo_.start(field);
    sweep_nonempty(pieces_.front());
    halo_.finish(field);
  } else {
    halo_.exchange(field);
    sweep_nonempty(pieces_.front());
  }
  for (std::size_t i = 1; i < pieces_.size(); ++i) sweep_nonempty(pieces_[i]);
  const ExchangeTimes& after = halo_.times();
  // What the exchange did not take was spent on the sweeps (or, with faces_ready, waiting for
  // them: that counts as sweep time too).
  const double exchange = after.exchange - before.exchange;
  sweep_seconds_ += seconds_between(t0, std::chrono::steady_clock::now()) - exchange;
}

template <typename T>
void SplitSweep<T>::sweep(Buffer<T>& field, SweepArgs<T> args) {
  if (!halo_.active()) {
    backend_.sweep(args, kernel_);
    return;
  }
  run(field, args, [&](const Box& piece) {
    args.box = piece;
    backend_.sweep(args, kernel_);
  });
}

template <typename T>
SweepStats SplitSweep<T>::sweep_with_stats(Buffer<T>& field, SweepArgs<T> args) {
  if (!halo_.active()) return backend_.sweep_with_stats(args, kernel_);
  run(field, args, [&](const Box& piece) {
    args.box = piece;
    backend_.smooth({args, 1, kernel_, false, nullptr, PassStats::Queued});
  });
  const auto t0 = std::chrono::steady_clock::now();
  SweepStats total;
  for (const SweepStats& piece : backend_.collect_stats()) total.merge(piece);  // enqueue order
  sweep_seconds_ += seconds_between(t0, std::chrono::steady_clock::now());
  return total;
}

template <typename T>
SweepTimes SplitSweep<T>::times() const {
  return SweepTimes{sweep_seconds_, halo_.times().exchange};
}

template class SplitSweep<float>;
template class SplitSweep<double>;

}  // namespace fdsolve
