// Helpers of the CLI-level tests: run the binary, find and read its output.
#include "cli_runner.hpp"

#include <doctest/doctest.h>

#include <sys/wait.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <array>
#include <cstdio>
#include <fstream>
#include <random>
#include <sstream>
#include <stdexcept>

#include "history_csv.hpp"

namespace fdsolve::testing {
namespace fs = std::filesystem;

TempDir::TempDir() {
  std::random_device rd;
  path = fs::temp_directory_path() /
         ("fdsolve-cli-" + std::to_string(rd()) + "-" + std::to_string(rd()));
}

TempDir::~TempDir() {
  std::error_code ec;
  fs::remove_all(path, ec);
}

CliResult run_fdsolve(const std::string& args) {
  const std::string cmd = std::string(FDSOLVE_BINARY) + " " + args + " 2>&1";
  CliResult r;
  FILE* pipe = popen(cmd.c_str(), "r");
  if (!pipe) throw std::runtime_error("cannot run " + cmd);
  std::array<char, 4096> buf;
  while (std::fgets(buf.data(), buf.size(), pipe)) r.output += buf.data();
  const int status = pclose(pipe);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

std::string example(const std::string& name) {
  return std::string(FDSOLVE_SOURCE_DIR) + "/examples/" + name;
}

output::SnapshotData last_snapshot(const fs::path& directory) {
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(directory))
    if (e.path().extension() == ".h5" && e.path().filename() != "checkpoint.h5")
      files.push_back(e.path());
  if (files.empty()) throw std::runtime_error("no snapshot in " + directory.string());
  std::sort(files.begin(), files.end());  // names carry the zero-padded iteration
  return output::read_snapshot(files.back().string());
}

const std::vector<double>& field(const output::SnapshotData& s, const std::string& name) {
  const auto it = std::find(s.names.begin(), s.names.end(), name);
  if (it == s.names.end()) throw std::runtime_error("snapshot has no field " + name);
  return s.fields[static_cast<std::size_t>(it - s.names.begin())];
}

std::string read_text(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

double summary_number(const fs::path& dir, const std::string& key, const std::string& within) {
  const std::string text = read_text(dir / "summary.json");
  const std::size_t from = within.empty() ? 0 : text.find("\"" + within + "\"");
  const std::size_t at =
      from == std::string::npos ? from : text.find("\"" + key + "\": ", from);
  if (at == std::string::npos)
    throw std::runtime_error("summary.json of " + dir.string() + " has no " + key);
  return std::strtod(text.c_str() + at + key.size() + 4, nullptr);
}

void check_bit_identical(const output::SnapshotData& a, const output::SnapshotData& b) {
  CHECK(a.info.iteration == b.info.iteration);
  CHECK(a.info.time == b.info.time);
  REQUIRE(a.names == b.names);
  for (std::size_t f = 0; f < a.fields.size(); ++f) {
    REQUIRE(a.fields[f].size() == b.fields[f].size());
    CHECK(std::memcmp(a.fields[f].data(), b.fields[f].data(),
                      a.fields[f].size() * sizeof(double)) == 0);
  }
}

std::string history_without_wall(const fs::path& dir) {
  std::string text = read_text(dir / "history.csv"), out;
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t end = text.find('\n', start);
    const std::string line = text.substr(start, end - start);
    out += line.substr(0, line.rfind(',')) + "\n";
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return out;
}

namespace {

/// Runs fdsolve in the background, polls `condition` (a shell test) every 5 ms while it runs,
/// then sleeps `delay`, sends SIGTERM and waits. Returns the wait status.
int signal_when(const std::string& args, const fs::path& out, const fs::path& log,
                const std::string& condition, double delay) {
  const std::string cmd = std::string(FDSOLVE_BINARY) + " " + args + out.string() + " 2> " +
                          log.string() + " & pid=$!; while kill -0 $pid 2>/dev/null && ! " +
                          condition + "; do sleep 0.005; done; sleep " + std::to_string(delay) +
                          "; kill -TERM $pid; wait $pid";
  return std::system(cmd.c_str());
}

}  // namespace

int signal_after_checkpoint(const std::string& args, const fs::path& out, const fs::path& log,
                            double delay) {
  return signal_when(args, out, log, "[ -f " + (out / "checkpoint.h5").string() + " ]", delay);
}

int signal_after_log_line(const std::string& args, const fs::path& out, const fs::path& log,
                          const std::string& line, double delay) {
  return signal_when(args, out, log, "grep -qF '" + line + "' " + log.string() + " 2>/dev/null",
                     delay);
}

double iteration_seconds(const fs::path& dir, int from) {
  const std::vector<output::HistoryRow> rows =
      output::parse_history_csv(read_text(dir / "history.csv"));
  const auto at = [&](std::int64_t iteration) {
    const auto row = std::find_if(rows.begin(), rows.end(), [&](const output::HistoryRow& r) {
      return r.iteration == iteration;
    });
    if (row == rows.end())
      throw std::runtime_error("history.csv of " + dir.string() + " lacks row " +
                               std::to_string(iteration));
    return row->wall_seconds;
  };
  return at(from + 1) - at(from);
}

}  // namespace fdsolve::testing
