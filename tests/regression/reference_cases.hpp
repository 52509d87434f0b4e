// The regression cases of tests/regression/<case>/ (case.yaml, reference.h5, tolerance): finding
// them, their tolerance by precision, running one through the CLI and comparing with `compare`.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "case.hpp"
#include "cli_runner.hpp"

namespace fdsolve::testing {

/// rtol and atol of `fdsolve compare` for one precision.
struct Tolerance {
  double rtol = 0;
  double atol = 0;
};

struct RegressionCase {
  std::string name;                 // the directory's name
  std::filesystem::path directory;  // tests/regression/<name>
  Case config;                      // case.yaml as read by the solver
  bool is_float() const { return config.precision == Precision::Float; }
  std::filesystem::path case_file() const { return directory / "case.yaml"; }
  std::filesystem::path reference() const { return directory / "reference.h5"; }
};

/// Every directory of tests/regression holding a case.yaml, by name; only those named in the
/// environment variable FDSOLVE_REGRESSION_CASES (comma-separated) when it is set. Throws when
/// a named case does not exist, so that a typo fails rather than tests nothing.
std::vector<RegressionCase> regression_cases();

/// The case's `tolerance` file: lines `<precision> <rtol> <atol>` ('#' starts a comment); the
/// line of the case's own precision. Throws when the file or that line is missing.
Tolerance tolerance_of(const RegressionCase& c);

/// A finished run of a case through the CLI.
struct CaseRun {
  CliResult cli;
  std::filesystem::path snapshot;  // the final snapshot (highest iteration)
};

/// `fdsolve run case.yaml --backend <backend> --output <out> --quiet <extra>`.
CaseRun run_case(const RegressionCase& c, const std::string& backend,
                 const std::filesystem::path& out, const std::string& extra = "");

/// `fdsolve compare A B --rtol R --atol A`: its exit code and output.
CliResult compare_files(const std::filesystem::path& a, const std::filesystem::path& b,
                        const Tolerance& tolerance);

/// One row of history.csv: the iteration and the two update norms.
struct HistoryRow {
  std::int64_t iteration = 0;
  double norm_l2 = 0;
  double norm_linf = 0;
};

/// The rows of an output directory's history.csv.
std::vector<HistoryRow> read_history(const std::filesystem::path& directory);

}  // namespace fdsolve::testing
