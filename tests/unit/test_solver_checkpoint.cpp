// Checkpoints: what the case hash covers, the round trip of the loop state, refusals, and the
// rule that a state with non-finite values never replaces a good checkpoint.
#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <random>
#include <sstream>

#include "case_reader.hpp"
#include "loop/checkpoint.hpp"
#include "loop/field_io.hpp"
#include "problem/problem_setup.hpp"

using namespace fdsolve;
namespace fs = std::filesystem;

namespace {

struct Dir {
  fs::path path;
  Dir() {
    std::random_device rd;
    path = fs::temp_directory_path() / ("fdsolve-ckpt-" + std::to_string(rd()));
  }
  ~Dir() { fs::remove_all(path); }
};

Case make_case(const std::string& extra, const fs::path& out) {
  return parse_case("grid: {points: [9, 7]}\n" + extra + "output: {directory: '" + out.string() +
                        "'}\n",
                    "c.yaml");
}

std::string file_bytes(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

TEST_CASE("checkpoint: the case hash covers the solution, not when to stop or where to write") {
  Dir d;
  const std::string base = case_hash(make_case("", d.path));
  CHECK(base.size() == 16);
  CHECK(case_hash(make_case("solve: {max_iterations: 5, tolerance: 1e-3}\n", d.path)) == base);
  CHECK(case_hash(make_case("checkpoint: {every: 3}\nbackend: cpu\n", d.path)) == base);
  CHECK(case_hash(make_case("", d.path / "elsewhere")) == base);
  CHECK(case_hash(make_case("precision: float\n", d.path)) != base);
  CHECK(case_hash(make_case("initial: 1\n", d.path)) != base);
  CHECK(case_hash(make_case("boundary: {x_max: {value: 2}}\n", d.path)) != base);
  CHECK(case_hash(make_case("problem: {equation: poisson, source: x}\n", d.path)) != base);
}

TEST_CASE("checkpoint: state round trip, refusal of another case, non-finite guard") {
  Dir d;
  const Case c = make_case("checkpoint: {every: 10}\n", d.path);
  auto cpu = make_cpu_backend<double>();
  const Layout L = field_layout(c, sizeof(double));
  output::RunOutput out(c.output.directory, c.name, grid_meta(c), to_yaml(c));
  output::HistoryRow row;
  row.iteration = 10;
  row.time = 10.0;
  row.norm_l2 = 0.5;
  row.mean = 0.125;
  out.add_history(row);
  FieldWriter<double> writer(c, *cpu, L, out);

  std::vector<double> host(static_cast<std::size_t>(L.size), 0.0);
  for (index_t j = 0; j < 7; ++j)
    for (index_t i = 0; i < 9; ++i) host[L.at(i, j)] = 1.0 / (1 + i + 10 * j);
  Buffer<double> field = cpu->allocate(L.size);
  cpu->upload(field, host.data(), L.size);
  const LoopState state{10, 10.0, 0.1 / 3, 1.5, "cpu", "omp"};
  REQUIRE(writer.checkpoint(field, state));
  writer.finish();  // the background writer has it on disk

  const Checkpoint k = read_checkpoint(c);
  CHECK(k.state.iteration == 10);
  CHECK(k.state.first_norm == 0.1 / 3);  // exact, not rounded by the text format
  CHECK(k.state.backend == "cpu");
  CHECK(k.u.size() == 63);
  CHECK(k.u[2 * 9 + 3] == 1.0 / (1 + 3 + 20));
  REQUIRE(k.history.size() == 1);
  CHECK(k.history[0].mean == 0.125);

  // One rank's nodes only (x 2..6, y 3..6 of the 9 x 7 grid), x fastest, as the values
  // written; a box past the grid is refused.
  Subdomain part = Subdomain::whole(c);
  part.offset = {2, 3, 0};
  part.n = {5, 4, 1};
  const Checkpoint mine = read_checkpoint(c, part);
  REQUIRE(mine.u.size() == 20);
  for (index_t j = 0; j < 4; ++j)
    for (index_t i = 0; i < 5; ++i)
      CHECK(mine.u[static_cast<std::size_t>(j * 5 + i)] == 1.0 / (1 + (i + 2) + 10 * (j + 3)));
  CHECK(mine.state.iteration == 10);
  part.n = {8, 4, 1};
  CHECK_THROWS_WITH(read_checkpoint(c, part), doctest::Contains("outside"));

  // Another case in the same directory is refused.
  const Case other = make_case("checkpoint: {every: 10}\ninitial: 3\n", d.path);
  CHECK_THROWS_WITH_AS(read_checkpoint(other), doctest::Contains("different case"), InputError);

  // A NaN anywhere: nothing is written, the good checkpoint stays byte for byte.
  const fs::path path = checkpoint_path(c);
  const std::string before = file_bytes(path);
  host[L.at(4, 3)] = std::numeric_limits<double>::quiet_NaN();
  cpu->upload(field, host.data(), L.size);
  CHECK_FALSE(writer.checkpoint(field, LoopState{20, 20.0, 0.1, 2.0, "cpu", "omp"}));
  CHECK(file_bytes(path) == before);
  host[L.at(4, 3)] = std::numeric_limits<double>::infinity();
  cpu->upload(field, host.data(), L.size);
  CHECK_FALSE(writer.checkpoint(field, LoopState{30, 30.0, 0.1, 2.0, "cpu", "omp"}));
  CHECK(read_checkpoint(c).state.iteration == 10);
}
