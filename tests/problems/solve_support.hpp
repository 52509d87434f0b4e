// Running a case from YAML text on the backend under test, for the problem-setup tests that
// the unit executable runs on the CPU and the GPU executable runs on CUDA.
#pragma once

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <random>
#include <string>

#include "case_reader.hpp"
#include "loop/jacobi.hpp"
#include "problem/problem_setup.hpp"
#include "snapshot.hpp"
#include "solve.hpp"

#ifndef FDSOLVE_TEST_CUDA
#define FDSOLVE_TEST_CUDA 0
#endif

/// A test case named for the backend it runs on ("cpu: ..." or "gpu: ..."). The problem tests
/// form the doctest suite "problems" (TEST_SUITE_BEGIN in each file), so that the slow
/// compute-sanitizer racecheck can leave these solver-level runs out: the kernels they use are
/// race-checked by the parity tests.
#if FDSOLVE_TEST_CUDA
#define PROBLEM_TEST(name) TEST_CASE("gpu: " name)
#else
#define PROBLEM_TEST(name) TEST_CASE("cpu: " name)
#endif

namespace fdsolve::test {

/// "cpu" or "cuda": the backend these tests exercise, also prefixed to their names.
inline const char* backend_under_test() { return FDSOLVE_TEST_CUDA ? "cuda" : "cpu"; }

template <typename T>
std::unique_ptr<Backend<T>> backend_for_test() {
  return FDSOLVE_TEST_CUDA ? make_cuda_backend<T>(0) : make_cpu_backend<T>();
}

struct TempDir {
  std::filesystem::path path;
  TempDir() {
    std::random_device rd;
    path = std::filesystem::temp_directory_path() /
           ("fdsolve-problem-" + std::to_string(rd()) + std::to_string(rd()));
  }
  ~TempDir() { std::filesystem::remove_all(path); }
};

struct Solved {
  SolveResult result;
  output::SnapshotData final;
  std::vector<output::HistoryRow> history;
  const std::vector<double>& u() const { return final.fields.at(0); }

  /// Calls f(i, j, k, x, y, z, u) for every node of the final snapshot in storage order (z = 0
  /// in 2D).
  template <typename F>
  void for_each_node(F&& f) const {
    const auto& g = final.info.grid;
    std::size_t n = 0;
    for (std::int64_t k = 0; k < g.points[2]; ++k)
      for (std::int64_t j = 0; j < g.points[1]; ++j)
        for (std::int64_t i = 0; i < g.points[0]; ++i, ++n)
          f(i, j, k, g.origin[0] + i * g.spacing[0], g.origin[1] + j * g.spacing[1],
            g.dims == 3 ? g.origin[2] + k * g.spacing[2] : 0.0, u()[n]);
  }
};

/// Parses `yaml` (output into a temporary directory) and solves it on the backend under test
/// with the Jacobi loop (`by_method`: with the method the case resolves to, as `fdsolve run`).
template <typename T = double>
Solved solve_text(const std::string& yaml, SolveOptions options = {}, bool by_method = false) {
  TempDir dir;
  const Case c =
      parse_case(yaml + "\noutput: {directory: '" + dir.path.string() + "'}\n", "t.yaml");
  auto backend = backend_for_test<T>();
  output::RunOutput out(c.output.directory, c.name, grid_meta(c), to_yaml(c));
  Solved s;
  s.result = by_method ? solve_case<T>(c, *backend, out, options)
                       : solve_jacobi<T>(c, *backend, out, options);
  s.final = output::read_snapshot(out.snapshots().back());
  s.history = out.history();
  return s;
}

/// Max |u - exact(x, y, z)| over every node of the final snapshot's first field.
template <typename Exact>
double max_error(const Solved& s, Exact exact) {
  const auto& g = s.final.info.grid;
  double err = 0;
  for (std::int64_t k = 0; k < g.points[2]; ++k)
    for (std::int64_t j = 0; j < g.points[1]; ++j)
      for (std::int64_t i = 0; i < g.points[0]; ++i) {
        const double x = g.origin[0] + i * g.spacing[0], y = g.origin[1] + j * g.spacing[1],
                     z = g.dims == 3 ? g.origin[2] + k * g.spacing[2] : 0.0;
        const double v = s.u()[static_cast<std::size_t>((k * g.points[1] + j) * g.points[0] + i)];
        err = std::max(err, std::fabs(v - exact(x, y, z)));
      }
  return err;
}

}  // namespace fdsolve::test
