// The Galerkin coarse operators formed row by row (kernels/galerkin_product.hpp) against the
// same operators probed with the cycle's own transfers and fine operator (galerkin.hpp), on the
// backend under test: every coupling of every coarse level, on each boundary type, held nodes,
// a varying coefficient, the 27-point stencil's neighbour form, semi-coarsened levels, periodic
// axes, a capacity with a shift, Robin faces, in double and float.
#include <algorithm>
#include <cmath>

#include "multigrid/flux_hierarchy.hpp"
#include "multigrid/hierarchy.hpp"
#include "operator/flux_levels.hpp"
#include "operator/medium.hpp"
#include "solve_support.hpp"

using namespace fdsolve;
using namespace fdsolve::test;
using namespace fdsolve::multigrid;

TEST_SUITE_BEGIN("problems");

namespace {

struct Compared {
  int levels = 0;
  index_t rows = 0;         // rows with a coupling
  double worst = 0;         // largest |product - probed| over the row's largest |coupling|
};

/// Builds the case's flux hierarchy on the backend under test and compares each Galerkin level's
/// stencil formed row by row with the probed one.
template <typename T>
Compared compare(const std::string& yaml, double alpha = 0.0, double scale = 1.0) {
  const Case c = parse_case(yaml, "t.yaml");
  auto backend = backend_for_test<T>();
  const op::Medium m = op::resolve_medium(c);
  const auto levels = build_hierarchy(fine_level(c));
  auto built = op::flux_levels<T>(levels, m, *backend);
  FluxHierarchy<T> h(levels, std::move(built), c.solve.multigrid, *backend, alpha, scale);
  REQUIRE(h.galerkin());
  const int count = static_cast<int>(h.levels().size());
  std::vector<std::vector<T>> product;
  for (int l = 1; l < count; ++l) product.push_back(h.galerkin_stencil(l));
  h.build_galerkin(GalerkinBuild::probing);
  Compared out;
  out.levels = count - 1;
  const int points = c.grid.dims == 2 ? 9 : 27;
  for (int l = 1; l < count; ++l) {
    const std::vector<T> probed = h.galerkin_stencil(l);
    const std::vector<T>& formed = product[static_cast<std::size_t>(l - 1)];
    REQUIRE(probed.size() == formed.size());
    const index_t n = h.layout(l).size;
    for (index_t at = 0; at < n; ++at) {
      double largest = 0, diff = 0;
      for (int o = 0; o < points; ++o) {
        const auto e = static_cast<std::size_t>(o * n + at);
        largest = std::max(largest, std::abs(static_cast<double>(probed[e])));
        diff = std::max(diff, std::abs(static_cast<double>(formed[e]) - probed[e]));
      }
      if (largest == 0) {
        CHECK(diff == 0);  // rows that are not unknowns stay zero in both
        continue;
      }
      ++out.rows;
      out.worst = std::max(out.worst, diff / largest);
    }
  }
  return out;
}

const std::string kElectrode =
    "grid: {points: [17, 17, 17], extent: [1, 1, 1]}\n"
    "problem: {equation: laplace, coefficient: \"z < 0.3 ? 5 : 1\",\n"
    "  fixed: [{where: \"(x-0.5)^2 + (y-0.5)^2 + (z-0.55)^2 < 0.06\", value: 1}]}\n"
    "boundary: {default: {type: dirichlet, value: 0}, x_min: {type: neumann},\n"
    "  z_max: {type: neumann}}\n";

}  // namespace

TEST_CASE("Galerkin product: equal to probing on every level, 3D 7-point with held nodes") {
  const Compared d = compare<double>(kElectrode);
  CHECK(d.levels >= 3);
  CHECK(d.rows > 400);
  CHECK(d.worst < 1e-13);
  const Compared f = compare<float>(kElectrode);
  CHECK(f.worst < 1e-5);
}

namespace {

/// A case of the table below: its stencils formed row by row against probed, within `bound`
/// relative to each row's largest coupling, on at least `levels` Galerkin levels.
struct ProductCase {
  const char* what;
  std::string yaml;
  int levels;
  double bound;
  double alpha = 0.0, scale = 1.0;  // the hierarchy's shift: alpha I + scale A
};

const ProductCase kCases[] = {
    {"27-point neighbour couplings, held nodes, x halving once more than y and z",
     "grid: {points: [33, 17, 17], extent: [2, 1, 1]}\nstencil: 27\n"
     "problem: {equation: poisson, source: 1,\n"
     "  fixed: [{where: \"abs(x-0.5) < 0.2 && abs(y-0.4) < 0.2 && z < 0.3\", value: 0}]}\n"
     "boundary: {default: {type: neumann}, y_max: {type: dirichlet, value: 0}}\n",
     3, 1e-13},
    // Couplings 1e4 apart in a row; 65 x 17: the last levels keep y (semi-coarsening).
    {"2D checkerboard, semi-coarsened levels, Robin and mixed faces",
     "grid: {points: [65, 17], extent: [4, 1]}\n"
     "problem: {equation: poisson, source: 1,\n"
     "  coefficient: \"mod(floor(4*x) + floor(4*y), 2) == 0 ? 1e4 : 1\"}\n"
     "boundary: {default: {type: dirichlet, value: 0}, y_min: {type: neumann},\n"
     "  x_max: {type: robin, h: 3, ambient: 1}}\n",
     4, 1e-11},
    // 17 x 65 with Neumann x faces: the last levels keep x, the axis the rows' chunks run along.
    {"2D kept x axis with mirrored faces",
     "grid: {points: [17, 65], extent: [1, 4]}\n"
     "problem: {equation: poisson, source: 1, coefficient: \"y < 1.3 ? 30 : 1 + x\"}\n"
     "boundary: {default: {type: neumann}, y_max: {type: dirichlet, value: 0}}\n",
     4, 1e-13},
    // Periodic coarse axes are multiples of 3 (48 -> 24 -> 12 -> 6 -> 3).
    {"2D periodic x",
     "grid: {points: [48, 17], extent: [1, 1]}\n"
     "problem: {equation: laplace, coefficient: \"1 + 9 * (x > 0.4 && y < 0.6)\"}\n"
     "boundary: {default: {type: dirichlet, value: 0}, x_min: {type: periodic},\n"
     "  x_max: {type: periodic}}\n",
     3, 1e-13},
    {"3D periodic x and z, Neumann and Dirichlet y",
     "grid: {points: [24, 17, 12], extent: [1, 1, 1]}\n"
     "problem: {equation: laplace, coefficient: \"1 + x + 4 * (z > 0.5)\"}\n"
     "boundary: {default: {type: neumann}, x_min: {type: periodic}, x_max: {type: periodic},\n"
     "  z_min: {type: periodic}, z_max: {type: periodic}, y_min: {type: dirichlet, value: 0}}\n",
     2, 1e-13},
    // Implicit heat's shifted operator with the capacity on the diagonal: C + 0.01 A.
    {"implicit heat's shift with a capacity that varies and held nodes",
     "grid: {points: [33, 33], extent: [1, 1]}\n"
     "problem: {equation: heat, diffusivity: \"x < 0.5 ? 1 : 20\", capacity: \"1 + y\",\n"
     "  fixed: [{where: \"(x-0.3)^2 + (y-0.7)^2 < 0.01\", value: 2}]}\n"
     "time: {dt: 0.001, end: 0.01, scheme: implicit}\n"
     "boundary: {default: {type: neumann}, x_min: {type: dirichlet, value: 0}}\n",
     3, 1e-13, 0.0, 0.01},
};

}  // namespace

TEST_CASE("Galerkin product: equal to probing on the other faces, stencils and operators") {
  for (const ProductCase& c : kCases) {
    INFO(c.what);
    const Compared d = compare<double>(c.yaml, c.alpha, c.scale);
    CHECK(d.levels >= c.levels);
    CHECK(d.worst < c.bound);
  }
}

TEST_SUITE_END();
