// Prompt interrupts for long multigrid cycles. A signal (or the wall-time limit) normally takes
// effect when the running cycle ends, which is soon for most grids; a cycle that takes longer than kPromptSeconds is
// run so that it can be abandoned part-way: the fine field is copied before it, the cycles
// check the stop flag before every sweep, and an abandoned cycle's start is restored. The
// checkpoint written then is the last complete cycle's, so a resumed run repeats the
// abandoned cycle and ends bit-identical to one never interrupted.
#pragma once

#include <chrono>
#include <cstdlib>
#include <functional>

#include "backend.hpp"
#include "stencil_hierarchy.hpp"

namespace fdsolve::multigrid {

template <typename T>
class PromptStop {
 public:
  /// Cycles longer than this keep a copy of their start so that a signal can abandon them.
  static constexpr double kPromptSeconds = 0.2;
  /// A first cycle on at least this many fine nodes is taken to be long (no cycle measured yet).
  static constexpr index_t kLongFirstCells = index_t(1) << 20;

  /// `size`: the fine field's length. `requested`: whether to stop now (a signal, the
  /// wall-time limit). `usable`: false over several ranks (they would abandon different sweeps).
  PromptStop(Backend<T>& backend, index_t size, index_t fine_cells,
             std::function<bool()> requested, bool usable)
      : backend_(backend),
        size_(size),
        requested_(std::move(requested)),
        enabled_(usable),
        threshold_(threshold_seconds()),
        expect_long_(fine_cells >= kLongFirstCells || threshold_ <= 0) {}

  /// Whether the next cycle runs abandonably (so the caller must run it directly, not replay
  /// a recording of it).
  bool next_abandonable() const { return enabled_ && expect_long_; }

  /// Runs `cycle` (work on u through `cycles`). Returns false when a signal abandoned it, with
  /// u restored to its state before the call. Times the cycle to decide for the next one.
  template <typename C>
  bool run(C& cycles, Buffer<T>& u, const std::function<void()>& cycle) {
    const auto start = std::chrono::steady_clock::now();
    const bool abandonable = next_abandonable();
    if (abandonable) {
      if (saved_.size() == 0) saved_ = backend_.allocate(size_);
      backend_.copy(saved_, u);
      cycles.set_interrupt(requested_);
    }
    bool finished = true;
    try {
      cycle();
    } catch (const CycleInterrupted&) {
      finished = false;
    }
    cycles.set_interrupt({});
    if (!finished) {
      backend_.copy(u, saved_);
      backend_.synchronize();
      return false;
    }
    if (abandonable || enabled_) {
      backend_.synchronize();  // the cycle's own time, not its enqueueing
      const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
      expect_long_ = took.count() > threshold_;
    }
    return true;
  }

 private:
  /// kPromptSeconds, or the environment's FDSOLVE_PROMPT_SECONDS (the tests set 0 to make every
  /// cycle abandonable whatever the machine's speed).
  static double threshold_seconds() {
    const char* text = std::getenv("FDSOLVE_PROMPT_SECONDS");
    if (!text || !*text) return kPromptSeconds;
    char* end = nullptr;
    const double v = std::strtod(text, &end);
    return end && *end == '\0' && v >= 0 ? v : kPromptSeconds;
  }

  Backend<T>& backend_;
  index_t size_;
  std::function<bool()> requested_;
  bool enabled_;
  double threshold_;
  bool expect_long_;
  Buffer<T> saved_;
};

}  // namespace fdsolve::multigrid
