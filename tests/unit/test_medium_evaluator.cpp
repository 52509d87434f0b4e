// The medium resolved through a backend's evaluator (op::NodeEvaluator: the formulas' values,
// and the held regions' `where` brought back as non-zero marks, formed by the backend's face
// build) equals the medium the host evaluates: coefficient, held marks, held values, held
// count, bit for bit, and the same error naming the same node. The reference is resolve_medium
// without an evaluator; the evaluator runs on the CPU backend here (the same code path a GPU
// takes; tests/media/test_device_medium.py runs it on CUDA against NumPy).
#include <doctest/doctest.h>

#include <algorithm>
#include <string>

#include "backend.hpp"
#include "case_reader.hpp"
#include "operator/medium.hpp"
#include "problem/field_programs.hpp"

using namespace fdsolve;

namespace {

op::NodeEvaluator on(const Case& c, Backend<double>& backend) {
  op::NodeEvaluator e;
  e.values = [&c, &backend](const Value& v) { return node_values_on_backend(c, backend, v); };
  e.nonzero = [&c, &backend](const Value& v) { return nonzero_on_backend(c, backend, v); };
  return e;
}

std::string error_of(const Case& c, const op::NodeEvaluator& e) {
  try {
    (void)op::resolve_medium(c, e);
  } catch (const InputError& err) {
    return err.what();
  }
  return "(no error)";
}

}  // namespace

TEST_CASE("medium through a backend's evaluator: the host's medium, bit for bit") {
  // Three regions: a formula whose non-zero values are not 1 (2 and -0.5), a sphere, and one
  // overlapping both (the first region that holds a node wins); values by formula and number.
  const Case c = parse_case(
      "grid: {points: [23, 19, 17], extent: [1, 1, 1]}\n"
      "problem:\n"
      "  equation: poisson\n"
      "  coefficient: \"1 + 0.5 * sin(3 * x) * exp(y) + (z > 0.5 ? 4 : 0)\"\n"
      "  fixed:\n"
      "    - {where: \"sin(9 * x) > 0.8 ? 2 : (y < 0.2 ? -0.5 : 0)\", value: \"x + y * z\"}\n"
      "    - {where: \"(x-0.5)^2 + (y-0.45)^2 + (z-0.4)^2 < 0.04\", value: 0.25}\n"
      "    - {where: \"abs(z - 0.4) < 0.05\", value: \"1 + x\"}\n",
      "case.yaml", {});
  const auto backend = make_cpu_backend<double>();
  const op::Medium host = op::resolve_medium(c);
  const op::Medium through = op::resolve_medium(c, on(c, *backend));
  REQUIRE(host.holds());
  CHECK(through.held_count == host.held_count);
  CHECK(through.beta == host.beta);
  CHECK(through.beta_min == host.beta_min);
  CHECK(through.beta_max == host.beta_max);
  CHECK(through.held == host.held);
  CHECK(through.held_value == host.held_value);
  CHECK(through.held_number == host.held_number);
  // Every region holds nodes of its own (marks 1, 2 and 3 all appear).
  for (std::uint8_t mark : {1, 2, 3})
    CHECK(std::count(host.held.begin(), host.held.end(), mark) > 0);
}

TEST_CASE("medium through a backend's evaluator: a where that is not finite names its node") {
  const std::string grid = "grid: {points: [11, 9], extent: [1, 1]}\nproblem:\n  fixed:\n";
  for (const std::string& region :
       {std::string("    - {where: \"sqrt(x - 0.3)\", value: 1}\n"),
        std::string("    - {where: \"x < 0.5\", value: 1}\n    - {where: \"1 / (y - 0.5)\", "
                    "value: 2}\n")}) {
    CAPTURE(region);
    const Case c = parse_case(grid + region, "case.yaml", {});
    const auto backend = make_cpu_backend<double>();
    const std::string host = error_of(c, {});
    CHECK(host.find(".where") != std::string::npos);
    CHECK(error_of(c, on(c, *backend)) == host);
  }
}
