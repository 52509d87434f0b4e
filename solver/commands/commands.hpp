// The sub-commands of the fdsolve CLI, each returning its exit code (docs/commands.md). They
// throw InputError / BackendError / OutputError; main() reports those once.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace fdsolve {

struct RunOptions {
  std::string case_path;
  std::vector<std::string> overrides;  // --set KEY=VALUE
  std::string backend;                 // --backend, empty: the case's
  std::string output_directory;        // --output, empty: the case's
  bool resume = false;                 // --resume: continue from the checkpoint
  std::string resume_directory;        // --resume OUTDIR: the case from OUTDIR's checkpoint
  double time_limit = -1;              // --time-limit seconds (0: none), <0: solve.max_wall_time
  int threads = 0;                     // --threads: CPU threads, 0: automatic (ThreadPolicy)
  bool live_progress = false;
};

int run_command(const RunOptions& options);

/// Validates the case and prints the resolved case, the memory it needs, and for heat the
/// stability limit and dt, for Jacobi the estimated iterations, to `out`. Expressions are
/// checked at sample nodes on a large grid (the output says so); `full` evaluates every node.
int check_command(const std::string& case_path, const std::vector<std::string>& overrides,
                  std::ostream& out, bool full = false);

int compare_command(const std::string& a, const std::string& b, double rtol, double atol,
                    std::ostream& out);

struct TuneOptions {
  std::string backend;    // "cuda", "cpu", or empty: CUDA when a device is present
  int dims = 0;           // 2, 3, or 0: both
  std::string precision;  // "float", "double", or empty: both
  bool quick = false;     // the two smallest rungs only (a smoke test of the cache)
};

/// `fdsolve tune`: measures every variant over the size ladder and writes the per-device tune
/// cache (kernel_choice.hpp); prints the winners and the cache's path.
int tune_command(const TuneOptions& options, std::ostream& out);

/// `fdsolve --version`: version, build options, detected devices.
std::string version_text();

}  // namespace fdsolve
