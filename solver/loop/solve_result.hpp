// What the solve loop returns (SolveResult) and its solves take (SolveOptions): Jacobi sweeps,
// multigrid and conjugate-gradient iterations and heat steps report in one form.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "checkpoint.hpp"
#include "layout.hpp"
#include "parallel/comm.hpp"
#include "parallel/decomposition.hpp"
#include "run_output.hpp"

namespace fdsolve {

enum class SolveStatus {
  Converged,
  Completed,
  MaxIterations,
  Stalled,    // multigrid: the cycles stopped reducing the residual (stop_rules.hpp)
  TimeLimit,  // the wall-time limit was reached (checkpoint and last state written)
  Diverged,
  Interrupted
};

/// converged | completed (heat reached time.end) | max_iterations | stalled | time_limit |
/// diverged | interrupted

const char* to_string(SolveStatus s);

struct SolveResult {
  SolveStatus status = SolveStatus::MaxIterations;
  std::int64_t iterations = 0;  // iterations (heat: steps) done in all, a resumed run's included
  double time = 0;              // heat: the physical time reached
  double dt = 0;                // heat: the step (the last may be shorter to end on time.end)
  /// The relative tolerance's reference: the chosen norm of the first check, or of the
  /// residual of the boundary and held data alone where that is larger (a warm start).
  double first_norm = 0;
  double norm_l2 = 0;           // of the last check
  double norm_linf = 0;
  double seconds = 0;           // wall time of the loop, snapshots included (all sessions)
  double cells_per_second = 0;  // updated nodes per second in this session
  std::string kernel;
  /// Over several ranks: the split, the exchange path and where the loop's time went.
  std::optional<output::ParallelSummary> parallel;
  /// solve.tolerance: discretization: the estimates of the last check (multigrid).
  std::optional<output::ErrorEstimate> error_estimate;
  /// solve.multigrid.precision: float ran (float cycles in a double defect correction).
  std::optional<output::MixedPrecision> mixed;
  /// solve.tolerance: discretization: seconds of the coarse grid's solve before the loop.
  double coarse_seconds = 0;
  /// Set when status is Diverged: when, why and where (its snapshot's file name included).
  std::optional<output::Divergence> divergence;
  /// Why a run that did not converge stopped, in one line (stalled: the residual, target and
  /// rounding floor; time limit: the limit and where it stopped); "" otherwise.
  std::string stop_message;
  /// Converged because the residual stopped falling at the rounding floor (status Converged).
  bool at_rounding_floor = false;
  /// Where the residual stopped falling, when a stall rule fired (at the floor or not).
  std::optional<output::RoundingFloorReport> rounding_floor;
};

struct SolveOptions {
  bool live_progress = false;  // draw a progress line on stderr
  /// Continue from this checkpoint instead of the initial state (`run --resume`).
  const Checkpoint* resume = nullptr;
  /// Set (by a signal handler) to stop after the running iteration, writing a checkpoint.
  const std::atomic<bool>* stop = nullptr;
  /// Seconds this session's loop may run before it stops with a checkpoint as on a signal
  /// (status TimeLimit); 0: no limit. solve.max_wall_time, or `run --time-limit`.
  double max_wall_seconds = 0;
  /// Run a heat case even when its dt is above the stability limit (tests that show the
  /// limit is real); the CLI never sets it.
  bool allow_unstable_dt = false;
  /// The ranks of a run over several (mpirun) and this rank's part of the grid; the default,
  /// one rank owning the whole grid, is a run without MPI.
  parallel::Comm comm;
  const parallel::Decomposition* decomposition = nullptr;
  /// Run the sweeps between checks as recorded blocks where nothing in between needs the host
  /// (sweep_block.hpp); false runs them one by one (tests compare the two).
  bool record_sweeps = true;
  /// In 3D on one rank, let the sweeps write the x faces' ghosts (Boundaries::
  /// sweeps_write_x_ghosts); false fills them before every sweep (tests compare the two).
  bool sweeps_write_x_ghosts = true;
  /// Implicit heat: whether a step's first cycles run before the host looks at their
  /// residuals (the count predicted from the last step), which spares a GPU a wait per cycle.
  /// Auto: on a GPU; the tests compare the two on either backend.
  enum class CycleChecks { Auto, EveryCycle, Predicted };
  CycleChecks cycle_checks = CycleChecks::Auto;
  /// Steady multigrid: when set, receives the final state in backend memory (`field` points
  /// to the Buffer<T> of the run's precision, `layout` is its layout) instead of a final
  /// snapshot: how solve.tolerance: discretization keeps its coarse grid's solution.
  std::function<void(const void* field, const Layout& layout)> final_state;
};

}  // namespace fdsolve
