// The one solve loop. Jacobi sweeps and explicit heat steps (jacobi.cpp), multigrid and
// conjugate-gradient iterations (multigrid/cycle_iteration.hpp) and implicit heat steps
// (heat/implicit_iteration.hpp) are iterations of it: each offers the LoopIteration interface
// below, and the loop does the rest the same way for all of them: the stop agreement between
// iterations, the check (history row, progress, the stop rules in their order), snapshots and
// checkpoints at their marks, and the end (status, timings, the checkpoint and the final
// snapshot). The loop adds no host synchronisation of its own: an iteration's statistics come
// with its check, and the output goes to the background writer (field_io.hpp).
#pragma once

#include <chrono>
#include <cstdint>
#include <future>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "backend.hpp"
#include "balance.hpp"
#include "case.hpp"
#include "diagnostics.hpp"
#include "discretization_stop.hpp"
#include "field_io.hpp"
#include "operator/host_array.hpp"
#include "parallel/halo_exchange.hpp"
#include "probes.hpp"
#include "progress.hpp"
#include "run_checks.hpp"
#include "solve_result.hpp"
#include "stop_rules.hpp"

namespace fdsolve {

/// What an iteration's advance did, for the loop to act on.
struct Advance {
  enum class Kind {
    Nothing,        // no iteration ran (an opening with nothing to do)
    Unchecked,      // `count` iterations without statistics
    Checked,        // `count` iterations (0: a probe of the start), `stats` their check's
    Recorded,       // a probe of a resumed run's start, whose row the restored history holds
    Abandoned,      // a signal or the time limit abandoned it part-way; u is as before it
    InputDiverged,  // an input turned non-finite (LoopIteration::input_divergence); u unchanged
  };
  Kind kind = Kind::Nothing;
  std::int64_t count = 0;
  SweepStats stats;  // Checked, Recorded: the norms that decide the stops
  /// Where the iteration measures its own (implicit heat: a step's residual before its cycles);
  /// NaN: the loop's (the first norm, the tolerance's target, the norm over the last row's).
  double first_norm = std::numeric_limits<double>::quiet_NaN();  // the run's first norm
  double target = std::numeric_limits<double>::quiet_NaN();      // the progress line's target
  double divergence_reference = std::numeric_limits<double>::quiet_NaN();
  bool own_factor = false;  // `factor` is the row's factor column (NaN: empty)
  double factor = std::numeric_limits<double>::quiet_NaN();
  std::int64_t cycles = -1;  // the row's cycles column (-1: empty)

  static Advance of(Kind kind, std::int64_t n = 0) {
    Advance a;
    a.kind = kind;
    a.count = n;
    return a;
  }
  static Advance checked(std::int64_t n, const SweepStats& s) {
    Advance a = of(Kind::Checked, n);
    a.stats = s;
    return a;
  }
};

/// What the loop needs to know about a solve besides its case: where it ends and which of the
/// optional stop rules it holds.
struct LoopPlan {
  std::int64_t last = 0;        // the last iteration: max_iterations, or the heat run's steps
  bool heat = false;            // runs to `last` (completed), never converges; steps in messages
  index_t updated_cells = 0;    // nodes one iteration updates, over all ranks
  bool multigrid = false;       // the stagnation warning names the rounding floor
  bool cycle_stall = false;     // StallWatch: monotone multigrid cycles
  bool krylov_stall = false;    // KrylovStall: conjugate gradients
  bool discretization = false;  // DiscretizationStop: solve.tolerance: discretization
  /// Heat's output at physical times (output.interval, output.times): a snapshot of t = 0 and
  /// one at each of output_steps (increasing), instead of every output.every iterations.
  bool initial_snapshot = false;
  std::vector<std::int64_t> output_steps;
};

/// The stop rules a loop holds, decided at each check in the order of the members: divergence,
/// tolerance (steady runs), the discretization error, the stall of conjugate gradients or of
/// the cycles, and the stagnation warning; `request` (signals, the wall-time limit) between
/// iterations.
struct StopRules {
  StopRules(const Case& c, const SolveOptions& options, double first_norm, const LoopPlan& plan);

  StopRequest request;
  DivergenceStop divergence;
  ToleranceStop tolerance;
  bool converges;  // the tolerance stops the run (not heat)
  std::optional<DiscretizationStop> discretization;
  std::optional<KrylovStall> krylov;
  std::optional<StallWatch> stall;
  StagnationWatch stagnation;
};

/// One iteration of a solve, as the loop drives it. The iteration owns its fields' work and
/// its statistics; the loop owns the run's record of them. Required: advance, time_after,
/// previous, agreed_stop, divergence_diagnostics, check_detail; the rest are optional.
template <typename T>
class LoopIteration {
 public:
  virtual ~LoopIteration() = default;

  /// Runs before the first turn of the loop, after its clock has started: the multigrid
  /// iteration's probe of the start (and its full-multigrid cycle); Advance::Kind::Nothing
  /// where there is nothing to do.
  virtual Advance open() { return {}; }
  /// This rank's stop request (StopRequest's code) as the ranks agree on it before the
  /// iteration after `it`: collectives where they pay, never more than one per iteration.
  virtual int agreed_stop(std::int64_t it) = 0;
  /// Whether the stop request is looked at before the count of iterations (multigrid: the
  /// request is agreed with the probe of the state, so a signal at the last cycle still
  /// interrupts), rather than after it (a run at its last iteration ends as such).
  virtual bool stop_before_count() const { return false; }
  /// Iterations from `it` that run as one block without a check, snapshot or checkpoint
  /// (Jacobi's recorded sweeps); 0 when the next iteration is to run alone.
  virtual std::int64_t advance_block(std::int64_t /*it*/) { return 0; }
  /// Runs the iteration after `it`: a sweep, a cycle and the probe of the state it reached,
  /// an implicit step.
  virtual Advance advance(std::int64_t it) = 0;
  /// The physical time after iteration `it` (a steady run's: `it`).
  virtual double time_after(std::int64_t it) const = 0;
  /// u before the latest iteration, for the `update` field (u itself where none is kept).
  virtual const Buffer<T>& previous() const = 0;

  /// The iteration whose check sets the run's first norm (Jacobi, heat: 1; multigrid: 0).
  virtual std::int64_t first_check() const { return 1; }
  /// The full diagnostics of the check at `it` when they run there (solve.diagnostics), else
  /// null.
  virtual const Diagnostics* diagnose_check(std::int64_t /*it*/, double /*norm*/) {
    return nullptr;
  }
  /// Called once the check's row is in the history; returns the progress line's detail (the
  /// multigrid iteration updates the discretization-error estimate here).
  virtual std::string check_detail(std::int64_t it, const output::HistoryRow& row,
                                   const Diagnostics* diagnosed) = 0;
  /// The diagnostics that locate a divergence found at a check (`diagnosed`: the check's own).
  virtual const Diagnostics& divergence_diagnostics(const Diagnostics* diagnosed) = 0;
  /// Whether rounding holds the iteration's residual up (KrylovStall asks it).
  virtual bool at_rounding_floor() { return false; }
  /// Called after a check at `it` that stopped nothing.
  virtual void checked(std::int64_t /*it*/, double /*norm*/) {}
  /// Where an Advance::Kind::InputDiverged came from.
  virtual output::Divergence input_divergence() const { return {}; }

  /// The fields besides u that a checkpoint carries (implicit heat's earlier steps).
  virtual std::vector<const Buffer<T>*> checkpoint_fields() const { return {}; }
  /// Called when the loop has ended, before its last wait for the backend.
  virtual void before_end(std::int64_t /*it*/, SolveStatus /*status*/, bool /*abandoned*/) {}
  /// Called once the loop's time is taken, with the iterations of this session.
  virtual void report(std::int64_t /*iterations*/) {}
  /// Over several ranks: the split and where the loop's time went.
  virtual std::optional<output::ParallelSummary> parallel_summary(double /*session*/) {
    return std::nullopt;
  }
};

/// The loop. Built where the run's writer is to start (after the fields and the operator);
/// `run` then drives an iteration from `done` (a resumed run's iterations) to its end.
template <typename T>
class SolveLoop {
 public:
  SolveLoop(const Case& c, Backend<T>& backend, output::RunOutput& out, const SolveOptions& options,
            const Layout& L, const parallel::Decomposition& d, Buffer<T>& cur, std::int64_t done,
            double earlier_seconds, const SolveResult& r, const LoopPlan& plan);

  SolveResult run(LoopIteration<T>& iteration);

  StopRules& rules() { return rules_; }
  output::RunOutput& run_output() { return out_; }
  const LoopPlan& plan() const { return plan_; }
  /// The run's first norm so far (the relative tolerance's reference).
  double first_norm() const { return r_.first_norm; }
  /// Whether iteration `it` is a check: the first, every check_every-th, the last, and those
  /// of a checkpoint.
  bool check_due(std::int64_t it) const;
  /// The row of the start of a fresh run that opens with a cycle before its first check
  /// (multigrid's full multigrid): its norm sets the first norm, or `reference` where that is
  /// larger (Advance::first_norm).
  void record_start(const SweepStats& start,
                    double reference = std::numeric_limits<double>::quiet_NaN());

 private:
  bool handle(LoopIteration<T>& iteration, const Advance& a);
  std::optional<SolveStatus> check(LoopIteration<T>& iteration, const Advance& a);
  /// A stall rule fired at check `now`: converged where the residual stopped at the rounding
  /// floor (RoundingFloor::reached by `now`, or by conjugate gradients' best check), else
  /// stalled with the message.
  SolveStatus stopped_falling(const ResidualCheck& now, bool krylov);
  /// Whether the residual of `check` lies within the rounding floor's band
  /// (RoundingFloor::reached): no device work, the floor's estimate from the case.
  bool at_floor(const ResidualCheck& check);
  /// The case's rounding floor, built at the first call.
  const RoundingFloor& rounding_floor();
  /// Adds the balance of u (balance.hpp) at `time` to `row`, where the case measures it.
  void add_balance(output::HistoryRow& row, double time);
  /// u as the balance reads it: its halo toward other ranks filled, on the host.
  const T* balance_input();
  /// The host array a device's u comes to for the balance.
  T* balance_host();
  /// The whole grid's balance of `u` (host) at `time`, logged for check `iteration`.
  std::vector<double> measure_balance(const T* u, double time, std::int64_t iteration,
                                      std::chrono::steady_clock::time_point since);
  /// The final state's balance at `time`, measured on a thread of its own where one rank runs
  /// (beside the final snapshot's write, which waits on the disk), else at once; the returned
  /// future then holds it. Empty where the final row needs no balance.
  std::future<std::vector<double>> start_final_balance(double time);
  void write_due_output(LoopIteration<T>& iteration);
  /// Whether iteration `it` writes a snapshot: every output.every, or at heat's output times.
  bool snapshot_due(std::int64_t it) const;
  /// Appends the probes' values in u at `it` to probes.csv's rows, once per iteration.
  void sample_probes(std::int64_t it, double time);
  void checkpoint(LoopIteration<T>& iteration);
  void finish(LoopIteration<T>& iteration);
  double chosen(const SweepStats& s) const {
    return c_.solve.norm == NormKind::L2 ? s.l2() : s.linf();
  }
  double seconds() const;
  LoopState state_now(LoopIteration<T>& iteration) const;

  const Case& c_;
  Backend<T>& backend_;
  output::RunOutput& out_;
  const SolveOptions& options_;
  const Layout L_;
  Buffer<T>& cur_;
  const std::int64_t done_;
  const double earlier_seconds_;
  SolveResult r_;
  const LoopPlan plan_;
  FieldWriter<T> writer_;
  Progress progress_;
  StopRules rules_;
  std::optional<RoundingFloor> floor_;  // rounding_floor(): once a solve stops falling
  // The balance of each check, and over ranks the exchange that fills u's halo for it.
  std::optional<Balance> balance_;
  std::optional<HaloExchange<T>> balance_halo_;
  op::HostArray<T> balance_host_;  // u downloaded from a device (no zero fill before it)
  const output::GridMeta grid_;
  std::int64_t it_;
  std::int64_t last_snapshot_ = -1;
  std::optional<ProbeSampler<T>> probes_;  // output.probes, in a run that writes its output
  std::int64_t last_probed_ = -1;
  bool abandoned_ = false;
  std::chrono::steady_clock::time_point start_;
};

extern template class SolveLoop<float>;
extern template class SolveLoop<double>;

}  // namespace fdsolve
