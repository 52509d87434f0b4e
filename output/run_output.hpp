// Everything a run writes into its output directory (SPEC.md "Output"): snapshots, the XDMF
// index ParaView opens, history.csv and summary.json. Every file goes through a temporary name.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "output_error.hpp"
#include "snapshot.hpp"
#include "xdmf.hpp"

namespace fdsolve::output {

/// One row of history.csv, written at every norm check.
struct HistoryRow {
  std::int64_t iteration = 0;
  double time = 0;
  double norm_l2 = 0;
  double norm_linf = 0;
  double min = 0;
  double max = 0;
  double mean = 0;
  double wall_seconds = 0;
};

/// The contents of summary.json.
struct Summary {
  std::string name;
  std::string case_file;
  std::string backend;    // cpu | cuda
  std::string device;     // hardware description
  std::string precision;  // float | double
  std::string kernel;     // kernel variant used
  GridMeta grid;
  std::int64_t iterations = 0;
  bool converged = false;
  std::string status;  // converged | max_iterations | diverged
  double norm_l2 = 0;
  double norm_linf = 0;
  double first_norm = 0;  // norm of iteration 1 (the reference of the relative tolerance)
  double wall_seconds = 0;
  double cells_per_second = 0;  // updated nodes per second over the solve
  std::string config_yaml;
};

class RunOutput {
 public:
  /// Creates `directory` (and parents). Files are named after `name`.
  RunOutput(std::string directory, std::string name, GridMeta grid, std::string config_yaml);

  /// Writes <name>_<iteration:08d>.h5, then rewrites <name>.xmf to list every snapshot so far.
  /// Writing the same iteration again replaces that snapshot (and its .xmf entry).
  template <typename T>
  void snapshot(std::int64_t iteration, double time, const std::vector<FieldRef<T>>& fields);

  /// Appends a row in memory; flush_history() rewrites history.csv with all rows.
  void add_history(const HistoryRow& row);
  void flush_history() const;

  void write_summary(const Summary& summary) const;

  const std::string& directory() const { return directory_; }
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

  std::string directory_;
  std::string name_;
  GridMeta grid_;
  std::string config_yaml_;
  std::vector<std::string> snapshots_;  // paths, in the order of index_
  std::vector<XdmfEntry> index_;
  std::vector<HistoryRow> history_;
};

}  // namespace fdsolve::output
