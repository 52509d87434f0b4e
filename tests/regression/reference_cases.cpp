// Implements reference_cases.hpp.
#include "reference_cases.hpp"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "case_reader.hpp"

namespace fdsolve::testing {
namespace fs = std::filesystem;

namespace {

fs::path regression_root() { return fs::path(FDSOLVE_SOURCE_DIR) / "tests" / "regression"; }

std::vector<std::string> selected_names() {
  std::vector<std::string> names;
  const char* env = std::getenv("FDSOLVE_REGRESSION_CASES");
  if (!env) return names;
  std::stringstream list(env);
  for (std::string name; std::getline(list, name, ',');)
    if (!name.empty()) names.push_back(name);
  return names;
}

std::string quoted(const fs::path& p) { return "'" + p.string() + "'"; }

}  // namespace

std::vector<RegressionCase> regression_cases() {
  std::vector<std::string> names = selected_names();
  if (names.empty()) {
    for (const auto& entry : fs::directory_iterator(regression_root()))
      if (entry.is_directory() && fs::exists(entry.path() / "case.yaml"))
        names.push_back(entry.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  std::vector<RegressionCase> cases;
  for (const std::string& name : names) {
    RegressionCase c;
    c.name = name;
    c.directory = regression_root() / name;
    if (!fs::exists(c.case_file()))
      throw std::runtime_error("no regression case " + c.case_file().string());
    c.config = read_case_file(c.case_file().string());
    cases.push_back(std::move(c));
  }
  return cases;
}

Tolerance tolerance_of(const RegressionCase& c) {
  const fs::path path = c.directory / "tolerance";
  std::ifstream in(path);
  if (!in) throw std::runtime_error("missing " + path.string());
  const std::string wanted = c.is_float() ? "float" : "double";
  for (std::string line; std::getline(in, line);) {
    line = line.substr(0, line.find('#'));
    std::istringstream fields(line);
    std::string precision;
    Tolerance t;
    if (fields >> precision >> t.rtol >> t.atol && precision == wanted) return t;
  }
  throw std::runtime_error(path.string() + " has no line '" + wanted + " <rtol> <atol>'");
}

CaseRun run_case(const RegressionCase& c, const std::string& backend, const fs::path& out,
                 const std::string& extra) {
  CaseRun run;
  run.cli = run_fdsolve("run " + quoted(c.case_file()) + " --backend " + backend + " --output " +
                        quoted(out) + " --quiet " + extra);
  std::vector<fs::path> snapshots;
  if (fs::exists(out))
    for (const auto& e : fs::directory_iterator(out))
      if (e.path().extension() == ".h5" && e.path().filename() != "checkpoint.h5")
        snapshots.push_back(e.path());
  std::sort(snapshots.begin(), snapshots.end());  // zero-padded iteration numbers
  if (!snapshots.empty()) run.snapshot = snapshots.back();
  return run;
}

CliResult compare_files(const fs::path& a, const fs::path& b, const Tolerance& tolerance) {
  char numbers[96];
  std::snprintf(numbers, sizeof numbers, " --rtol %.17g --atol %.17g", tolerance.rtol,
                tolerance.atol);
  return run_fdsolve("compare " + quoted(a) + " " + quoted(b) + numbers);
}

std::vector<HistoryRow> read_history(const fs::path& directory) {
  std::ifstream in(directory / "history.csv");
  std::string line;
  std::getline(in, line);  // header: iteration,time,norm_l2,norm_linf,...
  std::vector<HistoryRow> rows;
  while (std::getline(in, line)) {
    std::stringstream fields(line);
    std::string iteration, time, l2, linf;
    std::getline(fields, iteration, ',');
    std::getline(fields, time, ',');
    std::getline(fields, l2, ',');
    std::getline(fields, linf, ',');
    rows.push_back({std::stoll(iteration), std::stod(l2), std::stod(linf)});
  }
  return rows;
}

}  // namespace fdsolve::testing
