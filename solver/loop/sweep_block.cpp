// Blocks of plain sweeps, recorded once per shape (length, starting buffer, weights, source)
// and replayed.
#include "sweep_block.hpp"

#include <algorithm>

namespace fdsolve {

bool needs_host(std::int64_t it, const LoopMarks& m) {
  // The same conditions as the loop's own: the first iteration, every check_every, the last,
  // checkpoints (checked sweeps), and snapshots after the sweep.
  return it == 1 || it % m.check_every == 0 || it == m.total ||
         (m.checkpoint_every > 0 && it % m.checkpoint_every == 0) ||
         (m.output_every > 0 && it % m.output_every == 0) ||
         std::binary_search(m.output_steps.begin(), m.output_steps.end(), it);
}

std::int64_t plain_run_length(std::int64_t done, const LoopMarks& m) {
  // The next multiple of each period after `done` bounds the run; the loop runs that
  // iteration itself.
  const auto next_multiple = [&](std::int64_t every) {
    return every > 0 ? (done / every + 1) * every : m.total;
  };
  std::int64_t stop = std::min({m.total, next_multiple(m.check_every),
                                next_multiple(m.checkpoint_every), next_multiple(m.output_every)});
  const auto output = std::upper_bound(m.output_steps.begin(), m.output_steps.end(), done);
  if (output != m.output_steps.end()) stop = std::min(stop, *output);
  if (done < 1) stop = std::min<std::int64_t>(stop, 1);
  return std::max<std::int64_t>(0, stop - done - 1);
}

namespace {

bool same_weights(const StencilWeights& a, const StencilWeights& b) {
  return a.points == b.points && a.center == b.center && a.face == b.face && a.edge == b.edge &&
         a.corner == b.corner && a.source == b.source;
}

}  // namespace

template <typename T>
struct SweepBlock<T>::Recording {
  std::int64_t count = 0;
  const T* start = nullptr;  // cur at the first sweep
  const T* other = nullptr;
  const T* source = nullptr;
  StencilWeights weights;
  std::unique_ptr<Replay> replay;
};

template <typename T>
SweepBlock<T>::SweepBlock(Backend<T>& backend, KernelId kernel,
                          std::function<void(Buffer<T>&)> fill_ghosts)
    : backend_(backend), kernel_(kernel), fill_ghosts_(std::move(fill_ghosts)) {}

template <typename T>
SweepBlock<T>::~SweepBlock() = default;

template <typename T>
typename SweepBlock<T>::Recording& SweepBlock<T>::recording(Buffer<T>& cur, Buffer<T>& next,
                                                            const SweepArgs<T>& args,
                                                            std::int64_t count) {
  for (auto& r : recordings_)
    if (r->count == count && r->start == cur.data() && r->other == next.data() &&
        r->source == args.source_field && same_weights(r->weights, args.weights))
      return *r;
  // A run meets few shapes (the full length from each buffer, the rest before a check or a
  // snapshot); keep a handful, dropping the oldest.
  if (recordings_.size() >= 8) recordings_.erase(recordings_.begin());
  auto r = std::make_unique<Recording>();
  r->count = count;
  r->start = cur.data();
  r->other = next.data();
  r->source = args.source_field;
  r->weights = args.weights;
  // The recorded work swaps the buffers as the loop does and swaps them back at the end, so
  // that recording (and a backend that records by calling again) leaves them as it found them.
  r->replay = backend_.record([this, &cur, &next, args, count] {
    SweepArgs<T> a = args;
    if (blocked_ && count >= 2) {
      // count - 1 blocked sweeps into next, then one single sweep back into cur: the buffers
      // end as an even count of single sweeps leaves them, with u before the last sweep in
      // next (what a snapshot's update field after an interrupt needs; a blocked pass leaves
      // its input's box as scratch).
      a.in = cur.data();
      a.out = next.data();
      backend_.smooth({a, static_cast<int>(count - 1), *blocked_, true});
      a.in = next.data();
      a.out = cur.data();
      backend_.sweep(a, kernel_);
      return;
    }
    for (std::int64_t i = 0; i < count; ++i) {
      if (fill_ghosts_) fill_ghosts_(cur);
      a.in = cur.data();
      a.out = next.data();
      backend_.sweep(a, kernel_);
      cur.swap(next);
    }
    if (count % 2 != 0) cur.swap(next);
  });
  recordings_.push_back(std::move(r));
  return *recordings_.back();
}

template <typename T>
std::int64_t SweepBlock<T>::run(Buffer<T>& cur, Buffer<T>& next, const SweepArgs<T>& args,
                                std::int64_t count) {
  const std::int64_t done = std::min(count, kMaxAhead);
  count = done;
  while (count > 0) {
    // Full recordings are of an even length, so each leaves the buffers where they were and
    // the same recording serves the next; the odd rest swaps them once. Blocked recordings of
    // two sweeps or more always end where they started.
    const std::int64_t n = std::min(count, kMaxRecorded);
    recording(cur, next, args, n).replay->run();
    if (n % 2 != 0 && !(blocked_ && n >= 2)) cur.swap(next);
    count -= n;
  }
  ahead_sweeps_ += done;
  ahead_updates_ += done * args.box.cells();
  if (ahead_sweeps_ >= kMaxAhead || ahead_updates_ >= kMaxAheadUpdates) {
    backend_.synchronize();
    ahead_sweeps_ = ahead_updates_ = 0;
  }
  return done;
}

template class SweepBlock<float>;
template class SweepBlock<double>;

}  // namespace fdsolve
