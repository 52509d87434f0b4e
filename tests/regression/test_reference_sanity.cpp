// Each stored reference against an answer computed here without the solver: an exact solution
// (polynomials the stencil reproduces), the discrete amplification factor of a Fourier mode,
// an analytic or series solution within the discretization error, the fixed-point residual of
// the custom weights. So a wrong reference is not frozen in, and a regenerated one is checked.
// Also: every case has a check here, a tolerance and a line in tests/regression/README.md.
#include <doctest/doctest.h>

#include <cmath>
#include <functional>
#include <map>

#include "reference_cases.hpp"

using namespace fdsolve;
using namespace fdsolve::testing;
using output::SnapshotData;

namespace {

/// Physical coordinates of node (i, j, k) of a snapshot.
struct Node {
  double x, y, z;
};

/// max |u - exact| over the nodes with `keep(i, j, k)` (all by default).
double max_error(const SnapshotData& s, const std::function<double(Node)>& exact,
                 const std::function<bool(long, long, long)>& keep = {}) {
  const auto& g = s.info.grid;
  const auto& u = s.fields.at(0);
  double err = 0;
  for (long k = 0; k < g.points[2]; ++k)
    for (long j = 0; j < g.points[1]; ++j)
      for (long i = 0; i < g.points[0]; ++i) {
        if (keep && !keep(i, j, k)) continue;
        const Node n{g.origin[0] + i * g.spacing[0], g.origin[1] + j * g.spacing[1],
                     g.dims == 3 ? g.origin[2] + k * g.spacing[2] : 0.0};
        err = std::max(err, std::fabs(u[(k * g.points[1] + j) * g.points[0] + i] - exact(n)));
      }
  return err;
}

/// The eigenvalue of a stencil's discrete Laplacian (docs/numerics.md) for the Fourier mode of
/// wave numbers `kappa` on spacing h: with c_a = cos(kappa_a h), faces F = 2 sum c_a, edges
/// E = 4 sum_{a<b} c_a c_b, corners C = 8 c_x c_y c_z.
double symbol(int points, std::array<double, 3> kappa, double h) {
  double c[3];
  for (int a = 0; a < 3; ++a) c[a] = std::cos(kappa[a] * h);
  const double faces = 2 * (c[0] + c[1] + c[2]);
  const double edges = 4 * (c[0] * c[1] + c[0] * c[2] + c[1] * c[2]);
  const double corners = 8 * c[0] * c[1] * c[2];
  switch (points) {
    case 5:
      return (2 * c[0] + 2 * c[1] - 4) / (h * h);
    case 7:
      return (faces - 6) / (h * h);
    case 19:
      return (2 * faces + edges - 24) / (6 * h * h);
    default:
      return (14 * faces + 3 * edges + corners - 128) / (30 * h * h);
  }
}

/// The explicit steps' total amplification of a mode of eigenvalue lambda: steps of dt, the
/// last one shortened to end exactly on `end` (as the solver does).
double amplification(double lambda, double k, double dt, double end) {
  const auto steps = static_cast<long>(std::ceil(end / dt - 1e-9));
  const double last = end - (steps - 1) * dt;
  return std::pow(1 + dt * k * lambda, steps - 1) * (1 + last * k * lambda);
}

/// Max over interior nodes of |W u - u| for 27-point weights (centre, face, edge, corner).
double residual_27(const SnapshotData& s, double c, double f, double e, double d) {
  const auto& g = s.info.grid;
  const auto& u = s.fields.at(0);
  const long nx = g.points[0], ny = g.points[1], nz = g.points[2];
  auto at = [&](long i, long j, long k) { return u[(k * ny + j) * nx + i]; };
  double r = 0;
  for (long k = 1; k < nz - 1; ++k)
    for (long j = 1; j < ny - 1; ++j)
      for (long i = 1; i < nx - 1; ++i) {
        double sum[4] = {0, 0, 0, 0};
        for (int dz = -1; dz <= 1; ++dz)
          for (int dy = -1; dy <= 1; ++dy)
            for (int dx = -1; dx <= 1; ++dx)
              sum[std::abs(dx) + std::abs(dy) + std::abs(dz)] += at(i + dx, j + dy, k + dz);
        const double w = c * sum[0] + f * sum[1] + e * sum[2] + d * sum[3];
        r = std::max(r, std::fabs(w - at(i, j, k)));
      }
  return r;
}

using Check = std::function<void(const RegressionCase&, const SnapshotData&)>;

/// Checks `err <= bound` and reports the measured error.
void within(const std::string& what, double err, double bound) {
  MESSAGE(what, ": ", err, " (bound ", bound, ")");
  CHECK_MESSAGE(err <= bound, what, ": ", err, " > ", bound);
}

/// poisson_2d_periodic_float's answer: the mode cos(2 pi x) sin(pi y) over the 5-point
/// eigenvalue within `discrete` (the discrete solution), and within O(h^2) of the mode itself.
Check periodic_5pt(double discrete) {
  return [discrete](const RegressionCase&, const SnapshotData& s) {
    const double a = 5 * M_PI * M_PI / -symbol(5, {2 * M_PI, M_PI, 0}, 1.0 / 32);
    auto mode = [](Node n) { return std::cos(2 * M_PI * n.x) * std::sin(M_PI * n.y); };
    within("max |u - u_h| (discrete solution)", max_error(s, [&](Node n) { return a * mode(n); }),
           discrete);
    within("max |u - cos(2 pi x) sin(pi y)|", max_error(s, mode), 3e-3);
  };
}

/// poisson_3d_27pt_periodic_float's answer: the mode over the 27-point eigenvalue within
/// `discrete` (stopping error and float rounding; Jacobi measured 1.8e-5), and the continuous
/// mode within O(h^2) at h = 1/16 (measured 1.9e-2).
Check periodic_27pt(double discrete) {
  return [discrete](const RegressionCase&, const SnapshotData& s) {
    const double a = 6 * M_PI * M_PI / -symbol(27, {2 * M_PI, M_PI, M_PI}, 1.0 / 16);
    auto mode = [](Node n) {
      return std::sin(2 * M_PI * n.x) * std::sin(M_PI * n.y) * std::sin(M_PI * n.z);
    };
    within("max |u - u_h| (discrete solution)", max_error(s, [&](Node n) { return a * mode(n); }),
           discrete);
    within("max |u - sin(2 pi x) sin(pi y) sin(pi z)|", max_error(s, mode), 2.5e-2);
  };
}

const std::map<std::string, Check>& checks() {
  static const std::map<std::string, Check> table = {
      {"mg_poisson_2d_dirichlet",
       [](const RegressionCase&, const SnapshotData& s) {
         // O(h^2), h = 1/64 (the comparison problem): measured 4.4e-4.
         within("max |u - exp(x+y) sin(pi x) sin(pi y)|",
                max_error(s,
                          [](Node n) {
                            return std::exp(n.x + n.y) * std::sin(M_PI * n.x) *
                                   std::sin(M_PI * n.y);
                          }),
                6e-4);
       }},
      {"laplace_2d_neumann",
       [](const RegressionCase&, const SnapshotData& s) {
         // O(h^2), h = 1/32: measured 8.2e-4; a first-order Neumann face would be O(h) = 3e-2.
         within("max |u - sin(pi y) sinh(pi x)/sinh(pi)|",
                max_error(s,
                          [](Node n) {
                            return std::sin(M_PI * n.y) * std::sinh(M_PI * n.x) / std::sinh(M_PI);
                          }),
                1.2e-3);
       }},
      // The mode is an eigenvector of the discrete operator: u_h = 5 pi^2 / -lambda_h u, up to
      // the stopping error and float rounding (measured 6.4e-5); continuous: O(h^2).
      {"poisson_2d_periodic_float", periodic_5pt(2e-4)},
      // Multigrid stops after its full-multigrid start and one V(2,2) cycle, where float's
      // rounding is under 5 % of the residual (the float headroom test needs that margin; one
      // cycle later it is 25 %): the algebraic error is then 2.5e-4 (measured), a tenth of the
      // discretization error.
      {"mg_poisson_2d_periodic_float", periodic_5pt(4e-4)},
      {"poisson_3d_7pt_neumann",
       [](const RegressionCase&, const SnapshotData& s) {
         // O(h^2) with spacings 1/16, 1/12 and 1/5 on z: measured 4.5e-3.
         within("max |u - sin(pi (x + 1/4)) sin(pi y) sin(pi z / 2)|",
                max_error(s,
                          [](Node n) {
                            return std::sin(M_PI * (n.x + 0.25)) * std::sin(M_PI * n.y) *
                                   std::sin(M_PI * n.z / 2);
                          }),
                6e-3);
       }},
      {"poisson_3d_19pt_polynomial",
       [](const RegressionCase&, const SnapshotData& s) {
         // Exact up to the iteration's stopping error (tolerance 6e-13 of the first norm).
         within("max |u - (x^2 y + y z^2 - x z)|",
                max_error(s, [](Node n) { return n.x * n.x * n.y + n.y * n.z * n.z - n.x * n.z; }),
                1e-10);
       }},
      {"poisson_3d_27pt_periodic_float", periodic_27pt(1e-4)},
      // Multigrid stops at a float residual above rounding (the float headroom test needs that
      // margin): the algebraic error is then 2.9e-5 (measured; 1.02e-4 with Jacobi smoothing).
      {"mg_poisson_3d_27pt_periodic_float", periodic_27pt(2e-4)},
      {"laplace_3d_7pt_float",
       [](const RegressionCase&, const SnapshotData& s) {
         // Discrete: sin(pi x) sin(pi y) sinh(theta k) / sinh(16 theta), node k on z, with
         // cosh(theta) = 3 - 2 cos(pi h) from the 7-point recurrence in z (measured 3.4e-5);
         // the continuous solution within O(h^2) (measured 1.7e-3).
         const double h = 1.0 / 16, theta = std::acosh(3 - 2 * std::cos(M_PI * h));
         within("max |u - u_h| (discrete solution)",
                max_error(s,
                          [&](Node n) {
                            return std::sin(M_PI * n.x) * std::sin(M_PI * n.y) *
                                   std::sinh(theta * n.z / h) / std::sinh(16 * theta);
                          }),
                1e-4);
         const double r = std::sqrt(2.0) * M_PI;
         within("max |u - sin(pi x) sin(pi y) sinh(sqrt2 pi z)/sinh(sqrt2 pi)|",
                max_error(s,
                          [&](Node n) {
                            return std::sin(M_PI * n.x) * std::sin(M_PI * n.y) *
                                   std::sinh(r * n.z) / std::sinh(r);
                          }),
                2.5e-3);
       }},
      {"laplace_3d_27pt_neumann",
       [](const RegressionCase&, const SnapshotData& s) {
         // Exact (stencil and mirrored ghosts) up to the stopping error.
         within("max |u - (x^2 - z^2 + x y z)|",
                max_error(s, [](Node n) { return n.x * n.x - n.z * n.z + n.x * n.y * n.z; }),
                1e-10);
       }},
      {"heat_2d_periodic",
       [](const RegressionCase& c, const SnapshotData& s) {
         const double k = c.config.problem.diffusivity, h = 1.0 / 32, end = c.config.time.end;
         const double a = amplification(symbol(5, {2 * M_PI, 4 * M_PI, 0}, h), k, 1e-4, end);
         auto mode = [](Node n) { return std::sin(2 * M_PI * n.x) * std::cos(4 * M_PI * n.y); };
         within("max |u - a^n u0| (discrete factor)",
                max_error(s, [&](Node n) { return a * mode(n); }), 1e-13);
         within("|a^n - exp(-20 pi^2 k t)| relative",
                std::fabs(a / std::exp(-20 * M_PI * M_PI * k * end) - 1), 1e-2);
       }},
      {"heat_3d_7pt_neumann",
       [](const RegressionCase& c, const SnapshotData& s) {
         // dt auto: 0.9 x the 7-point limit h^2 / (6 k).
         const double k = c.config.problem.diffusivity, h = 1.0 / 16, end = c.config.time.end;
         const double a =
             amplification(symbol(7, {M_PI, M_PI, M_PI}, h), k, 0.9 * h * h / (6 * k), end);
         within("max |u - a^n u0| (discrete factor)",
                max_error(s,
                          [&](Node n) {
                            return a * std::cos(M_PI * n.x) * std::sin(M_PI * n.y) *
                                   std::sin(M_PI * n.z);
                          }),
                1e-13);
       }},
      {"heat_3d_19pt_periodic_float",
       [](const RegressionCase& c, const SnapshotData& s) {
         const double k = c.config.problem.diffusivity, h = 1.0 / 16, end = c.config.time.end;
         const double a =
             amplification(symbol(19, {2 * M_PI, 2 * M_PI, 2 * M_PI}, h), k, 5e-4, end);
         within("max |u - a^n u0| (discrete factor)",
                max_error(s,
                          [&](Node n) {
                            return a * std::sin(2 * M_PI * n.x) * std::sin(2 * M_PI * n.y) *
                                   std::cos(2 * M_PI * n.z);
                          }),
                1e-5);
       }},
      {"heat_3d_27pt_source_float",
       [](const RegressionCase& c, const SnapshotData& s) {
         // Exact up to float rounding (values up to 5; measured 2.4e-6).
         const double t = c.config.time.end;
         within("max |u - (x^2 + y^2 + z^2 + 3 t + t x)|",
                max_error(
                    s, [&](Node n) { return n.x * n.x + n.y * n.y + n.z * n.z + 3 * t + t * n.x; }),
                1e-5);
       }},
      {"custom_study_5pt",
       [](const RegressionCase&, const SnapshotData& s) {
         // Equal spacing h = 1/64: the fixed point u = (W + E + S + N) / 4 is sin(pi y) X_i with
         // X_i = sinh(theta (96 - i)) / sinh(96 theta), cosh(theta) = 2 - cos(pi h). Slow
         // contraction leaves a stopping error of 3.7e-4 (measured), larger than O(h^2).
         const double h = 1.0 / 64, theta = std::acosh(2 - std::cos(M_PI * h));
         within("max |u - u_h| (discrete solution)",
                max_error(s,
                          [&](Node n) {
                            return std::sin(M_PI * n.y) * std::sinh(theta * (96 - n.x / h)) /
                                   std::sinh(96 * theta);
                          }),
                1e-3);
         within("max |u - sin(pi y) sinh(pi (1.5 - x))/sinh(1.5 pi)|",
                max_error(s,
                          [](Node n) {
                            return std::sin(M_PI * n.y) * std::sinh(M_PI * (1.5 - n.x)) /
                                   std::sinh(1.5 * M_PI);
                          }),
                1e-3);
       }},
      {"custom_study_27pt",
       [](const RegressionCase&, const SnapshotData& s) {
         // The residual is about the last update (float values); the series within O(h^2).
         within("fixed-point residual of the study's weights",
                residual_27(s, 0.4, 0.06, 0.015, 0.0075), 2e-6);
         // Series solution of the cube [0, L]^3 with the face z = 0 at 1 and the others at 0,
         // u = sum over odd m, q of 16/(m q pi^2) sin(m pi x/L) sin(q pi y/L)
         // sinh(g (L - z))/sinh(g L), g = pi sqrt(m^2 + q^2)/L, on the nodes at least L/4 away
         // from the bottom face's edges (spacing 1: node index = coordinate).
         const int L = 32, terms = 100;
         std::vector<double> sines(terms * (L + 1));
         for (int m = 1; m < terms; m += 2)
           for (int i = 0; i <= L; ++i) sines[m * (L + 1) + i] = std::sin(m * M_PI * i / L);
         auto series = [&](Node n) {
           const int i = static_cast<int>(std::lround(n.x)), j = static_cast<int>(std::lround(n.y));
           double u = 0;
           for (int m = 1; m < terms; m += 2)
             for (int q = 1; q < terms; q += 2) {
               const double g = M_PI * std::sqrt(double(m * m + q * q)) / L;
               u += 16 / (m * q * M_PI * M_PI) * sines[m * (L + 1) + i] * sines[q * (L + 1) + j] *
                    std::exp(-g * n.z) * (1 - std::exp(-2 * g * (L - n.z))) /
                    (1 - std::exp(-2 * g * L));
             }
           return u;
         };
         within("max |u - series| inside",
                max_error(s, series,
                          [](long i, long j, long k) {
                            return i >= 8 && i <= 24 && j >= 8 && j <= 24 && k >= 1 && k <= 24;
                          }),
                2e-3);
       }},
  };
  return table;
}

}  // namespace

TEST_CASE("regression: each reference agrees with an answer computed independently") {
  const auto cases = regression_cases();
  REQUIRE(!cases.empty());
  for (const RegressionCase& c : cases) {
    INFO("case ", c.name);
    // A multigrid case mg_<case> solves <case>'s problem: the same independent answer holds.
    const std::string problem =
        checks().count(c.name) || c.name.rfind("mg_", 0) != 0 ? c.name : c.name.substr(3);
    const auto check = checks().find(problem);
    CHECK_MESSAGE(check != checks().end(), "no independent check for ", c.name);
    REQUIRE_MESSAGE(std::filesystem::exists(c.reference()),
                    "no reference: create it on purpose with tools/regenerate-reference.sh ",
                    c.name);
    const SnapshotData s = output::read_snapshot(c.reference().string());
    CHECK(s.single_precision == c.is_float());
    if (check != checks().end()) check->second(c, s);
  }
}

TEST_CASE("regression: each case has a tolerance and a line in tests/regression/README.md") {
  const std::string readme =
      read_text(std::filesystem::path(FDSOLVE_SOURCE_DIR) / "tests/regression/README.md");
  for (const RegressionCase& c : regression_cases()) {
    INFO("case ", c.name);
    CHECK_NOTHROW(tolerance_of(c));
    CHECK_MESSAGE(readme.find("`" + c.name + "`") != std::string::npos,
                  "tests/regression/README.md does not describe `", c.name, "`");
  }
}
