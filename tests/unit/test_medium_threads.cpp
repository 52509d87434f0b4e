// resolve_medium's passes over the grid run on all threads. What they give must be what one walk
// of the nodes in C order gives: the coefficient, the held marks (the first region that holds a
// node wins) and values, the count, and the error naming the first bad node of the first region
// that has one. The reference is that walk, written out here from the rules of problem.fixed,
// over values each node evaluates by itself (muparser) or the data the test wrote.
#include <doctest/doctest.h>
#include <fmt/format.h>
#include <omp.h>

#include <cmath>
#include <cstdint>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

#include "case_reader.hpp"
#include "expression.hpp"
#include "operator/medium.hpp"
#include "problem/problem_setup.hpp"
#include "test_output_support.hpp"

using namespace fdsolve;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

/// OpenMP's thread count set for a scope (the passes must not depend on it).
class Threads {
 public:
  explicit Threads(int n) : before_(omp_get_max_threads()) { omp_set_num_threads(n); }
  ~Threads() { omp_set_num_threads(before_); }
  Threads(const Threads&) = delete;
  Threads& operator=(const Threads&) = delete;

 private:
  int before_;
};

struct Grid {
  index_t nx, ny, nz;
  index_t nodes() const { return nx * ny * nz; }
  index_t at(index_t i, index_t j, index_t k) const { return (k * ny + j) * nx + i; }
};

/// A formula at every node, each node evaluated by itself in C order.
std::vector<double> formula_at_nodes(const Case& c, const Grid& g, const std::string& text) {
  Expression e(text);
  std::vector<double> v(static_cast<std::size_t>(g.nodes()));
  for (index_t k = 0; k < g.nz; ++k)
    for (index_t j = 0; j < g.ny; ++j)
      for (index_t i = 0; i < g.nx; ++i)
        v[static_cast<std::size_t>(g.at(i, j, k))] =
            e(node_coordinate(c, 0, i), node_coordinate(c, 1, j), node_coordinate(c, 2, k), 0.0);
  return v;
}

std::string node_text(const Case& c, const Grid& g, index_t q) {
  const index_t i = q % g.nx, j = q / g.nx % g.ny, k = q / (g.nx * g.ny);
  return fmt::format("at node (i, j, k) = ({}, {}, {}), (x, y, z) = ({}, {}, {})", i, j, k,
                     node_coordinate(c, 0, i), node_coordinate(c, 1, j), node_coordinate(c, 2, k));
}

/// What the serial walk gives: the held marks and values, their count, and the error (its
/// message, and the node it names) or none.
struct Walk {
  std::vector<std::uint8_t> held;
  std::vector<double> held_value;
  index_t held_count = 0;
  std::string error;
  index_t bad_node = -1;
};

/// problem.fixed's rules, one node after another in C order and region after region: a node
/// where `where` is non-zero is held by the first region that marks it, unless it lies on a
/// Dirichlet face (every face of these cases is one); a where that is not finite (on a node no
/// earlier region holds) or a value that is not finite (on a node the region would hold) ends
/// the walk there.
Walk serial_walk(const Case& c, const Grid& g, const std::vector<std::vector<double>>& where,
                 const std::vector<std::vector<double>>& value) {
  Walk w;
  w.held.assign(static_cast<std::size_t>(g.nodes()), 0);
  w.held_value.assign(static_cast<std::size_t>(g.nodes()), 0.0);
  for (std::size_t r = 0; r < where.size(); ++r) {
    const std::string key = fmt::format("problem.fixed[{}]", r);
    for (index_t k = 0; k < g.nz; ++k)
      for (index_t j = 0; j < g.ny; ++j)
        for (index_t i = 0; i < g.nx; ++i) {
          const auto q = static_cast<std::size_t>(g.at(i, j, k));
          if (where[r][q] == 0.0 || w.held[q]) continue;
          const auto stop = [&](const std::string& part, double v) {
            w.error = c.where(key + "." + part) +
                      fmt::format("{}.{}: is {} {}", key, part,
                                  std::isnan(v) ? "nan" : fmt::format("{}", v),
                                  node_text(c, g, static_cast<index_t>(q)));
            w.bad_node = static_cast<index_t>(q);
            return w;
          };
          if (!std::isfinite(where[r][q])) return stop("where", where[r][q]);
          const bool face =
              i == 0 || j == 0 || k == 0 || i == g.nx - 1 || j == g.ny - 1 || k == g.nz - 1;
          if (face) continue;
          if (!std::isfinite(value[r][q])) return stop("value", value[r][q]);
          w.held[q] = static_cast<std::uint8_t>(r + 1);
          w.held_value[q] = value[r][q];
          ++w.held_count;
        }
  }
  return w;
}

/// resolve_medium's error for `c`, or "(no error)".
std::string medium_error(const Case& c) {
  try {
    (void)op::resolve_medium(c);
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

/// Writes `values` (C order over grid g) as dataset /v of an HDF5 file.
void write_values(const std::string& path, const Grid& g, const std::vector<double>& values) {
  output::SnapshotInfo info;
  info.grid = output::test::make_grid(3, g.nx, g.ny, g.nz);
  output::write_snapshot<double>(path, info, {{"v", values.data()}});
}

/// The held value of every node of `m` (0 on free nodes), whichever way it keeps them.
std::vector<double> held_values_of(const op::Medium& m) {
  std::vector<double> v(m.held.size());
  for (std::size_t q = 0; q < v.size(); ++q)
    v[q] = m.held_value.empty() ? m.held_number[m.held[q]] : m.held_value[q];
  return v;
}

}  // namespace

TEST_CASE("medium on all threads: overlapping held regions and a coefficient, as a serial walk") {
  // 23 x 19 x 17 nodes (7429: each formula is evaluated on all threads). Region 0 is a ball
  // with a formula value (or a number); region 1, with a number, overlaps it and reaches the
  // x_min face. With numbers only the values are kept per region, not per node.
  const Grid g{23, 19, 17};
  const std::string where0 = "(x-0.4)^2 + (y-0.5)^2 + (z-0.5)^2 < 0.09";
  const std::string where1 = "x < 0.45 && z > 0.3";
  for (const std::string value0 : {"2 + sin(7*x) * y", "-1.25"}) {
    CAPTURE(value0);
    const bool numbers = value0 == "-1.25";
    const Case c = parse_case(
        "grid: {points: [23, 19, 17], extent: [1, 1, 1]}\n"
        "problem:\n"
        "  coefficient: \"1 + x*y + z^2\"\n"
        "  fixed:\n"
        "    - {where: \"" +
            where0 + "\", value: " + (numbers ? value0 : "\"" + value0 + "\"") +
            "}\n"
            "    - {where: \"" +
            where1 + "\", value: 3}\n",
        "case.yaml");
    const std::vector<double> beta = formula_at_nodes(c, g, "1 + x*y + z^2");
    const Walk walk =
        serial_walk(c, g, {formula_at_nodes(c, g, where0), formula_at_nodes(c, g, where1)},
                    {formula_at_nodes(c, g, value0),
                     std::vector<double>(static_cast<std::size_t>(g.nodes()), 3)});
    REQUIRE(walk.error.empty());
    // Both regions hold nodes, and region 1 holds fewer than it marks (the overlap, the face).
    index_t by_region[2] = {0, 0};
    for (std::uint8_t h : walk.held)
      if (h) ++by_region[h - 1];
    REQUIRE(by_region[0] > 0);
    REQUIRE(by_region[1] > 0);

    for (int threads : {1, 2, 3, 7}) {
      CAPTURE(threads);
      const Threads scope(threads);
      const op::Medium m = op::resolve_medium(c);
      CHECK(m.held_count == walk.held_count);
      REQUIRE(m.held.size() == walk.held.size());
      CHECK(m.held_value.empty() == numbers);
      CHECK(std::equal(m.held.begin(), m.held.end(), walk.held.begin()));
      // Bit for bit: the values are copied, never recomputed.
      CHECK(held_values_of(m) == walk.held_value);
      REQUIRE(m.beta.size() == beta.size());
      CHECK(std::equal(m.beta.begin(), m.beta.end(), beta.begin()));
      CHECK(m.beta_min == *std::min_element(beta.begin(), beta.end()));
      CHECK(m.beta_max == *std::max_element(beta.begin(), beta.end()));
    }
  }
}

TEST_CASE("medium on all threads: the first bad node of the first region, as a serial walk") {
  // 21 x 17 x 15 nodes, h = (0.05, 0.0625, 1/14), Dirichlet faces. Region 0: the slab x < 0.6
  // with values from a file; region 1: a mask file with the value 4.
  const Grid g{21, 17, 15};
  const auto q = [&](index_t i, index_t j, index_t k) {
    return static_cast<std::size_t>(g.at(i, j, k));
  };
  output::test::TempDir dir;
  std::vector<double> value0(static_cast<std::size_t>(g.nodes()), 0.0);
  for (std::size_t n = 0; n < value0.size(); ++n) value0[n] = 1.0 + 0.001 * static_cast<double>(n);
  std::vector<double> where1(static_cast<std::size_t>(g.nodes()), 0.0);
  for (index_t k = 2; k < 12; ++k)
    for (index_t j = 0; j < 12; ++j)
      for (index_t i = 2; i < 18; ++i) where1[q(i, j, k)] = 1.0;
  // Not errors: a NaN value on the x_min face (the face holds the node), an Inf where on a
  // node region 0 holds.
  value0[q(0, 5, 3)] = kNaN;
  where1[q(4, 3, 2)] = kInf;
  // Errors: region 0's first (C order) is (3, 10, 5), before (8, 2, 7); region 1's first is
  // (15, 0, 1) on the y_min face (where is checked before the face), before (16, 8, 6), and
  // before region 0's in C order: region 0's still wins.
  const std::vector<double> value0_clean = value0;
  value0[q(8, 2, 7)] = kNaN;
  value0[q(3, 10, 5)] = -kInf;
  where1[q(16, 8, 6)] = kInf;
  where1[q(15, 0, 1)] = -kInf;
  const std::string yaml =
      "grid: {points: [21, 17, 15], extent: [1, 1, 1]}\n"
      "problem:\n"
      "  fixed:\n"
      "    - {where: \"x < 0.6\", value: {file: value0.h5, dataset: /v}}\n"
      "    - {where: {file: where1.h5, dataset: /v}, value: 4}\n";
  std::ofstream(dir.path() / "case.yaml") << yaml;
  // The files must exist when the case is read (their shape is checked then).
  write_values(dir / "value0.h5", g, value0_clean);
  write_values(dir / "where1.h5", g, where1);
  const Case c = read_case_file(dir / "case.yaml");
  const std::vector<double> slab = formula_at_nodes(c, g, "x < 0.6");
  const std::vector<double> four(static_cast<std::size_t>(g.nodes()), 4.0);

  SUBCASE("an error in region 0 beats any in region 1") {
    write_values(dir / "value0.h5", g, value0);
    const Walk walk = serial_walk(c, g, {slab, where1}, {value0, four});
    REQUIRE(walk.bad_node == g.at(3, 10, 5));
    CHECK(walk.error.find("problem.fixed[0].value: is -inf at node (i, j, k) = (3, 10, 5)") !=
          std::string::npos);
    for (int threads : {1, 2, 3, 5}) {
      CAPTURE(threads);
      const Threads scope(threads);
      CHECK(medium_error(c) == walk.error);
    }
  }
  SUBCASE("region 0 clean: region 1's first bad where, a node on a face") {
    write_values(dir / "value0.h5", g, value0_clean);
    const Walk walk = serial_walk(c, g, {slab, where1}, {value0_clean, four});
    REQUIRE(walk.bad_node == g.at(15, 0, 1));
    CHECK(walk.error.find("problem.fixed[1].where: is -inf at node (i, j, k) = (15, 0, 1)") !=
          std::string::npos);
    for (int threads : {1, 2, 3, 5}) {
      CAPTURE(threads);
      const Threads scope(threads);
      CHECK(medium_error(c) == walk.error);
    }
  }
  SUBCASE("no bad node: the marks and values of the walk") {
    std::vector<double> where_clean = where1;
    where_clean[q(16, 8, 6)] = 1.0;
    where_clean[q(15, 0, 1)] = 1.0;
    write_values(dir / "value0.h5", g, value0_clean);
    write_values(dir / "where1.h5", g, where_clean);
    const Walk walk = serial_walk(c, g, {slab, where_clean}, {value0_clean, four});
    REQUIRE(walk.error.empty());
    for (int threads : {1, 2, 3, 5}) {
      CAPTURE(threads);
      const Threads scope(threads);
      const op::Medium m = op::resolve_medium(c);
      CHECK(m.held_count == walk.held_count);
      CHECK(std::equal(m.held.begin(), m.held.end(), walk.held.begin(), walk.held.end()));
      CHECK(held_values_of(m) == walk.held_value);
    }
  }
}

TEST_CASE("medium on all threads: a formula value that is not finite names its first node") {
  // 1 / (x - 0.5) is infinite on the plane x = 0.5 (i = 10, h = 0.05): the first node in C order
  // is (10, 0, 0), wherever the region lies.
  const Grid g{21, 17, 15};
  const Case c = parse_case(
      "grid: {points: [21, 17, 15], extent: [1, 1, 1]}\n"
      "problem:\n"
      "  fixed:\n"
      "    - {where: \"x > 0.7\", value: 1}\n"
      "    - {where: \"x < 0.6\", value: \"1 / (x - 0.5)\"}\n",
      "case.yaml");
  const std::vector<double> v = formula_at_nodes(c, g, "1 / (x - 0.5)");
  index_t first = 0;
  while (std::isfinite(v[static_cast<std::size_t>(first)])) ++first;
  REQUIRE(first == g.at(10, 0, 0));
  const std::string expected = c.where("problem.fixed[1].value") +
                               "problem.fixed[1].value: evaluates to inf " +
                               node_text(c, g, first) + "; it must be finite";
  for (int threads : {1, 2, 3}) {
    CAPTURE(threads);
    const Threads scope(threads);
    CHECK(medium_error(c) == expected);
  }
}
