// Multigrid cycles on any backend: V and W cycles with weighted-Jacobi smoothing, full-weighting
// restriction, linear prolongation (between nested or non-nested levels) and a bottom solve by
// conjugate gradients (or enough sweeps), and full multigrid.
// Every step is a backend operation enqueued without host synchronisation; only the probe (the
// first smoothing sweep of a cycle, with statistics) returns numbers.
//
// The fine level's field u and its second buffer belong to the caller, with its halo fill
// (boundary values); coarse levels hold corrections with homogeneous face rules (zero
// Dirichlet values, zero-gradient mirrors, periodic wraps).
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "backend.hpp"
#include "cycle_driver.hpp"
#include "cycle_plan.hpp"
#include "hierarchy.hpp"
#include "level_operator.hpp"
#include "parallel/comm.hpp"
#include "parallel/halo_exchange.hpp"
#include "parallel/level_split.hpp"
#include "run_output.hpp"

namespace fdsolve::multigrid {

/// The constant-stencil hierarchy (level_operator.hpp: the 5/7/19/27-point weights of
/// alpha I - beta L on every level, rediscretised) with the cycle driver's operations
/// (cycle_driver.hpp), over one rank or several, and the cycle plan that chooses its kernels.
template <typename T>
class StencilHierarchy : private LevelHierarchy {
 public:
  /// Fills the fine field's halo (the case's Neumann gradients and periodic wraps, and over
  /// several ranks the exchange of the faces between them).
  using FineHalo = std::function<void(Buffer<T>&)>;

  StencilHierarchy(std::vector<LevelGeometry> levels, const CycleSettings& settings,
                   Backend<T>& backend, KernelId fine_kernel, FineHalo fine_halo,
                   const LevelRanks& ranks = {});
  ~StencilHierarchy();

  const std::vector<LevelGeometry>& levels() const { return levels_; }
  const LevelOperator& op(int level) const { return ops_[level]; }
  /// Whether the coarsest grid is solved by conjugate gradients (bottom_cg.hpp): whenever it
  /// is whole on one rank and small; else by bottom_sweeps() smoothing sweeps.
  bool bottom_by_cg() const { return plan_.bottom_by_cg; }
  int bottom_sweeps() const { return bottom_.sweeps; }

  /// Visits the levels of at most `cells` nodes (the fine level never) in one backend call,
  /// where the backend has it (Backend::bottom_levels_call) and the cycles run on one rank;
  /// 0: level by level. The constructor sets bottom_levels_cells(backend name). Recorded work
  /// keeps the setting it was recorded with.
  void set_bottom_levels_cells(index_t cells);
  /// The first level the one call visits (levels().size() when none is).
  int bottom_levels_first() const { return plan_.bottom_call_first; }

  /// Smooths with blocked passes (SmoothingPass::blocked, two sweeps each) where they give the
  /// same result: on one rank, on levels of at least `min_cells` nodes whose faces are all
  /// Dirichlet (no ghost changes between the sweeps) and that the bottom levels' call does not
  /// visit; the same numbers as single sweeps. The constructor sets blocked_smoothing_default()
  /// with kBlockedSmoothingCells. Recorded work keeps the setting it was recorded with.
  void set_blocked_smoothing(bool on, index_t min_cells = kBlockedSmoothingCells);
  /// Whether `level` smooths with blocked passes.
  bool blocked_smoothing(int level) const { return plan_.level[level].passes.has_value(); }
  /// Adds the coarse correction and runs the first post-smoothing pass as one backend call
  /// (SmoothingPass::correction) on the levels that smooth with blocked passes: on
  /// CUDA in 2D one pass over the level fewer a cycle. The same numbers up to the rounding of
  /// the addition (the GPU tests compare). The constructor sets fused_correction_default();
  /// recorded work keeps the setting it was recorded with.
  void set_fused_correction(bool on) { plan_.fused_correction = on; }
  /// Whether the correction of `level` (from level + 1) runs inside its first post-smoothing
  /// pass.
  bool fuses_correction(int level) const;

  /// The plan (CyclePlan) as the cycles run it now, one line per level for the debug log.
  const CyclePlan& plan() const { return plan_; }
  std::vector<std::string> describe_plan() const;
  /// Where the gathered levels run and how their right-hand side gets there (the log's and the
  /// plan's words).
  std::string whole_levels() const;

  /// Changes the operator to alpha I - beta L on every level (an implicit heat step whose dt
  /// differs): relaxation weights, rhs_scale and the bottom solve follow. Work recorded with
  /// Backend::record has the old weights baked in: record it again.
  void set_shift(double alpha, double beta);

  /// The fine right-hand side: a g field (rhs_scale * f, fine layout, backend memory) or, when
  /// null, the constant g everywhere.
  void set_fine_rhs(const T* g_field, double g_constant);

  /// The first smoothing sweep of the next cycle, u -> next, with the statistics of its update,
  /// which is the scaled residual r~ = omega (f - A u) / diag of u: the norms of the residual of
  /// u are residual_scale() times the update's. Leaves u unchanged. Where the fine level smooths
  /// by blocked passes with a checked pair (Backend::pairs_with_stats), the probe is the first
  /// two pre-smoothing sweeps in one pass, the statistics those of the first.
  SweepStats probe(Buffer<T>& u, Buffer<T>& next);
  /// The same probe enqueued without waiting for its statistics: collect_probes() returns
  /// those of every probe enqueued since the last collect, in order, at one wait. One rank.
  void enqueue_probe(Buffer<T>& u, Buffer<T>& next);
  std::vector<SweepStats> collect_probes() { return backend_.collect_stats(); }
  /// Completes the cycle a probe began: takes its sweep (or its pair of sweeps) as the first
  /// of the pre-smoothing, or, where the fine level smooths with blocked passes that have no
  /// checked pair, runs the whole pre-smoothing in one pass from u (the same numbers: the
  /// probe's sweep is the pass's first).
  void finish_cycle(Buffer<T>& u, Buffer<T>& next);
  /// One whole cycle (V or W) on u.
  void cycle(Buffer<T>& u, Buffer<T>& next);
  /// Full multigrid: the correction equation A e = f - A u solved coarsest grid first, each
  /// level's start interpolated from the next coarser and improved by one cycle; ends with one
  /// fine cycle on u + e.
  void full_multigrid(Buffer<T>& u, Buffer<T>& next);

  /// Makes the cycles call `requested` before every sweep and bottom solve and, once it returns
  /// true, abandon the cycle by throwing CycleInterrupted (an empty function: never). For work
  /// run directly on one rank only: a recording replays without the checks, and ranks would
  /// leave their exchanges unmatched.
  void set_interrupt(std::function<bool()> requested) { interrupt_ = std::move(requested); }

  /// Whether a recording of cycle() / finish_cycle() / full_multigrid() leaves the fine
  /// buffers as it found them (Backend::record): an even number of fine sweeps per cycle, and
  /// over several ranks only where every message is a device exchange enqueued on the stream
  /// (a recording replays the device work, not MPI calls): the halo through NCCL and the
  /// gathered levels run on every rank.
  bool recordable() const {
    return record_cycles_default() && levels_.size() > 1 &&
           (fine_swaps(settings_.spec.pre_smooth) + fine_swaps(settings_.spec.post_smooth)) % 2 ==
               0 &&
           (!comm_.several() || stream_ordered_);
  }
  /// Whether the gathered levels run on every rank (LevelRanks::coarse_levels).
  bool redundant_coarse() const { return redundant_; }
  /// The first level that runs whole (gathered); levels().size() when every level is split.
  int gather_level() const { return gather_; }

  /// Times every operation per level (output::LevelSeconds) from now on, on the backend's
  /// queue clock (events on a GPU's stream: nothing waits for a reading until the cycle
  /// ends). The loops turn it on over several ranks, where the split of a cycle's time is what
  /// decides its scaling; cycles that are recorded are not timed (level_seconds stays empty).
  void time_levels() {
    // Recorded cycles replay without the host between their operations: nothing to time per
    // operation (FDSOLVE_RECORD_CYCLES=0 launches them, timed).
    if (recordable()) return;
    clock_ = backend_.queue_clock();
    seconds_.assign(levels_.size(), output::LevelSeconds{});
  }
  /// The seconds per level so far (reads the clock for the operations still pending).
  const std::vector<output::LevelSeconds>& level_seconds() const {
    settle_times();
    return seconds_;
  }

  /// Whether every cycle should reduce the residual (the stall rule applies).
  bool monotone() const { return true; }
  /// Multiplies the probe's update norms into residual norms: diag / omega of the fine level's
  /// first pre-smoothing sweep.
  double residual_scale() const {
    return ops_[0].diag /
           (ops_[0].omega * smoothing_weights(0, settings_.spec.pre_smooth, 0).source_scale);
  }
  /// Whether the cycles smooth by Chebyshev steps (solve.multigrid.smoother) on their large
  /// levels.
  bool chebyshev_smoothing() const { return chebyshev_; }
  /// Backend memory of the coarse levels (three fields each), in bytes.
  static std::size_t coarse_bytes(const std::vector<LevelGeometry>& levels);
  /// The same for rank `rank` of a split: its boxes of the split levels, the gather level's
  /// split copy (two fields and the packed transfer), and the gathered levels whole on rank 0
  /// or, `redundant`, on every rank (with the other ranks' blocks of the gather level).
  static std::size_t coarse_bytes(const std::vector<LevelGeometry>& levels,
                                  const parallel::LevelSplit& split, int rank, bool redundant);

 private:
  // The cycle driver's operations (cycle_driver.hpp) on level's pair x(level), next(level).
  int coarsest() const override { return static_cast<int>(levels_.size()) - 1; }
  /// Whether this rank works on `level`: every rank on split levels, rank 0 on gathered ones
  /// unless every rank runs them (redundant_).
  bool here(int level) const override { return level < gather_ || comm_.root() || redundant_; }
  void zero(int level) override;
  /// Pre-smoothing: the last `sweeps` sweeps of a step of spec.pre_smooth (the probe took the
  /// first ones).
  void smooth(int level, int sweeps, bool zeroed) override {
    smooth_level(level, sweeps, zeroed, nullptr, settings_.spec.pre_smooth);
  }
  /// Restricts the residual of x (computed into next, the scratch) to the next level's
  /// right-hand side.
  void restrict_residual(int level) override;
  /// Restricts level's right-hand side itself (full multigrid's descent).
  void restrict_rhs(int level) override;
  /// correct(level), then the post-smoothing; in one backend call for the first pass where
  /// fuses_correction(level).
  void correct_and_smooth(int level, int sweeps) override;
  /// Adds the interpolated correction of level + 1 (linear, or cubic for full multigrid's
  /// ascent with settings.cubic_fmg).
  void interpolate(int level, bool cubic) override { correct(level, cubic); }
  /// The coarsest level's correction equation solved (CG, or the bottom sweeps).
  void solve_coarsest() override;
  /// The fine level alone: the bottom sweeps (its fields have no CG scratch).
  void solve_alone(int done) override {
    smooth_level(0, std::max(0, bottom_.sweeps - done), false, nullptr, 0);
  }
  bool visits_below(int level) const override { return level >= plan_.bottom_call_first; }
  /// visit(level, fresh) of level >= plan_.bottom_call_first as one BottomLevelsCall::bottom_levels
  /// call.
  void visit_below(int level, bool fresh) override;

  /// The fields of `level`: the caller's u and next on the fine level (bind), else the
  /// correction and its second buffer.
  Buffer<T>& x(int level) { return level == 0 ? *fine_x_ : x_[level]; }
  Buffer<T>& next(int level) { return level == 0 ? *fine_next_ : next_[level]; }
  void bind(Buffer<T>& u, Buffer<T>& next) {
    fine_x_ = &u;
    fine_next_ = &next;
  }
  CycleShape shape() const { return cycle_shape(settings_.spec); }
  /// Whether `level` is split over several ranks (its halo partly comes from neighbours).
  bool split(int level) const { return comm_.several() && level < gather_; }
  /// The right-hand side, layout and box that a restriction from `level` writes: level + 1's,
  /// or the gather level's split copy.
  Buffer<T>& coarse_rhs(int level);
  const Layout& coarse_layout(int level) const;
  const Box& coarse_box(int level) const;
  /// Fills the ghosts of `x` by `rules`, axis by axis between the exchanges of `halo` (null:
  /// nothing to exchange), as Boundaries::before_sweep does for the fine grid.
  void fill_and_exchange(HaloFillArgs<T> rules, HaloExchange<T>* halo, Buffer<T>& x);
  /// The gather level's right-hand side, restricted into its split copy, to rank 0's whole one
  /// (or every rank's, redundant_).
  void gather_rhs();
  /// The gather level's right-hand side to every rank's whole one through the device exchange,
  /// enqueued on the transfer queue (no host wait).
  void allgather_rhs_on_device();
  /// Rank 0's correction of the gather level to every rank's split copy (redundant_: each
  /// rank's own box of its whole correction, a copy on the device).
  void scatter_correction();
  /// The box of rank r's owned nodes in the gather level's whole layout.
  Box gathered_box(int rank) const;
  SweepArgs<T> sweep_args(int level, const StencilWeights& w, const Buffer<T>& in, Buffer<T>& out,
                          const T* source) const;
  const T* rhs(int level) const;
  void fill_boundary(int level, Buffer<T>& x);
  void fill_homogeneous(int level, Buffer<T>& x);
  /// `sweeps` smoothing sweeps of x(level), the last ones of a step of `degree` sweeps (their
  /// weights: smoothing_weights; degree 0: the plain weights, as the bottom sweeps); `zeroed`: x
  /// was just zeroed, halo included, so its first sweep needs no halo fill (over ranks, no
  /// exchange: every halo value is zero); `correction`: added to x inside the first blocked pass
  /// (SmoothingPass::correction).
  void smooth_level(int level, int sweeps, bool zeroed, const TransferArgs<T>* correction,
                    int degree);
  /// Whether `level` smooths by Chebyshev steps (every level, where the settings ask for them:
  /// the cycle's factor is its worst level's).
  bool chebyshev(int /*level*/) const { return chebyshev_; }
  /// smoothing_weights as a sweep reading `level`'s source takes them (sourced), for a pass's
  /// second sweep (SweepArgs::second_weights).
  StencilWeights pass_weights(int level, int degree, int index) const {
    return sourced(smoothing_weights(level, degree, index), rhs(level));
  }
  /// `w` for a sweep whose source field is `source`: without one (the fine level has no g
  /// field) the constant takes the sweep's factor as a field would.
  StencilWeights sourced(StencilWeights w, const T* source) const {
    if (!source) w.source = fine_rhs_constant_ * w.source_scale;
    return w;
  }
  /// The weights of sweep `index` of a smoothing step of `degree` sweeps on `level`.
  StencilWeights smoothing_weights(int level, int degree, int index) const {
    return chebyshev(level) ? chebyshev_sweep(ops_[level], degree, index) : ops_[level].smooth;
  }
  /// The probe's pass over the fine level: a checked sweep, or the checked pair.
  SmoothingPass<T> probe_pass(const SweepArgs<T>& a, PassStats when) const;
  /// How often smooth(0, ..., sweeps) swaps the fine buffers: once per blocked pass, once per
  /// single sweep.
  int fine_swaps(int sweeps) const {
    return blocked_smoothing(0) && sweeps >= 2
               ? (sweeps + kMaxBlockedSweeps - 1) / kMaxBlockedSweeps
               : sweeps;
  }
  /// Whether finish_cycle redoes the probe's sweep inside a blocked pre-smoothing pass instead
  /// of taking it (the blocked kernel has no checked pair; in bytes the pass replaces the single
  /// sweep that followed the probe).
  bool probe_redone() const {
    return blocked_smoothing(0) && settings_.spec.pre_smooth >= 2 && coarsest() > 0 &&
           !plan_.pair_probe;
  }
  /// Sweeps per blocked pass at most: what the two-sweep marching kernel takes (V(2,2) smooths
  /// two at a time); the interrupt is checked between passes.
  static constexpr int kMaxBlockedSweeps = 2;
  /// Runs `op`, adding its seconds to `part` of `level` when time_levels is on: two marks on
  /// the queue clock, read at the end of the cycle (settle_times).
  template <typename Op>
  void timed(int level, double output::LevelSeconds::*part, Op&& op) {
    if (!clock_) return op();
    const std::size_t from = clock_->mark();
    op();
    timings_.push_back({level, part, from, clock_->mark()});
  }
  /// Adds the pending operations' seconds to seconds_ and reuses the clock's marks.
  void settle_times() const;
  /// Where a halo fill of `level` counts: exchange on a level split over ranks, else sweep.
  double output::LevelSeconds::*fill_part(int level) const {
    return split(level) ? &output::LevelSeconds::exchange : &output::LevelSeconds::sweep;
  }
  /// Throws CycleInterrupted when an interrupt is requested (set_interrupt).
  void check_interrupt() const {
    if (interrupt_ && interrupt_()) throw CycleInterrupted{};
  }
  /// The bottom CG's arguments (bottom_cg.hpp) on the coarsest level.
  BottomSolveArgs<T> bottom_args();
  /// Full weighting of `from` (a g-scaled field of `level`, halo filled) into level + 1's g.
  void restrict_field(int level, const Buffer<T>& from);
  /// Adds the interpolated correction of level + 1 to x(level) (linear, or cubic).
  void correct(int level, bool cubic = false);
  /// The linear prolongation of level + 1's correction (or the gather level's copy) onto x.
  TransferArgs<T> correction_args(int level, Buffer<T>& x) const;

  std::vector<LevelGeometry> levels_;  // the whole grids: operators and bottom solve
  CycleSettings settings_;
  Backend<T>& backend_;
  FineHalo fine_halo_;
  parallel::Comm comm_;
  int gather_ = 0;               // the first level run whole; levels_.size() when none is
  bool redundant_ = false;       // the whole levels run on every rank (LevelRanks::coarse_levels)
  bool chebyshev_ = false;       // Chebyshev smoothing steps (solve.multigrid.smoother)
  bool device_gather_ = false;   // redundant_, its allgather through the device exchange
  bool stream_ordered_ = false;  // over ranks, every message of a cycle enqueued on the stream
  std::vector<parallel::Decomposition> split_;  // the split levels' (and gather copy's) boxes
  std::vector<LevelOperator> ops_;
  BottomSolve bottom_;
  std::vector<Layout> layout_;  // this rank's fields of each level (its box, or whole)
  std::vector<Box> box_;        // the nodes a sweep of each level updates here
  CyclePlan plan_;
  std::vector<HaloFillArgs<T>> homogeneous_;  // face rules of corrections (field set per fill)
  std::vector<std::unique_ptr<HaloExchange<T>>> halo_;  // split levels' exchanges
  // Coarse levels' fields (index 0 unused): correction, its second buffer, right-hand side g.
  std::vector<Buffer<T>> x_, next_, rhs_;
  // The gather level's split copy: what the restriction writes and the prolongation reads.
  Layout copy_layout_;
  Box copy_box_;
  HaloFillArgs<T> copy_rules_;
  std::unique_ptr<HaloExchange<T>> copy_halo_;
  Buffer<T> copy_rhs_, copy_x_, packed_;
  std::vector<Buffer<T>> blocks_;  // device_gather_: the other ranks' blocks of the gather level
  std::vector<T> mine_, whole_;    // host staging of the gather and the scatter
  Buffer<T> cg_r_, cg_p_, cg_q_;   // the bottom CG's scratch fields
  std::function<bool()> interrupt_;
  // time_levels: on when clock_ is set. A reading settles the operations timed so far, so
  // that const readers (the summaries) see every one: mutable, as a cache of the clock.
  struct PendingTime {
    int level;
    double output::LevelSeconds::*part;
    std::size_t from, to;  // marks of clock_
  };
  mutable std::unique_ptr<QueueClock> clock_;
  mutable std::vector<PendingTime> timings_;
  mutable std::vector<output::LevelSeconds> seconds_;  // per level
  const T* fine_rhs_ = nullptr;
  double fine_rhs_constant_ = 0;
  Buffer<T>* fine_x_ = nullptr;  // the caller's u and next during a cycle (bind)
  Buffer<T>* fine_next_ = nullptr;
};

}  // namespace fdsolve::multigrid
