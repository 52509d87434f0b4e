// Everything a run writes into its output directory (docs/output.md): snapshots, the XDMF
// index ParaView opens, history.csv and summary.json. Every file goes through a temporary name.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "output_error.hpp"
#include "probes_csv.hpp"
#include "snapshot.hpp"
#include "snapshot_ahead.hpp"
#include "snapshot_parallel.hpp"
#include "xdmf.hpp"

namespace fdsolve::output {

/// One row of history.csv, written at every check (README "Checks, history and plots" documents
/// the columns).
struct HistoryRow {
  std::int64_t iteration = 0;
  double time = 0;
  double norm_l2 = 0;  // of the update u' - u over the updated nodes
  double norm_linf = 0;
  double min = 0;  // of u': over every node with diagnostics, else over the updated nodes
  double max = 0;
  double mean = 0;
  /// Whether the check ran the diagnostics. When not (solve.diagnostics: false, or a row of an
  /// older checkpoint) the fields down to linf_at are unknown and written as empty cells.
  bool diagnosed = false;
  std::int64_t nonfinite = 0;  // NaN and +-Inf values of u'
  double p50 = 0;              // percentiles of |u' - u| (upper bin edges; NaN: none finite)
  double p90 = 0;
  double p99 = 0;
  std::array<std::int64_t, 3> linf_at{-1, -1, -1};  // node (i, j, k) of norm_linf
  /// The chosen norm over the previous row's: a multigrid cycle's convergence factor, or a
  /// Jacobi run's reduction over its check interval. NaN (an empty cell) on the first row.
  double factor = std::numeric_limits<double>::quiet_NaN();
  /// Implicit heat: the multigrid cycles the step took; -1 (an empty cell) for other runs.
  std::int64_t cycles = -1;
  /// The balance of the check (docs/numerics.md "Integrals and fluxes"): the integral of u,
  /// then the outward flux through each of the `balance_faces` faces (x_min first) and through
  /// each held region. Empty where the run does not measure it (history_csv.hpp names the
  /// columns: balance_columns).
  std::vector<double> balance;
  int balance_faces = 0;
  double wall_seconds = 0;
};

/// A node by its indices and physical coordinates (docs/numerics.md: x_i = origin + i h).
struct NodeAt {
  std::array<std::int64_t, 3> node{0, 0, 0};
  std::array<double, 3> x{0, 0, 0};
};

/// The node of `grid` at (i, j, k), with its coordinates.
NodeAt node_at(const GridMeta& grid, const std::array<std::int64_t, 3>& node);

/// Where and when a run diverged.
struct Divergence {
  std::int64_t iteration = 0;
  double time = 0;
  std::string reason;          // nonfinite (values of u' are NaN or Inf) | norm (blow-up)
  double norm = 0;             // the chosen norm at that check
  double limit = 0;            // divergence_factor x first norm
  std::int64_t nonfinite = 0;  // NaN and +-Inf values of u'
  /// The first (C order) at most 10 non-finite nodes of u' when there are any; else the node of
  /// the largest |u' - u| (the first non-finite update, if one is).
  std::vector<NodeAt> nodes;
  double largest_update = 0;  // no non-finite value: that |u' - u|
  std::string snapshot;       // file name of the last state's snapshot, marked diverged
  std::string input;          // reason "input": the key, time and node of a non-finite input
};

/// The contents of summary.json.
/// Host seconds of a solve loop by what the host was doing (the rest: snapshots, boundary
/// values, progress).
struct LoopTimes {
  double loop = 0;        // the whole loop of this session
  double sweep = 0;       // sweeps, and waiting for them
  double exchange = 0;    // halo exchange: packing, staging copies, MPI, unpacking
  double reductions = 0;  // collectives: check statistics over the ranks, stop agreement
};

/// Where a multigrid level's share of the cycles went on one rank, in seconds.
struct LevelSeconds {
  double sweep = 0;     // smoothing and residual sweeps, halo fills without messages
  double transfer = 0;  // restriction and prolongation
  double exchange = 0;  // halo exchanges between ranks, gathers to and scatters from rank 0
  double bottom = 0;    // the bottom solve
};

/// A run over several ranks: the split, how the halo travelled, where the time went.
struct ParallelSummary {
  int ranks = 1;
  std::array<int, 3> rank_grid{1, 1, 1};
  bool overlap = false;  // the interior swept while the halo travelled
  std::string exchange;  // the exchange path (host memory, NCCL, CUDA-aware, staged)
  std::string transport;  // its transport: nccl, mpi staged through host, host memory, ...
  LoopTimes rank0;       // measured on rank 0
  LoopTimes max;         // each figure's largest over the ranks
  /// Multigrid: per level (0 the finest) its node counts and its seconds on rank 0 and the
  /// largest over the ranks; empty for Jacobi.
  std::vector<std::array<std::int64_t, 3>> level_points;
  std::vector<LevelSeconds> levels_rank0, levels_max;
};

/// Where the whole run's time went, in seconds: from the process's start to the first iteration
/// (the case, expressions and data files, allocation, the multigrid hierarchy), the loop less
/// the output it waited for, the output (snapshots, checkpoints, history), how long the loop
/// waited for output, and the whole process up to the summary.
/// One stage of a run's set-up: the seconds from the stage before it (or the process's start)
/// until it was reached.
struct SetupStage {
  std::string stage;
  double seconds = 0;
};

struct RunTimings {
  double setup = 0;
  std::vector<SetupStage> setup_stages;  // in order; their seconds add up to setup
  double solve = 0;
  double output = 0;
  double output_wait = 0;
  double total = 0;
  bool measured = false;
};

/// What a steady multigrid solve with solve.tolerance: discretization estimated at its last
/// check, in the run's norm: the discretization error of the fine grid (Richardson's, against
/// the grid through every other node) and the algebraic error left in u; and the seconds the
/// coarser grid's solve took before the loop.
struct ErrorEstimate {
  double discretization = 0;
  double algebraic = 0;
  std::string norm;  // l2 | linf
  double coarse_seconds = 0;
};

/// solve.multigrid.precision: float (a double run's cycles in float): where the run moved to
/// double cycles because float's rounding held the residual up (0: it never did).
struct MixedPrecision {
  std::int64_t fallback_cycle = 0;
};

/// Where a steady solve's residual stopped falling (a stall rule fired), against the rounding
/// floor of its precision: written as "rounding_floor".
struct RoundingFloorReport {
  std::string norm;          // l2 | linf: the norm of `residual` and `target`
  double residual = 0;       // where the residual stopped, in that norm
  double target = 0;         // the tolerance's target, in that norm
  double residual_linf = 0;  // where it stopped, in the max norm
  double floor = 0;          // eps x |A| x |u|, in the max norm
};

struct Summary {
  std::string name;
  std::string case_file;
  std::string backend;    // cpu | cuda
  std::string device;     // hardware description
  std::string precision;  // float | double
  std::string kernel;     // kernel variant used
  std::string kernel_reason;  // why that variant: "tuning.kernel", "tune cache ...", ...
  /// How the run solved: "jacobi", "multigrid V(2,2) with FMG", "explicit" (heat) ...
  std::string method;
  /// What norm_l2 and norm_linf measure: "residual" (f - A u) or "update" (u' - u); "" leaves
  /// it out.
  std::string criterion;
  GridMeta grid;
  std::int64_t iterations = 0;
  bool converged = false;
  std::string status;  // converged | completed | max_iterations | stalled | time_limit |
                      // diverged | interrupted
  /// Why a run stopped without converging, in one line (stalled, time limit, max_iterations,
  /// interrupted); "" when it converged or completed. Written as "stop_reason" when not empty.
  std::string stop_reason;
  double norm_l2 = 0;
  double norm_linf = 0;
  double first_norm = 0;  // the reference of the relative tolerance
  /// A steady solve that converged at the rounding floor of its precision (status converged).
  bool at_rounding_floor = false;
  /// Where the residual stopped falling, when a stall rule fired; written as null otherwise.
  std::optional<RoundingFloorReport> rounding_floor;
  double wall_seconds = 0;
  double cells_per_second = 0;  // updated nodes per second over the solve
  int threads = 0;              // CPU threads of the sweeps (cpu backend; 0: not recorded)
  bool diagnostics = true;      // solve.diagnostics
  /// Every check's row, the last one's numbers also written as "last_check".
  std::vector<HistoryRow> history;
  bool diverged = false;  // divergence is set
  Divergence divergence;
  std::string config_yaml;
  bool distributed = false;  // parallel is set (a run over several ranks)
  ParallelSummary parallel;
  RunTimings timings;
  /// The backend's buffers (rank 0's over several ranks): the most bytes they held at once and
  /// the estimate `run` checked against the free memory first; written as "memory" where the
  /// backend counts its buffers (the CPU's arrays, the CUDA backend's device buffers).
  std::int64_t memory_peak_bytes = 0;
  std::int64_t memory_estimate_bytes = 0;
  /// solve.tolerance: discretization: the last estimates, written as "error_estimate".
  bool estimated = false;
  ErrorEstimate estimate;
  /// solve.multigrid.precision: float ran: written as "mixed_precision".
  std::optional<MixedPrecision> mixed;
};

class RunOutput {
 public:
  /// Creates `directory` (and parents). Files are named after `name`. With `writes` false
  /// (the ranks but the first of a run over several) nothing is created or written, but the
  /// index and history are kept as if it were, so that every rank decides alike.
  RunOutput(std::string directory, std::string name, GridMeta grid, std::string config_yaml,
            bool writes = true);

  /// How snapshots (not checkpoints) store their fields: output.precision, output.compression.
  void set_format(SnapshotFormat format) { format_ = format; }

  /// Writes <name>_<iteration:08d>.h5, then rewrites <name>.xmf to list every snapshot so far.
  /// Writing the same iteration again replaces that snapshot (and its .xmf entry). `texts` are
  /// further text datasets (a diverged state's /status and /divergence).
  template <typename T>
  void snapshot(std::int64_t iteration, double time, const std::vector<FieldRef<T>>& fields,
                const std::map<std::string, std::string>& texts = {});

  /// Writes `fields`, which do not change during the run (their values kept alive by `owner`),
  /// into each snapshot's file ahead of its state (snapshot_ahead.hpp): the first file is begun
  /// now, on a thread of its own; snapshot() adds the state's fields to it. One rank only.
  /// `order` names every field a snapshot holds in the order the .xmf lists them (the case's).
  template <typename T>
  void write_ahead(std::vector<FieldRef<T>> fields, std::shared_ptr<const void> owner,
                   std::vector<std::string> order = {});
  /// Whether snapshots take the field `name` from the file begun ahead.
  bool writes_ahead(const std::string& name) const { return ahead_ && ahead_->holds(name); }
  /// Begins the next snapshot's file ahead, after a snapshot that another one may follow.
  void begin_next_snapshot() {
    if (ahead_) ahead_->begin();
  }

  /// The same snapshot written by every rank at once (parallel HDF5, snapshot_parallel.hpp):
  /// every rank calls snapshot_fields with its owned nodes (`fields` dense, at `mine`), then,
  /// once the ranks have agreed that it went well everywhere, snapshot_finish, where the writing
  /// rank adds the metadata and renames the file and every rank updates the index.
  template <typename T>
  void snapshot_fields(std::int64_t iteration, const std::vector<FieldRef<T>>& fields,
                       const Hyperslab& mine) const;
  template <typename T>
  void snapshot_finish(std::int64_t iteration, double time, const std::vector<std::string>& names,
                       const std::map<std::string, std::string>& texts = {});

  /// Appends a row in memory; flush_history() rewrites history.csv with all rows.
  void add_history(const HistoryRow& row);
  /// Replaces the last row (a multigrid loop's last cycle, diagnosed once it is known to be
  /// the last).
  void replace_last_history(const HistoryRow& row);
  void flush_history() const;
  /// The same with `rows` (a copy of history() taken earlier: the background writer's).
  void write_history(const std::vector<HistoryRow>& rows) const;
  /// Called with the seconds of each history write (the run's output time, summary.json).
  void set_time_sink(std::function<void(double)> sink) { time_sink_ = std::move(sink); }

  /// The probes of probes.csv (output.probes), by name: none, no file.
  void set_probe_names(std::vector<std::string> names) { probes_.names = std::move(names); }
  bool has_probes() const { return !probes_.names.empty(); }
  /// Appends a row in memory; write_probes() rewrites probes.csv.
  void add_probe_row(ProbeRow row) { probes_.rows.push_back(std::move(row)); }
  const ProbeTable& probes() const { return probes_; }
  /// Rewrites probes.csv with `table` (a copy of probes() taken earlier: the background
  /// writer's), when the case has probes.
  void write_probes(const ProbeTable& table) const;
  /// Continues an earlier run's probes.csv from a checkpoint's rows; rewrites the file.
  void restore_probes(std::vector<ProbeRow> rows);

  void write_summary(const Summary& summary) const;

  const std::string& directory() const { return directory_; }
  /// The file name (no directory) of snapshot `iteration`.
  std::string snapshot_file(std::int64_t iteration) const;
  /// Paths of the snapshots written so far, in order.
  const std::vector<std::string>& snapshots() const { return snapshots_; }

  /// The snapshot index and history so far: what a checkpoint stores to continue this output.
  const std::vector<XdmfEntry>& index() const { return index_; }
  const std::vector<HistoryRow>& history() const { return history_; }
  /// Continues an earlier run's output from a checkpoint: its index (every listed snapshot must
  /// still exist) and history; rewrites the .xmf and history.csv to match.
  void restore(std::vector<XdmfEntry> index, std::vector<HistoryRow> history);

 private:
  void write_index() const;
  std::string snapshot_path(std::int64_t iteration) const;
  SnapshotInfo snapshot_info(std::int64_t iteration, double time,
                             const std::map<std::string, std::string>& texts) const;
  /// Adds (or replaces) the snapshot of `path` in the index and rewrites the .xmf.
  void index_snapshot(const std::string& path, XdmfEntry entry);

  std::string directory_;
  std::string name_;
  GridMeta grid_;
  std::string config_yaml_;
  bool writes_ = true;
  SnapshotFormat format_;
  std::vector<std::string> snapshots_;  // paths, in the order of index_
  std::vector<XdmfEntry> index_;
  std::vector<HistoryRow> history_;
  ProbeTable probes_;
  std::function<void(double)> time_sink_;
  std::shared_ptr<SnapshotAhead> ahead_;  // write_ahead's fields and their begun file
  std::vector<std::string> field_order_;  // write_ahead's order
};

}  // namespace fdsolve::output
