// Formulas evaluated by the backend under test (Backend::evaluate_field: NVRTC-compiled on
// CUDA, all threads on the CPU) against the host evaluator (muparser) at every node: every
// formula of tests/expressions/cases.txt, the non-finite node found at the same node, and
// time-dependent boundary values and sources over many heat steps against the CPU backend.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "expression.hpp"
#include "problem/boundary_conditions.hpp"
#include "problem/field_programs.hpp"
#include "problem/problem_setup.hpp"
#include "solve_support.hpp"

TEST_SUITE_BEGIN("problems");

namespace {

using namespace fdsolve;

std::vector<std::string> formulas() {
  std::ifstream in(std::string(FDSOLVE_SOURCE_DIR) + "/tests/expressions/cases.txt");
  std::vector<std::string> all;
  for (std::string line; std::getline(in, line);)
    if (!line.empty() && line[0] != '#') all.push_back(line);
  REQUIRE_MESSAGE(all.size() > 60, "tests/expressions/cases.txt not found under ",
                  FDSOLVE_SOURCE_DIR, ": build where the sources are");
  return all;
}

/// Distance in units in the last place of T (0 when equal or both NaN).
template <typename T = double>
std::int64_t ulps(double a, double b) {
  if (std::isnan(a) && std::isnan(b)) return 0;
  if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<std::int64_t>::max();
  const auto ordered = [](double wide) {
    const T v = static_cast<T>(wide);
    std::conditional_t<sizeof(T) == 4, std::int32_t, std::int64_t> i;
    std::memcpy(&i, &v, sizeof v);
    const std::int64_t s = i;
    return s < 0 ? -(s & std::numeric_limits<decltype(i)>::max()) : s;
  };
  const std::int64_t d = ordered(a) - ordered(b);
  return d < 0 ? -d : d;
}

struct Compared {
  std::int64_t worst_ulps = 0;  // where |reference| >= 1e-6
  double worst_relative = 0;    // |difference| / max(|reference|, 1)
  double worst_small = 0;       // |difference| where |reference| < 1e-6
  NonFiniteNode found;
};

/// Evaluates `text` on `backend` over args.box of a field of args.layout and compares every
/// node with the host Expression; the non-finite node must be the host's first.
template <typename T>
Compared compare(Backend<T>& backend, const std::string& text, const FieldEvalArgs& a) {
  Buffer<T> field = backend.allocate(a.layout.size);
  backend.zero(field);
  Compared r;
  r.found = backend.evaluate_field(field_program(text), a, field);
  std::vector<T> host(static_cast<std::size_t>(a.layout.size));
  backend.download(host.data(), field, a.layout.size);
  const Expression e(text);
  NonFiniteNode first;
  for (index_t k = a.box.lo[2]; k < a.box.hi[2]; ++k)
    for (index_t j = a.box.lo[1]; j < a.box.hi[1]; ++j)
      for (index_t i = a.box.lo[0]; i < a.box.hi[0]; ++i) {
        const double want =
            e(field_coordinate(a, 0, i), field_coordinate(a, 1, j), field_coordinate(a, 2, k), a.t);
        if (!std::isfinite(want) && !first.found) first = {true, {i, j, k}, want};
        const double ref = static_cast<T>(a.scale * want);
        const double got = host[static_cast<std::size_t>(a.layout.at(i, j, k))];
        if (std::abs(ref) >= 1e-6 || !std::isfinite(ref)) {
          r.worst_ulps = std::max(r.worst_ulps, ulps<T>(got, ref));
          if (std::isfinite(ref))
            r.worst_relative =
                std::max(r.worst_relative, std::abs(got - ref) / std::max(std::abs(ref), 1.0));
        } else {
          r.worst_small = std::max(r.worst_small, std::abs(got - ref));
        }
      }
  CHECK(r.found.found == first.found);
  if (first.found && r.found.found) CHECK(r.found.node == first.node);
  return r;
}

FieldEvalArgs args_2d(const Layout& L) {
  FieldEvalArgs a;
  a.layout = L;
  a.box = L.owned_box();
  a.origin = {-1.25, -0.75, 0.0};
  a.spacing = {0.0625, 0.078125, 1.0};  // x = 0.5 and y = 0 are nodes
  a.t = 0.7;
  return a;
}

}  // namespace

/// `text` over a 2D field and a 3D rank's sub-box (offset, scaled), compared with the host.
Compared compare_both(Backend<double>& backend, const std::string& text) {
  const Layout L2 = Layout::make(2, {41, 23, 1}, 16);
  const Layout L3 = Layout::make(3, {9, 8, 7}, 16);
  const Compared two = compare(backend, text, args_2d(L2));
  FieldEvalArgs a3 = args_2d(L3);
  a3.box = Box{{1, 2, 0}, {8, 8, 7}};  // a sub-box of a rank whose first node is (5, 3, 2)
  a3.offset = {5, 3, 2};
  a3.origin[2] = -0.5;
  a3.spacing[2] = 0.125;
  a3.scale = -2.0;
  const Compared three = compare(backend, text, a3);
  Compared r;
  r.worst_ulps = std::max(two.worst_ulps, three.worst_ulps);
  r.worst_relative = std::max(two.worst_relative, three.worst_relative);
  r.worst_small = std::max(two.worst_small, three.worst_small);
  return r;
}

PROBLEM_TEST("field expressions: each function and operator on exact arguments, to a few ulps") {
  // One operation of the docs' list applied to the coordinates (exact inputs): the GPU's
  // math library against glibc's. The CPU evaluates with muparser itself: the same bits.
  auto backend = test::backend_for_test<double>();
  std::int64_t worst = 0;
  for (const char* text : {"x + y",
                           "x - y",
                           "x * y",
                           "x / y",
                           "-x",
                           "x ^ y",
                           "x < y",
                           "x <= y",
                           "x > y",
                           "x >= y",
                           "x == y",
                           "x != y",
                           "x && y",
                           "x || y",
                           "x > y ? x : y",
                           "sin(x)",
                           "cos(x)",
                           "tan(x)",
                           "asin(x/4)",
                           "acos(y/4)",
                           "atan(x)",
                           "atan2(y, x)",
                           "sinh(x)",
                           "cosh(x)",
                           "tanh(x)",
                           "asinh(x)",
                           "acosh(abs(x) + 1)",
                           "atanh(x/4)",
                           "exp(x)",
                           "log(abs(x))",
                           "ln(abs(y))",
                           "log2(abs(x))",
                           "log10(abs(x))",
                           "sqrt(abs(x))",
                           "abs(x)",
                           "sign(x)",
                           "rint(x*4)",
                           "floor(x*4)",
                           "ceil(x*4)",
                           "mod(x, 0.3)",
                           "pow(abs(x), y)",
                           "min(x, y, z)",
                           "max(x, y, z)",
                           "sum(x, y, z)",
                           "avg(x, y, z)",
                           "pi*x",
                           "e*x",
                           "x*y*z*t"}) {
    INFO("formula: ", text);
    const Compared r = compare_both(*backend, text);
    if (!FDSOLVE_TEST_CUDA) CHECK(r.worst_ulps == 0);
    if (r.worst_ulps > 0) MESSAGE(std::string(text), ": ", r.worst_ulps, " ulps");
    CHECK(r.worst_ulps <= 4);
    CHECK(r.worst_small <= 1e-16);
    worst = std::max(worst, r.worst_ulps);
  }
  MESSAGE(std::string(test::backend_under_test()),
          ": largest difference of one function or operator from the host: ", worst, " ulps");
}

PROBLEM_TEST("field expressions: every formula of cases.txt agrees with the host evaluator") {
  // Composite formulas carry a few ulps of one operation through the rest: exp(-r^2/0.01)
  // multiplies its argument's error by |r^2/0.01|, cos(x) + tan(y) loses digits where it
  // cancels. Exact on the CPU; on the GPU within 1e-12 of max(|value|, 1) (measured values
  // printed).
  auto backend = test::backend_for_test<double>();
  std::int64_t worst = 0;
  double worst_relative = 0, worst_small = 0;
  for (const std::string& text : formulas()) {
    INFO("formula: ", text);
    const Compared r = compare_both(*backend, text);
    if (!FDSOLVE_TEST_CUDA) {
      CHECK(r.worst_ulps == 0);
      CHECK(r.worst_small == 0.0);
    }
    if (r.worst_ulps > 0 || r.worst_small > 0)
      MESSAGE(text, ": ", r.worst_ulps, " ulps (relative ", r.worst_relative, "), ", r.worst_small,
              " absolute below 1e-6");
    CHECK(r.worst_relative <= 1e-12);
    CHECK(r.worst_small <= 1e-15);
    worst = std::max(worst, r.worst_ulps);
    worst_relative = std::max(worst_relative, r.worst_relative);
    worst_small = std::max(worst_small, r.worst_small);
  }
  MESSAGE(std::string(test::backend_under_test()),
          ": largest difference over every formula: ", worst, " ulps, relative ", worst_relative,
          " (|value| >= 1e-6), ", worst_small, " absolute below");
}

PROBLEM_TEST("field expressions: float fields round the double value once, as on the host") {
  auto backend = test::backend_for_test<float>();
  const Layout L = Layout::make(2, {41, 23, 1}, 32);
  for (const char* text : {"sin(pi*x)*cos(pi*y)", "exp(-t)*x*y + 1/3", "x > 0 ? 1/(y+3) : 2"}) {
    INFO("formula: ", text);
    const Compared r = compare(*backend, text, args_2d(L));
    CHECK(r.worst_ulps <= (FDSOLVE_TEST_CUDA ? 1 : 0));
  }
}

PROBLEM_TEST("field expressions: a non-finite value is found at the host's first node") {
  auto backend = test::backend_for_test<double>();
  const Layout L = Layout::make(2, {41, 23, 1}, 16);
  for (const char* text : {"1/(x-0.5)", "sqrt(x + 1)", "y > 0.3 && x > 0.6 ? 0/0 : 1", "log(y)"}) {
    INFO("formula: ", text);
    const Compared r = compare(*backend, text, args_2d(L));
    CHECK(r.found.found);
  }
}

PROBLEM_TEST("field expressions: time-dependent boundary values, gradient and source, many steps") {
  // Explicit heat, 400 steps: the boundary values, a gradient and the source are evaluated every
  // step on the backend under test; the final field must match the CPU backend's run.
  const std::string yaml = R"(
grid: {points: [33, 25], extent: [1.0, 0.75]}
problem: {equation: heat, diffusivity: 0.5, source: "exp(-t)*sin(pi*x)*cos(2*y) + t*x"}
boundary:
  default: {type: dirichlet, value: "sin(3*t)*x + y*t^2"}
  x_max: {type: neumann, gradient: "cos(5*t)*y"}
time: {end: 0.02, dt: 0.00005}
)";
  const test::Solved s = test::solve_text<double>(yaml);
  // The same run on the CPU backend.
  test::TempDir dir;
  const Case c =
      parse_case(yaml + "\noutput: {directory: '" + dir.path.string() + "'}\n", "t.yaml");
  auto cpu = make_cpu_backend<double>();
  output::RunOutput out(c.output.directory, c.name, grid_meta(c), to_yaml(c));
  solve_jacobi<double>(c, *cpu, out, {});
  const auto reference = output::read_snapshot(out.snapshots().back());
  REQUIRE(s.u().size() == reference.fields.at(0).size());
  double worst = 0, scale = 0;
  for (std::size_t i = 0; i < s.u().size(); ++i) {
    worst = std::max(worst, std::abs(s.u()[i] - reference.fields.at(0)[i]));
    scale = std::max(scale, std::abs(reference.fields.at(0)[i]));
  }
  MESSAGE(std::string(test::backend_under_test()),
          " against the CPU after 400 steps: max difference ", worst, " (max |u| ", scale, ")");
  // The sweeps themselves may round differently on the device (FMA): 1e-12 per sweep in the
  // parity tests; evaluation mistakes would show at O(1).
  CHECK(worst <= 1e-11 * scale);
  // The Dirichlet face y_min at t_end holds the formula's value.
  const Expression g("sin(3*t)*x + y*t^2");
  const double t_end = s.final.info.time;
  for (int i = 0; i < 32; ++i)  // x_max is Neumann: its corner takes y_min's value too
    CHECK(ulps(s.u()[static_cast<std::size_t>(i)], g(i / 32.0, 0.0, 0.0, t_end)) <= 16);
}

PROBLEM_TEST("field expressions: a source that turns non-finite during the run names the node") {
  const std::string yaml = R"(
grid: {points: [33, 33]}
problem: {equation: heat, source: "x > 16.5 && t > 0.01 ? 0/0 : 1"}
time: {end: 0.5, dt: 0.1}
)";
  // The run stops as diverged, the message naming the key, the time and the first node.
  const test::Solved s = test::solve_text<double>(yaml);
  REQUIRE(s.result.status == SolveStatus::Diverged);
  REQUIRE(s.result.divergence.has_value());
  const std::string what = s.result.divergence->input;
  INFO(what);
  CHECK(what.find("problem.source") != std::string::npos);
  CHECK(what.find("(i, j) = (17, 0)") != std::string::npos);
}

PROBLEM_TEST("field expressions: Neumann gradients land at their face_index, halo ring included") {
  // Boundaries writes 2 h g onto each Neumann face's offset array through evaluate_field with
  // a layout whose at() is HaloAxis::face_index; checked node by node against the formula,
  // on every face axis, the whole grid and a rank's sub-box (offset on x and y).
  const Case c = parse_case(R"(
grid: {points: [9, 8, 7], extent: [1.0, 0.875, 0.75]}
problem: {equation: heat}
boundary:
  default: {type: dirichlet, value: 0}
  x_min: {type: neumann, gradient: "x + 2*y + 3*z + t"}
  x_max: {type: neumann, gradient: "exp(x*y) - t"}
  y_max: {type: neumann, gradient: "sin(x*y) + t*z"}
  z_min: {type: neumann, gradient: "cos(t)*x*y + z"}
time: {end: 0.001}
)",
                            "t.yaml");
  auto backend = test::backend_for_test<double>();
  Subdomain part = Subdomain::whole(c);
  part.offset = {0, 3, 0};  // the upper part in y: x faces, y_max and z_min are physical
  part.n = {9, 5, 7};
  Subdomain high = Subdomain::whole(c);
  high.offset = {4, 0, 0};  // the upper part in x: x_max physical, x_min between ranks
  high.n = {5, 8, 7};
  high.exchanged[0] = true;
  for (const Subdomain& sub : {Subdomain::whole(c), part, high}) {
    const Layout L = field_layout(c, sizeof(double), sub);
    Boundaries<double> b(c, *backend, L, sub);
    const double t = 0.37;
    b.gradients_at(t);
    int faces = 0;
    for (int face = 0; face < 6; ++face) {
      if (!sub.physical(face) || c.boundary[face].type != BoundaryType::Neumann) continue;
      ++faces;
      const HaloAxis h = halo_axis(L, face / 2);
      std::vector<double> got(static_cast<std::size_t>(h.face_size()));
      Buffer<double> view(const_cast<double*>(b.ghost_rules().faces[face].offsets), h.face_size(),
                          nullptr);
      backend->download(got.data(), view, h.face_size());
      const Expression g(c.boundary[face].gradient.expression);
      const index_t boundary = face % 2 == 0 ? 0 : L.n[face / 2] - 1;
      for (index_t q = -1; q <= h.n_q; ++q)
        for (index_t p = -1; p <= h.n_p; ++p) {
          std::array<index_t, 3> node{};
          node[h.axis] = boundary + sub.offset[h.axis];
          node[h.p_axis] = p + sub.offset[h.p_axis];
          node[h.q_axis] = q + sub.offset[h.q_axis];
          const double want = 2.0 * c.grid.spacing(face / 2) *
                              g(node_coordinate(c, 0, node[0]), node_coordinate(c, 1, node[1]),
                                node_coordinate(c, 2, node[2]), t);
          INFO("face ", face, " p ", p, " q ", q);
          CHECK(ulps(got[static_cast<std::size_t>(h.face_index(p, q))], want) <=
                (FDSOLVE_TEST_CUDA ? 4 : 0));
        }
    }
    CHECK(faces >= 3);
  }
}

TEST_SUITE_END();
