// Multigrid on grids of any node count, on the backend under test: the levels (non-nested and
// semi-coarsened), the transfers between non-nested grids against their definition (linear
// interpolation exact for linear fields, restriction its scaled transpose), the bottom CG
// against a dense direct solve, and the V(2,2) factor at odd and even sizes for every stencil
// and face type, on thin grids and on unequal spacings.
#include "multigrid_support.hpp"

using namespace fdsolve;
using namespace fdsolve::test;
using namespace fdsolve::multigrid;

TEST_SUITE_BEGIN("problems");

namespace {

/// The case on `points` nodes of spacing `h` per axis, faces `faces`.
std::string grid_case(const std::vector<index_t>& points, const std::vector<double>& extent,
                      int stencil, const std::string& faces) {
  std::string p, e;
  for (std::size_t a = 0; a < points.size(); ++a) {
    p += (a ? ", " : "") + std::to_string(points[a]);
    e += (a ? ", " : "") + std::to_string(extent[a]);
  }
  return "grid: {points: [" + p + "], extent: [" + e + "]}\nproblem: {equation: laplace}\n" +
         "stencil: " + std::to_string(stencil) + "\n" + faces;
}

/// The coarse grid of fine counts `n` (no face periodic), as the hierarchy builds it.
LevelGeometry coarse_of(int dims, std::array<index_t, 3> n) {
  LevelGeometry g;
  g.dims = dims;
  g.points_stencil = dims == 2 ? 5 : 7;
  g.n = n;
  for (int a = 0; a < 3; ++a) g.spacing[a] = 1.0;
  for (int f = 0; f < 6; ++f) g.faces[f] = BoundaryType::Dirichlet;
  g.box = Box{{1, 1, dims == 3 ? 1 : 0}, {n[0] - 1, n[1] - 1, dims == 3 ? n[2] - 1 : 1}};
  return coarsen(g);
}

/// Interpolation from the coarse grid of `n` reproduces a linear field at every fine node, and
/// the restriction is its transpose scaled by the spacing ratio: <R f, c> = s <f, P c>.
void check_ratio_transfers(int dims, std::array<index_t, 3> n) {
  auto backend = backend_for_test<double>();
  const LevelGeometry cg = coarse_of(dims, n);
  const TransferRatio R = cg.ratio;
  const Layout F = Layout::make(dims, n, 16);
  const Layout C = Layout::make(dims, cg.n, 16);
  Buffer<double> fine = backend->allocate(F.size), coarse = backend->allocate(C.size);
  // P c and R f (scale 1) through the backend, on fields of the whole layout.
  const auto prolong = [&](const std::vector<double>& from) {
    backend->upload(coarse, from.data(), C.size);
    backend->zero(fine);
    TransferArgs<double> t;
    t.ratio = R;
    t.from = coarse.data();
    t.to = fine.data();
    t.fine = F;
    t.coarse = C;
    t.box = F.owned_box();
    backend->prolong_add(t);
    std::vector<double> got(static_cast<std::size_t>(F.size));
    backend->download(got.data(), fine, F.size);
    return got;
  };
  const auto restrict_fine = [&](const std::vector<double>& from) {
    backend->upload(fine, from.data(), F.size);
    backend->zero(coarse);
    TransferArgs<double> t;
    t.ratio = R;
    t.from = fine.data();
    t.to = coarse.data();
    t.fine = F;
    t.coarse = C;
    t.box = cg.box;
    t.scale = 1.0;
    backend->restrict_to_coarse(t);
    std::vector<double> got(static_cast<std::size_t>(C.size));
    backend->download(got.data(), coarse, C.size);
    return got;
  };
  // Coarse node I sits at fine position I den / num on each axis.
  std::vector<double> c(static_cast<std::size_t>(C.size), 0.0);
  for (index_t k = 0; k < C.n[2]; ++k)
    for (index_t j = 0; j < C.n[1]; ++j)
      for (index_t i = 0; i < C.n[0]; ++i)
        c[C.at(i, j, k)] = linear(double(i * R.den[0]) / double(R.num[0]),
                                  double(j * R.den[1]) / double(R.num[1]),
                                  dims == 3 ? double(k * R.den[2]) / double(R.num[2]) : 0.0);
  const std::vector<double> got = prolong(c);
  for (index_t k = 0; k < F.n[2]; ++k)
    for (index_t j = 0; j < F.n[1]; ++j)
      for (index_t i = 0; i < F.n[0]; ++i)
        REQUIRE(got[F.at(i, j, k)] ==
                doctest::Approx(linear(i, j, dims == 3 ? k : 0)).epsilon(1e-14));

  // Random interior fields (zero on the boundary nodes, which neither transfer reads or
  // writes there): <R f, c> against s <f, P c>.
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  const auto random_interior = [&](const Layout& L) {
    std::vector<double> v(static_cast<std::size_t>(L.size), 0.0);
    for (index_t k = dims == 3 ? 1 : 0; k < (dims == 3 ? L.n[2] - 1 : 1); ++k)
      for (index_t j = 1; j < L.n[1] - 1; ++j)
        for (index_t i = 1; i < L.n[0] - 1; ++i) v[L.at(i, j, k)] = unit(rng);
    return v;
  };
  const std::vector<double> f = random_interior(F), cr = random_interior(C);
  const std::vector<double> rf = restrict_fine(f), pc = prolong(cr);
  double lhs = 0, rhs = 0, s = 1;
  for (index_t q = 0; q < C.size; ++q) lhs += rf[q] * cr[q];
  for (index_t q = 0; q < F.size; ++q) rhs += f[q] * pc[q];
  for (int a = 0; a < dims; ++a) s *= double(R.num[a]) / double(R.den[a]);
  INFO(dims, "D ", n[0], "x", n[1], "x", n[2], " -> ", cg.n[0], "x", cg.n[1], "x", cg.n[2]);
  CHECK(lhs == doctest::Approx(s * rhs).epsilon(1e-12));
}

/// The asymptotic V(2,2) factor of the case `yaml` from a random start (8 cycles).
double factor_of(const std::string& yaml) {
  return asymptotic_factor(cycle_residuals<double>(yaml, 8));
}

}  // namespace

PROBLEM_TEST("multigrid: every node count coarsens to a few nodes per axis") {
  const auto shapes = [](const std::string& yaml) {
    return build_hierarchy(fine_level(parse_case(yaml, "t.yaml")));
  };
  const std::string dirichlet = "boundary: {default: {type: dirichlet, value: 0}}\n";
  // n - 1 odd: ceil((n - 1) / 2) + 1 nodes over the same extent.
  const auto levels = shapes(grid_case({1000, 1000}, {1, 1}, 5, dirichlet));
  std::vector<index_t> counts;
  for (const LevelGeometry& g : levels) counts.push_back(g.n[0]);
  CHECK(counts == std::vector<index_t>{1000, 501, 251, 126, 64, 33, 17, 9, 5, 3});
  // 999 fine intervals onto 500 coarse ones: coarse node I at fine position 999 I / 500.
  CHECK(levels[1].ratio.num[0] == 500);
  CHECK(levels[1].ratio.den[0] == 999);
  CHECK(levels[1].spacing[0] == doctest::Approx(1.0 / 500));
  CHECK_FALSE(levels[1].ratio.halves(2));
  CHECK(levels[2].ratio.halves(2));  // 501 -> 251: nested again
  // A thin grid: the short axis stops at 3 nodes while the long one goes on.
  const auto thin = shapes(grid_case({4097, 65}, {4096, 64}, 5, dirichlet));
  CHECK(thin.back().n[0] <= 4);
  CHECK(thin.back().n[1] == 3);
  for (std::size_t l = 1; l < thin.size(); ++l)
    CHECK(thin[l].cells() < thin[l - 1].cells());
  // Unequal spacing: the finer axis coarsens alone until the spacings are within 1.5x.
  const auto aniso = shapes(grid_case({65, 65}, {1, 4}, 5, dirichlet));
  CHECK(aniso[1].n[0] == 33);
  CHECK(aniso[1].n[1] == 65);
  CHECK(aniso[2].n[0] == 17);
  CHECK(aniso[2].n[1] == 65);
  CHECK(aniso[3].n[1] == 33);
  // An odd periodic axis: ceil(n / 2) over the same period.
  const auto periodic = shapes(grid_case(
      {9, 9}, {1, 1}, 5,
      "boundary:\n  default: {type: dirichlet, value: 0}\n  x_min: {type: periodic}\n"
      "  x_max: {type: periodic}\n"));
  CHECK(periodic[1].n[0] == 5);
  CHECK(periodic[1].ratio.num[0] == 5);
  CHECK(periodic[1].ratio.den[0] == 9);
  CHECK(periodic[1].spacing[0] == doctest::Approx(1.0 / 5));
}

PROBLEM_TEST("multigrid: non-nested transfers: interpolation exact for linear fields, "
             "restriction its scaled transpose") {
  check_ratio_transfers(2, {10, 12, 1});   // 10 -> 6, 12 -> 7: neither nested
  check_ratio_transfers(2, {1000, 14, 1});  // 1000 -> 501
  check_ratio_transfers(2, {9, 10, 1});     // one axis nested, one not
  check_ratio_transfers(3, {8, 11, 6});
}

PROBLEM_TEST("multigrid: the bottom CG solves the coarsest grid's equation") {
  // Against a dense solve of the hand-built 5-point system (1/h^2)(4 u - neighbours) = f on
  // the interior of a 7x6 grid, Dirichlet zero around it.
  auto backend = backend_for_test<double>();
  LevelGeometry g;
  g.dims = 2;
  g.points_stencil = 5;
  g.n = {7, 6, 1};
  const double h = 0.25;
  g.spacing = {h, h, 1.0};
  for (int f = 0; f < 6; ++f) g.faces[f] = BoundaryType::Dirichlet;
  g.box = Box{{1, 1, 0}, {6, 5, 1}};
  g.jacobi = laplacian_weights(5, 2, g.spacing);
  const LevelOperator op = level_operator(g, 0.0, 1.0);
  const Layout L = g.layout(sizeof(double));
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  const int nx = 5, ny = 4, N = nx * ny;
  std::vector<double> f(N), A(N * N, 0.0);
  for (double& v : f) v = unit(rng);
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i) {
      const int row = j * nx + i;
      A[row * N + row] = 4 / (h * h);
      if (i > 0) A[row * N + row - 1] = -1 / (h * h);
      if (i + 1 < nx) A[row * N + row + 1] = -1 / (h * h);
      if (j > 0) A[row * N + row - nx] = -1 / (h * h);
      if (j + 1 < ny) A[row * N + row + nx] = -1 / (h * h);
    }
  // Gaussian elimination with partial pivoting.
  std::vector<double> x = f, M = A;
  for (int col = 0; col < N; ++col) {
    int piv = col;
    for (int r = col + 1; r < N; ++r)
      if (std::fabs(M[r * N + col]) > std::fabs(M[piv * N + col])) piv = r;
    for (int q = 0; q < N; ++q) std::swap(M[col * N + q], M[piv * N + q]);
    std::swap(x[col], x[piv]);
    for (int r = col + 1; r < N; ++r) {
      const double m = M[r * N + col] / M[col * N + col];
      for (int q = col; q < N; ++q) M[r * N + q] -= m * M[col * N + q];
      x[r] -= m * x[col];
    }
  }
  for (int r = N - 1; r >= 0; --r) {
    for (int q = r + 1; q < N; ++q) x[r] -= M[r * N + q] * x[q];
    x[r] /= M[r * N + r];
  }
  std::vector<double> gv(static_cast<std::size_t>(L.size), 0.0);
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i) gv[L.at(i + 1, j + 1, 0)] = op.rhs_scale * f[j * nx + i];
  Buffer<double> xb = backend->allocate(L.size), gb = backend->allocate(L.size),
                 r = backend->allocate(L.size), p = backend->allocate(L.size),
                 q = backend->allocate(L.size);
  for (auto* b : {&xb, &r, &p, &q}) backend->zero(*b);
  backend->upload(gb, gv.data(), L.size);
  BottomSolveArgs<double> a;
  a.x = xb.data();
  a.g = gb.data();
  a.r = r.data();
  a.p = p.data();
  a.q = q.data();
  a.layout = L;
  a.box = g.box;
  a.residual = op.residual;
  a.tolerance = 1e-12;
  a.max_iterations = 200;
  backend->bottom_solve(a);
  std::vector<double> got(static_cast<std::size_t>(L.size));
  backend->download(got.data(), xb, L.size);
  double scale = 0;
  for (double v : x) scale = std::max(scale, std::fabs(v));
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i)
      CHECK(got[L.at(i + 1, j + 1, 0)] == doctest::Approx(x[j * nx + i]).epsilon(1e-9).scale(scale));
}

PROBLEM_TEST("multigrid: V(2,2) factor on grids that do not nest, every stencil and face type") {
  // Odd n - 1 on every axis (and odd periodic lengths) at two sizes: non-nested levels all
  // the way down. Bounds: the nested grids' (test_multigrid.cpp) with a margin the
  // interpolation between non-nested grids costs.
  for (const int stencil : {5, 7, 27}) {
    const int dims = stencil == 5 ? 2 : 3;
    const index_t sizes[2] = {dims == 2 ? 30 : 14, dims == 2 ? 100 : 30};
    for (const FaceCase& fc : face_cases(dims)) {
      double factors[2];
      for (int s = 0; s < 2; ++s) {
        const index_t n = sizes[s];
        std::vector<index_t> pts(dims, n);
        if (fc.periodic) {
          pts[0] = n - 1;
          if (dims == 3) pts[2] = n - 1;
        }
        factors[s] = factor_of(grid_case(pts, std::vector<double>(dims, 1.0), stencil, fc.faces));
      }
      MESSAGE(dims, "D ", stencil, "-point ", std::string(fc.name), ": V(2,2) factor ",
              factors[0], " (n = ", sizes[0], "), ", factors[1], " (n = ", sizes[1], ")");
      const double bound = dims == 2 ? 0.25 : 0.4;
      CHECK(factors[0] <= bound);
      CHECK(factors[1] <= bound);
    }
  }
}

PROBLEM_TEST("multigrid: semi-coarsening keeps thin grids and unequal spacings converging") {
  const std::string faces = "boundary: {default: {type: dirichlet, value: 0}}\n";
  const double thin = factor_of(grid_case({1025, 17}, {1024, 16}, 5, faces));
  const double thin3 = factor_of(grid_case({129, 9, 33}, {128, 8, 32}, 7, faces));
  const double aniso = factor_of(grid_case({129, 129}, {1, 4}, 5, faces));
  MESSAGE("V(2,2) factor: 1025x17 ", thin, ", 129x9x33 ", thin3, ", 129x129 spacing 1:4 ",
          aniso);
  CHECK(thin <= 0.25);
  CHECK(thin3 <= 0.4);
  CHECK(aniso <= 0.35);
}

TEST_SUITE_END();
