// Chebyshev smoothing (solve.multigrid.smoother) on the backend under test (CPU in the unit
// executable, CUDA in the GPU one): its weights against the hand-derived Chebyshev roots, the
// sweep kernels' factor on the source field against a field scaled beforehand, and the cycles'
// convergence factor against weighted Jacobi's on the same grids.
#include "multigrid_support.hpp"

using namespace fdsolve;
using namespace fdsolve::test;
using namespace fdsolve::multigrid;

TEST_SUITE_BEGIN("problems");

PROBLEM_TEST("multigrid: Chebyshev weights are the roots over the high frequencies") {
  // 3D 7-point: D^-1 A has the high frequencies' eigenvalues in [1/3, 2] (omega 6/7). Degree 2:
  // lambda = 7/6 -+ (5/6) cos(pi/4), the smaller weight first; degree 3: 7/6 + (5/6) cos(pi/6),
  // 7/6, 7/6 - (5/6) cos(pi/6).
  LevelGeometry g;
  g.dims = 3;
  g.points_stencil = 7;
  g.jacobi = laplacian_weights(7, 3, {0.1, 0.1, 0.1});
  g.coarsens = {true, true, true};
  const LevelOperator op = level_operator(g, 0.0, 1.0);
  CHECK(op.high_lo == doctest::Approx(1.0 / 3.0));
  CHECK(op.high_hi == doctest::Approx(2.0));
  const auto check = [&](int degree, int index, double lambda) {
    const StencilWeights w = chebyshev_sweep(op, degree, index);
    const double omega = 1.0 / lambda;
    INFO("degree ", degree, ", sweep ", index);
    CHECK(w.center == doctest::Approx(1.0 - omega));
    CHECK(w.face[0] == doctest::Approx(op.smooth.face[0] * omega / op.omega));
    CHECK(w.face[2] == doctest::Approx(op.smooth.face[2] * omega / op.omega));
    CHECK(w.source_scale == doctest::Approx(omega / op.omega));
  };
  const double c4 = std::cos(M_PI / 4), c6 = std::cos(M_PI / 6);
  check(2, 0, 7.0 / 6 + 5.0 / 6 * c4);
  check(2, 1, 7.0 / 6 - 5.0 / 6 * c4);
  check(3, 0, 7.0 / 6 + 5.0 / 6 * c6);
  check(3, 1, 7.0 / 6);
  check(3, 2, 7.0 / 6 - 5.0 / 6 * c6);
  // A step of 6 sweeps: the polynomial of degree 4, then the one of degree 2.
  check(6, 0, 7.0 / 6 + 5.0 / 6 * std::cos(M_PI / 8));
  check(6, 3, 7.0 / 6 + 5.0 / 6 * std::cos(7 * M_PI / 8));
  check(6, 4, 7.0 / 6 + 5.0 / 6 * c4);
  check(6, 5, 7.0 / 6 - 5.0 / 6 * c4);
  // Degree 1 is weighted Jacobi itself.
  const StencilWeights one = chebyshev_sweep(op, 1, 0);
  CHECK(one.center == op.smooth.center);
  CHECK(one.face == op.smooth.face);
  CHECK(one.source_scale == 1.0);
}

PROBLEM_TEST("multigrid: every sweep kernel multiplies the source field by its factor") {
  // A sweep whose source field takes the factor 0.37 against the same sweep of a field
  // multiplied by 0.37 beforehand: equal up to the rounding of the product (a GPU kernel may
  // fuse it into a multiply-add).
  auto backend = backend_for_test<double>();
  for (const int stencil : {5, 7, 27}) {
    const int dims = stencil == 5 ? 2 : 3;
    const index_t n = dims == 2 ? 67 : 19;
    const Layout L = Layout::make(dims, {n, n, dims == 3 ? n : 1}, 16);
    const auto wave = [](double x, double y, double z) { return std::sin(x + 2 * y) + 0.1 * z; };
    const std::vector<double> u = field_of<double>(L, 0.05, wave);
    std::vector<double> f = field_of<double>(L, 0.07, linear), scaled(f);
    for (double& v : scaled) v *= 0.37;
    Buffer<double> in = backend->allocate(L.size), src = backend->allocate(L.size),
                   pre = backend->allocate(L.size), a = backend->allocate(L.size),
                   b = backend->allocate(L.size);
    backend->upload(in, u.data(), L.size);
    backend->upload(src, f.data(), L.size);
    backend->upload(pre, scaled.data(), L.size);
    const auto names = backend->kernels(dims);
    for (std::size_t k = 0; k < names.size(); ++k) {
      SweepArgs<double> s;
      s.in = in.data();
      s.layout = L;
      s.box = Box{{1, 1, dims == 3 ? 1 : 0}, {n - 1, n - 1, dims == 3 ? n - 1 : 1}};
      s.weights = laplacian_weights(stencil, dims, {0.1, 0.1, 0.1}).weights;
      s.weights.center = 0.25;
      s.weights.source_scale = 0.37;
      s.source_field = src.data();
      s.out = a.data();
      backend->zero(a);
      backend->sweep(s, KernelId{dims, static_cast<int>(k)});
      s.weights.source_scale = 1.0;
      s.source_field = pre.data();
      s.out = b.data();
      backend->zero(b);
      backend->sweep(s, KernelId{dims, static_cast<int>(k)});
      std::vector<double> got(static_cast<std::size_t>(L.size)), want(got);
      backend->download(got.data(), a, L.size);
      backend->download(want.data(), b, L.size);
      INFO(stencil, "-point, kernel ", names[k]);
      for (std::size_t i = 0; i < got.size(); ++i)
        REQUIRE(got[i] == doctest::Approx(want[i]).epsilon(1e-14));
    }
  }
}

PROBLEM_TEST("multigrid: Chebyshev steps converge at least as fast as weighted Jacobi") {
  // 3D 7-point at 17^3 and 33^3, every face type: the V(2,2) factor at most 0.8 x Jacobi's (the
  // Chebyshev bound per step, 0.34 against 0.51, would allow less; numerics.md), and
  // the residual of the zero discrete solution driven to 1e-9 of its start (the coarse levels'
  // right-hand side takes the sweeps' factors: a wrong one would stall).
  for (const FaceCase& f : face_cases(3))
    for (const index_t n : {17, 33}) {
      const std::string yaml = face_case_yaml(3, n, 7, f);
      const auto jacobi = cycle_residuals<double>(yaml + "solve: {multigrid: {smoother: jacobi}}\n", 8);
      const auto chebyshev =
          cycle_residuals<double>(yaml + "solve: {multigrid: {smoother: chebyshev}}\n", 14);
      const double j = asymptotic_factor(jacobi), c = asymptotic_factor(chebyshev);
      MESSAGE("3D 7-point ", std::string(f.name), " n = ", n, ": V(2,2) factor Jacobi ", j,
              ", Chebyshev ", c);
      CHECK(c <= 0.8 * j);  // measured 0.70-0.72 x
      CHECK(chebyshev.back() <= 1e-9 * chebyshev.front());
    }
}

PROBLEM_TEST("multigrid: long Chebyshev steps reach the rounding level") {
  // Twelve sweeps a step, as polynomials of degree 4: one polynomial of degree 12 (weights up
  // to 1 / lo) amplified rounding enough to stall 2D runs 100 x above the rounding floor.
  const std::string yaml = face_case_yaml(2, 129, 5, face_cases(2)[0]) +
                           "solve: {multigrid: {smoother: chebyshev, pre_smooth: 12, "
                           "post_smooth: 12}}\n";
  const auto norms = cycle_residuals<double>(yaml, 8);
  MESSAGE("2D 5-point, steps of 12 sweeps: residual ", norms.back(), " of ", norms.front());
  CHECK(norms.back() <= 1e-13 * norms.front());
}

TEST_SUITE_END();
