// The CPU backend evaluates a source formula once: the check before a run keeps its values and
// the set-up fills the field from them. The field must be bit for bit the one a direct
// evaluation gives (float and double, a scale other than 1), and a formula or time that was
// not kept is evaluated as before.
#include <doctest/doctest.h>

#include <cstring>
#include <vector>

#include "backend.hpp"
#include "case_reader.hpp"
#include "problem/field_programs.hpp"
#include "problem/problem_setup.hpp"

using namespace fdsolve;

namespace {

template <typename T>
std::vector<T> source_field(const Case& c, Backend<T>& backend, double scale, double t) {
  const Layout L = field_layout(c, sizeof(T));
  Buffer<T> out = backend.allocate(L.size);
  load_source(c, backend, L, Subdomain::whole(c), scale, t, out);
  std::vector<T> host(static_cast<std::size_t>(L.size));
  backend.download(host.data(), out, L.size);
  return host;
}

template <typename T>
void check_kept_source(const char* grid) {
  const Case c = parse_case(std::string(grid) +
                                "problem: {equation: poisson, "
                                "source: \"exp(-((x-0.3)^2+(y-0.6)^2)/0.01)*sin(7*x*y) + 1/3\"}\n",
                            "c.yaml");
  auto backend = make_cpu_backend<T>();
  const double scale = 0.1 / 3;  // a multigrid right-hand side's omega / diag, say
  const std::vector<T> direct = source_field<T>(c, *backend, scale, 0.0);
  CHECK_FALSE(source_values_kept());
  check_finite_inputs(c, *backend, true);  // keeps the source's values
  CHECK(source_values_kept());
  const std::vector<T> kept = source_field<T>(c, *backend, scale, 0.0);
  CHECK_FALSE(source_values_kept());  // the field came from them
  REQUIRE(kept.size() == direct.size());
  CHECK(std::memcmp(kept.data(), direct.data(), kept.size() * sizeof(T)) == 0);
  // Used once: the next evaluation is a direct one again, and equal.
  CHECK(source_field<T>(c, *backend, scale, 0.0) == direct);
  // Kept at t = 0 only: another time evaluates the formula.
  check_finite_inputs(c, *backend, true);
  const std::vector<T> later = source_field<T>(c, *backend, scale, 0.5);
  CHECK(source_values_kept());  // not used for t = 0.5
  CHECK(later == source_field<T>(c, *backend, scale, 0.5));
  (void)source_field<T>(c, *backend, scale, 0.0);  // released for the next test
  // Over several ranks nothing is kept.
  check_finite_inputs(c, *backend, false);
  CHECK_FALSE(source_values_kept());
}

}  // namespace

TEST_CASE("kept source: the check's values fill the field bit for bit (2D double)") {
  check_kept_source<double>("grid: {points: [67, 45]}\n");
}

TEST_CASE("kept source: the check's values fill the field bit for bit (3D float)") {
  check_kept_source<float>("grid: {points: [19, 23, 17]}\nstencil: 7\n");
}

TEST_CASE("kept source: a non-finite node is still found before the run, at the first node") {
  const Case c = parse_case(
      "grid: {points: [9, 7]}\nproblem: {equation: poisson, source: \"x/0\"}\n",
      "c.yaml");
  auto backend = make_cpu_backend<double>();
  CHECK_THROWS_WITH_AS(check_finite_inputs(c, *backend, true), doctest::Contains("problem.source"),
                       InputError);
}
