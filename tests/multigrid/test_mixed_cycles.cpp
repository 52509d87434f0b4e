// Float cycles in a double solve (MixedCycles) on the backend under test (CPU in the unit
// executable, CUDA in the GPU one): an interrupt abandons the float cycle with u as it was (the
// correction is never half added), and the next cycles go on as if nothing happened; the
// recorded float cycle gives the same numbers as the one run directly.
#include "bottom_levels_support.hpp"
#include "multigrid/mixed_cycles.hpp"

using namespace fdsolve;
using namespace fdsolve::test;
using namespace fdsolve::multigrid;

TEST_SUITE_BEGIN("problems");

namespace {

struct MixedRun {
  std::unique_ptr<Backend<double>> backend = backend_for_test<double>();
  Case c;
  std::vector<LevelGeometry> levels;
  Layout L;
  Buffer<double> cur, next;
  std::unique_ptr<Boundaries<double>> bounds;
  std::unique_ptr<MixedCycles> mixed;

  explicit MixedRun(const std::string& yaml) : c(parse_case(yaml, "t.yaml")) {
    levels = build_hierarchy(fine_level(c));
    L = levels[0].layout(sizeof(double));
    cur = backend->allocate(L.size);
    next = backend->allocate(L.size);
    random_start(*backend, L, levels[0].box, 5, cur, next);
    bounds = std::make_unique<Boundaries<double>>(c, *backend, L);
    CycleSettings settings;
    settings.spec = c.solve.multigrid;
    mixed = std::make_unique<MixedCycles>(
        levels, settings, *backend, choose_kernel(c, *backend),
        [this](Buffer<double>& x) { bounds->before_sweep(x, x, 0, 0); }, L, levels[0].box);
    mixed->set_fine_rhs(nullptr, 0.0);
  }
  std::vector<double> u() {
    std::vector<double> v(static_cast<std::size_t>(L.size));
    backend->download(v.data(), cur, L.size);
    return v;
  }
  double residual() { return mixed->probe(cur, next).l2() * mixed->residual_scale(); }
};

const std::string kCase =
    "grid: {points: [129, 65], extent: [2, 1]}\nproblem: {equation: laplace}\nstencil: 5\n"
    "boundary: {default: {type: dirichlet, value: 0}, y_max: {type: neumann, gradient: 0}}\n"
    "precision: double\nsolve: {multigrid: {precision: float}}\n";

}  // namespace

TEST_CASE("multigrid: an interrupt abandons a float cycle of a double solve, u untouched") {
  MixedRun run(kCase);
  const double r0 = run.residual();
  const std::vector<double> before = run.u();
  int checks = 0;
  run.mixed->set_interrupt([&] { return ++checks > 3; });
  CHECK_THROWS_AS(run.mixed->finish_cycle(run.cur, run.next), CycleInterrupted);
  run.mixed->set_interrupt({});
  CHECK(checks == 4);  // the float cycle checked before its sweeps and stopped at the fourth
  CHECK(run.u() == before);
  // The cycle again, whole: as a run never interrupted.
  MixedRun plain(kCase);
  CHECK(plain.residual() == r0);
  CHECK(run.residual() == r0);
  run.mixed->finish_cycle(run.cur, run.next);
  plain.mixed->finish_cycle(plain.cur, plain.next);
  CHECK(run.u() == plain.u());
  const double r1 = run.residual();
  CHECK(r1 < 0.3 * r0);
  CHECK(run.mixed->fallback_cycle() == 0);
}

TEST_CASE("multigrid: the recorded float cycle gives the run-directly numbers") {
  // With levels timed the float cycle runs directly, without the recording: the same fields.
  MixedRun recorded(kCase), direct(kCase);
  direct.mixed->time_levels();
  for (int k = 0; k < 3; ++k) {
    CHECK(recorded.residual() == direct.residual());
    recorded.mixed->finish_cycle(recorded.cur, recorded.next);
    direct.mixed->finish_cycle(direct.cur, direct.next);
  }
  CHECK(recorded.u() == direct.u());
}

TEST_SUITE_END();
