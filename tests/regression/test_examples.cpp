// Every example run through the CLI on the CPU, each checked against an answer computed
// independently here: the maximum principle and symmetry, an analytic solution, or the
// fixed-point residual of the stencil recomputed from its weights.
#include <doctest/doctest.h>

#include <cmath>

#include "cli_runner.hpp"

using namespace fdsolve::testing;
namespace fs = std::filesystem;

namespace {

/// Max over interior nodes of |W u - u| for the study's custom weights (fixed-point residual).
double residual_2d(const std::vector<double>& u, long nx, long ny, double c, double wx, double wy) {
  double r = 0;
  for (long j = 1; j < ny - 1; ++j)
    for (long i = 1; i < nx - 1; ++i) {
      const long n = j * nx + i;
      const double v = c * u[n] + wx * (u[n - 1] + u[n + 1]) + wy * (u[n - nx] + u[n + nx]);
      r = std::max(r, std::fabs(v - u[n]));
    }
  return r;
}

double residual_27(const std::vector<double>& u, long n, double c, double f, double e, double k) {
  double r = 0;
  auto at = [&](long i, long j, long l) { return u[(l * n + j) * n + i]; };
  for (long l = 1; l < n - 1; ++l)
    for (long j = 1; j < n - 1; ++j)
      for (long i = 1; i < n - 1; ++i) {
        double faces = 0, edges = 0, corners = 0;
        for (int dz = -1; dz <= 1; ++dz)
          for (int dy = -1; dy <= 1; ++dy)
            for (int dx = -1; dx <= 1; ++dx) {
              const int m = std::abs(dx) + std::abs(dy) + std::abs(dz);
              const double v = at(i + dx, j + dy, l + dz);
              if (m == 1) faces += v;
              if (m == 2) edges += v;
              if (m == 3) corners += v;
            }
        const double w = c * at(i, j, l) + f * faces + e * edges + k * corners;
        r = std::max(r, std::fabs(w - at(i, j, l)));
      }
  return r;
}

/// Jacobi's update norm decays like lambda^k, lambda the stencil's eigenvalue for the smoothest
/// mode: a reduction by `tolerance` takes about ln(tolerance) / ln(lambda) iterations.
void check_iterations(std::int64_t iterations, double lambda, double tolerance) {
  const double estimate = std::log(tolerance) / std::log(lambda);
  CHECK(iterations > 0.5 * estimate);
  CHECK(iterations < 2.0 * estimate);
}

/// Runs an example on the CPU into `out` and requires that it converged.
void run_converged(const std::string& name, const TempDir& out) {
  const auto r =
      run_fdsolve("run " + example(name) + " --backend cpu --output " + out.path.string());
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
}

}  // namespace

TEST_CASE("regression: plate converges within the Jacobi iteration estimate, 0 <= u <= 1") {
  TempDir out;
  run_converged("plate.yaml", out);
  for (const char* f : {"plate.xmf", "history.csv", "summary.json", "plate_00005000.h5"})
    CHECK(fs::exists(out.path / f));
  // 5-point Jacobi on 129x129 nodes: lambda = cos(pi/128).
  const auto s = last_snapshot(out.path);
  check_iterations(s.info.iteration, std::cos(M_PI / 128), 1e-6);
  const auto& u = field(s, "u");
  const long n = 129;
  for (long j = 0; j < n; ++j)
    for (long i = 0; i < n; ++i) {
      const double v = u[j * n + i];
      CHECK_MESSAGE((v >= 0 && v <= 1), "node ", i, ",", j, " = ", v);
      if (i < n / 2 && j < n - 1) CHECK(v == doctest::Approx(u[j * n + (n - 1 - i)]));
    }
  // The xmf lists the final snapshot and the summary says converged.
  CHECK(read_text(out.path / "plate.xmf").find("plate_000") != std::string::npos);
  CHECK(read_text(out.path / "summary.json").find("\"converged\": true") != std::string::npos);
}

TEST_CASE("regression: poisson_box matches the analytic solution") {
  TempDir out;
  run_converged("poisson_box.yaml", out);
  const auto s = last_snapshot(out.path);
  // 27-point weights (14 faces, 3 edges, 1 corner)/128 on the mode with cos(pi/32) per axis.
  const double c = std::cos(M_PI / 32);
  check_iterations(s.info.iteration, (14 * 6 * c + 3 * 12 * c * c + 8 * c * c * c) / 128, 1e-7);
  const auto& u = field(s, "u");
  const auto& f = field(s, "source");
  const long n = 33;
  const double h = 1.0 / 32;
  double err = 0, src_err = 0;
  for (long k = 0; k < n; ++k)
    for (long j = 0; j < n; ++j)
      for (long i = 0; i < n; ++i) {
        const double exact =
            std::sin(M_PI * i * h) * std::sin(M_PI * j * h) * std::sin(M_PI * k * h);
        err = std::max(err, std::fabs(u[(k * n + j) * n + i] - exact));
        src_err = std::max(src_err, std::fabs(f[(k * n + j) * n + i] - 3 * M_PI * M_PI * exact));
      }
  // Second-order scheme at h = 1/32: the error is O(h^2) ~ 1e-3 times the solution's scale.
  CHECK(err < 3e-3);
  CHECK(src_err < 1e-9);
}

TEST_CASE("regression: the 5-point study stencil reaches its fixed point") {
  TempDir out;
  run_converged("study_5pt.yaml", out);
  const auto s = last_snapshot(out.path);
  check_iterations(s.info.iteration, 0.2 + 0.4 * std::cos(M_PI / 96) + 0.4 * std::cos(M_PI / 64),
                   1e-5);
  CHECK(s.single_precision);
  const auto& u = field(s, "u");
  CHECK(residual_2d(u, 97, 65, 0.2, 0.2, 0.2) < 1e-4);
  // The left edge holds sin(pi*y).
  CHECK(u[32 * 97] == doctest::Approx(1.0).epsilon(1e-6));
}

TEST_CASE("regression: the 27-point study stencil reaches its fixed point") {
  TempDir out;
  run_converged("study_27pt.yaml", out);
  const auto s = last_snapshot(out.path);
  const double c = std::cos(M_PI / 32);
  check_iterations(s.info.iteration,
                   0.4 + 0.06 * 6 * c + 0.015 * 12 * c * c + 0.0075 * 8 * c * c * c, 1e-5);
  CHECK(residual_27(field(s, "u"), 33, 0.4, 0.06, 0.015, 0.0075) < 1e-4);
}
