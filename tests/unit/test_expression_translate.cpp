// The expression translator (input/expression_translate): its text compiled on the host
// (tests/expressions/translate_gen) against muparser at many points, bit for bit; its shapes;
// and, in a CUDA build, every translation compiled by NVRTC (which needs no GPU).
#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "expression.hpp"
#include "expression_translate.hpp"
#include "translated_expressions.hpp"

#if FDSOLVE_HAVE_CUDA
#include "cuda/expression_compile.hpp"
#endif

namespace {

/// Points that reach the special cases (0, 0.5, negative, the branches of comparisons) and
/// random ones.
std::vector<std::array<double, 4>> points() {
  std::vector<std::array<double, 4>> p;
  const double special[] = {0.0, 0.5, -0.5, 1.0, -1.0, 0.25, 2.0, -2.0, 1e-300};
  for (double x : special)
    for (double y : special) p.push_back({x, y, 0.5 * x - y, std::abs(y)});
  std::mt19937_64 g(42);
  std::uniform_real_distribution<double> u(-2.5, 2.5);
  for (int i = 0; i < 4000; ++i) p.push_back({u(g), u(g), u(g), std::abs(u(g))});
  return p;
}

bool same(double a, double b) {
  return (std::isnan(a) && std::isnan(b)) || std::memcmp(&a, &b, sizeof a) == 0;
}

}  // namespace

TEST_CASE("translate: the host-compiled translation equals muparser bit for bit") {
  const auto at = points();
  int translated = 0;
  for (const auto& c : fdsolve_translated::cases) {
    INFO("formula: ", std::string(c.text), "  translation: ", std::string(c.body));
    REQUIRE(static_cast<bool>(c.f));
    ++translated;
    const fdsolve::Expression e(c.text);
    int differ = 0;
    double worst_x = 0, got = 0, want = 0;
    for (const auto& p : at) {
      const double a = c.f(p[0], p[1], p[2], p[3]), b = e(p[0], p[1], p[2], p[3]);
      if (!same(a, b) && differ++ == 0) {
        worst_x = p[0];
        got = a;
        want = b;
      }
    }
    INFO("first difference at x = ", worst_x, ": ", got, " against muparser's ", want);
    CHECK(differ == 0);
  }
  CHECK(translated > 60);
}

TEST_CASE("translate: the text mirrors muparser's folding") {
  const auto body = [](const char* text) { return fdsolve::translate_expression(text)->body; };
  CHECK(body("x^3") == "(x * x * x)");
  CHECK(body("x*x") == "(x * x)");
  CHECK(body("x") == "x");
  CHECK(body("2^3") == "0x1p+3");
  // a*x + b chains merge their constants as muparser's optimiser does: x*(3*pi) + 0.
  CHECK(body("x*3*pi") == "(x * " + body("3*pi") + " + 0x0p+0)");
  CHECK(body("-2") == "(-0x1p+1)");
  CHECK(body("sin(pi/2)") == "0x1p+0");  // fixed-arity calls of constants are folded
  CHECK(body("x > 0 ? 1 : 2").find("!= 0.0 ?") != std::string::npos);
}

TEST_CASE("translate: what it cannot translate is said, not guessed") {
  std::string why;
  CHECK_FALSE(fdsolve::translate_expression("foo(x)", &why));
  CHECK(why.find("foo") != std::string::npos);
  CHECK_FALSE(fdsolve::translate_expression("1, 2", &why));
  CHECK(why.find("comma") != std::string::npos);
  CHECK_FALSE(fdsolve::translate_expression("x = 2", &why));
  CHECK_FALSE(fdsolve::translate_expression("_pi * x", &why));
}

#if FDSOLVE_HAVE_CUDA
TEST_CASE("translate: every translation compiles with NVRTC (no GPU needed)") {
  for (const auto& c : fdsolve_translated::cases) {
    INFO("formula: ", std::string(c.text));
    fdsolve::FieldProgram p;
    p.text = c.text;
    p.cuda_body = c.body;
    p.cuda_helpers = fdsolve::expression_helpers();
    std::string cubin;
    CHECK_NOTHROW(cubin =
                      fdsolve::cuda::compile_expression(fdsolve::cuda::expression_source(p), 90));
    CHECK(cubin.size() > 0);
  }
  fdsolve::FieldProgram bad;
  bad.cuda_body = "no_such_function(x)";
  CHECK_THROWS_AS(fdsolve::cuda::compile_expression(fdsolve::cuda::expression_source(bad), 90),
                  fdsolve::cuda::ExpressionCompileError);
}
#endif
