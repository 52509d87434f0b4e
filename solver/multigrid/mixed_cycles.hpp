// Mixed precision (solve.multigrid.precision: float): float cycles inside a double defect
// correction. Each iteration's probe is a double smoothing sweep of u with statistics, whose
// update is the scaled residual r~ = omega (f - A u) / diag; narrowed to float it is the
// right-hand side of the correction equation A e = f - A u on a float hierarchy with
// homogeneous face rules; one float cycle from e = 0 solves it approximately, and u += e in
// double. The residual and the solution keep double precision, so the iteration converges to
// the double answer; the cycles' passes move float's bytes.
//
// A float cycle reduces the residual of the correction equation only down to float's rounding
// of e, which the double residual then sees: where that floor stops the iteration (factors
// near one), the rest runs on double cycles, with a warning.
#pragma once

#include <functional>
#include <memory>
#include <vector>

#include "cycle_traits.hpp"
#include "stencil_hierarchy.hpp"

namespace fdsolve::multigrid {

class MixedCycles {
 public:
  /// A cycle whose residual factor is above this counts as held up by float's rounding (a
  /// float V-cycle reduces the residual 5-20 fold where it works).
  static constexpr double kFallbackFactor = 0.5;

  /// `levels`, `settings`, `fine_kernel`, `fine_halo` and `ranks` as for StencilHierarchy<double> on
  /// `backend` (the double cycles of full multigrid's start and of the fallback); `layout` and
  /// `box`: this rank's fine field's layout and the nodes its sweeps update. Over several ranks
  /// the float cycles split the levels as the double ones do, and their fine correction's halo
  /// comes from the neighbours as u's does.
  MixedCycles(std::vector<LevelGeometry> levels, const CycleSettings& settings,
              Backend<double>& backend, KernelId fine_kernel, StencilHierarchy<double>::FineHalo fine_halo,
              const Layout& layout, const Box& box, const LevelRanks& ranks = {});
  ~MixedCycles();
  MixedCycles(const MixedCycles&) = delete;  // its recording holds `this`
  MixedCycles& operator=(const MixedCycles&) = delete;

  /// As StencilHierarchy::set_fine_rhs, of the double solve.
  void set_fine_rhs(const double* g_field, double g_constant);

  /// The double probe (StencilHierarchy::probe): a smoothing sweep u -> next with its statistics. Before
  /// it, a residual factor above kFallbackFactor in the last cycle moves the run to double
  /// cycles for good.
  SweepStats probe(Buffer<double>& u, Buffer<double>& next);
  /// u += the float cycle's correction for the residual the probe left in next - u.
  void finish_cycle(Buffer<double>& u, Buffer<double>& next);
  /// Full multigrid in double (mixed_cycles.cpp says why), on a double hierarchy of its own
  /// (prepare_start's, else made here), kept for a fallback to double cycles.
  void full_multigrid(Buffer<double>& u, Buffer<double>& next);
  /// Before the loop's clock starts: makes full multigrid's double hierarchy and records its
  /// full multigrid on u and next where it can be recorded (one rank), so that the solve
  /// replays one graph instead of running its hundreds of small launches.
  void prepare_start(Buffer<double>& u, Buffer<double>& next);

  /// The loop records nothing: the work runs on two backends' queues, ordered by the host.
  bool recordable() const { return false; }
  bool monotone() const { return true; }
  double residual_scale() const;
  /// As StencilHierarchy::set_interrupt, for the float cycles (and the double ones after a fallback).
  void set_interrupt(std::function<bool()> requested);

  /// Times every operation per level, as StencilHierarchy::time_levels (the float cycles', and the
  /// double ones' after a fallback); the loop turns it on over several ranks.
  void time_levels();
  const std::vector<output::LevelSeconds>& level_seconds() const;
  const std::vector<LevelGeometry>& levels() const { return levels_; }

  /// The bottom solve of the float cycles (StencilHierarchy::bottom_by_cg, bottom_sweeps).
  bool bottom_by_cg() const { return float_cycles_ ? float_cycles_->bottom_by_cg() : true; }
  int bottom_sweeps() const { return float_cycles_ ? float_cycles_->bottom_sweeps() : 0; }

  /// The first cycle that ran in double (the loop's count of a fresh run, 1 the first
  /// cycle); 0 while every cycle has been float.
  int fallback_cycle() const { return fallback_probe_; }
  /// Backend memory beyond the double fine fields: the float hierarchy (the fine correction,
  /// its second buffer and right-hand side, three fields per coarse level); full multigrid's
  /// start adds the double coarse levels, kept for a fallback.
  static std::size_t extra_bytes(const std::vector<LevelGeometry>& levels);

 private:
  void fall_back(double factor);
  /// A double hierarchy of these levels with the solve's right-hand side.
  std::unique_ptr<StencilHierarchy<double>> make_double() const;
  /// e = 0, then one float cycle on e.
  void run_float_cycle();
  /// The double smoothing sweep of the fine level, u -> next.
  SweepArgs<double> fine_sweep(const Buffer<double>& u, Buffer<double>& next) const;
  /// next - u narrowed to float as the correction equation's right-hand side; then `solve`
  /// (float work on e from zero), then u += e.
  void correct(Buffer<double>& u, Buffer<double>& next, const std::function<void()>& solve);

  std::vector<LevelGeometry> levels_;
  CycleSettings settings_;
  LevelRanks ranks_;
  Backend<double>& backend_;
  KernelId fine_kernel_;
  StencilHierarchy<double>::FineHalo fine_halo_;
  Layout layout_;
  Box box_;
  LevelOperator fine_op_;
  const double* g_field_ = nullptr;
  double g_constant_ = 0;
  std::unique_ptr<Backend<float>> float_backend_;
  Layout float_layout_;
  Buffer<float> e_, e_next_, g_;
  std::unique_ptr<HaloExchange<float>> float_halo_;  // the fine correction's, over ranks
  std::unique_ptr<StencilHierarchy<float>> float_cycles_;
  /// The float cycle from e = 0, recorded once on the float backend where it can be (one
  /// rank, an even number of fine swaps): on a GPU one graph launch instead of a hundred
  /// small kernels on the coarse levels. Not replayed while an interrupt is set or levels are
  /// timed (both need the host between operations).
  std::unique_ptr<Replay> float_cycle_;
  bool timed_ = false;  // time_levels
  std::function<bool()> interrupt_;
  /// Full multigrid's double hierarchy (prepare_start or full_multigrid), and its recording.
  std::unique_ptr<StencilHierarchy<double>> start_;
  std::unique_ptr<Replay> start_replay_;
  std::unique_ptr<StencilHierarchy<double>> double_;  // after the fallback
  int probes_ = 0;
  int fallback_probe_ = 0;
  double last_norm_ = 0;
  bool correction_pending_ = false;  // a mixed probe's finish_cycle comes next
};

template <>
struct CycleTraits<MixedCycles> {
  static constexpr bool timed_levels = true;
  static constexpr bool prepares_start = true;
  static constexpr bool rounding_floor = false;
};

}  // namespace fdsolve::multigrid
