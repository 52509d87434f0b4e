// Helpers of the tests of continued runs (see extend_support.hpp).
#include "extend_support.hpp"

#include <doctest/doctest.h>

#include <cstdio>
#include <fstream>
#include <set>
#include <sstream>

#include "cli_runner.hpp"

namespace fdsolve::testing {
namespace fs = std::filesystem;

namespace {

bool is_snapshot(const fs::path& p) {
  return p.extension() == ".h5" && p.filename() != "checkpoint.h5";
}

std::set<std::string> snapshot_files(const fs::path& dir) {
  std::set<std::string> files;
  for (const auto& e : fs::directory_iterator(dir))
    if (is_snapshot(e.path())) files.insert(e.path().filename().string());
  return files;
}

std::string xmf_text(const fs::path& dir) {
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().extension() == ".xmf") return read_text(e.path());
  return {};
}

}  // namespace

output::SnapshotData read_checkpoint_file(const fs::path& dir) {
  return output::read_snapshot((dir / "checkpoint.h5").string());
}

fs::path write_case(const fs::path& dir, const std::string& name, const std::string& yaml) {
  fs::create_directories(dir);
  const fs::path file = dir / name;
  std::ofstream(file) << yaml;
  return file;
}

std::string snapshot_name(const std::string& name, std::int64_t iteration) {
  char number[32];
  std::snprintf(number, sizeof number, "%08lld", static_cast<long long>(iteration));
  return name + "_" + number + ".h5";
}

DirectoryState directory_state(const fs::path& dir) {
  DirectoryState state;
  for (const auto& e : fs::directory_iterator(dir))
    state[e.path().filename().string()] = read_text(e.path());
  return state;
}

std::string history_head(const fs::path& dir, int columns) {
  std::istringstream lines(read_text(dir / "history.csv"));
  std::string out;
  for (std::string line; std::getline(lines, line);) {
    std::istringstream cells(line);
    std::string cell;
    for (int n = 0; n < columns && std::getline(cells, cell, ','); ++n)
      out += (n ? "," : "") + cell;
    out += "\n";
  }
  return out;
}

void check_same_output(const fs::path& continued, const fs::path& whole, std::int64_t earlier_end,
                       int history_columns) {
  const std::set<std::string> mine = snapshot_files(continued), theirs = snapshot_files(whole);
  REQUIRE(!theirs.empty());
  for (const std::string& f : theirs) {
    INFO(f);
    REQUIRE(mine.count(f) == 1);
    check_bit_identical(output::read_snapshot((continued / f).string()),
                        output::read_snapshot((whole / f).string()));
  }
  for (const std::string& f : mine) {
    if (theirs.count(f)) continue;
    INFO("a snapshot only the continued run has: " << f);
    CHECK(f.ends_with(snapshot_name("", earlier_end)));
    fs::remove(continued / f);
  }
  CHECK(xmf_text(continued) == xmf_text(whole));
  if (history_columns == 0)
    CHECK(history_without_wall(continued) == history_without_wall(whole));
  else
    CHECK(history_head(continued, history_columns) == history_head(whole, history_columns));
  const auto compared =
      run_fdsolve("compare " + continued.string() + " " + whole.string() + " --rtol 0 --atol 0");
  INFO(compared.output);
  CHECK(compared.exit_code == 0);
}

}  // namespace fdsolve::testing
