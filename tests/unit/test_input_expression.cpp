// Expression: muparser with x, y, z, t, pi and e; and the did-you-mean distance behind messages.
#include <doctest/doctest.h>

#include <cmath>
#include <numbers>
#include <stdexcept>

#include "expression.hpp"
#include "suggestions.hpp"

using fdsolve::Expression;

TEST_CASE("input: expressions evaluate in x, y, z, t") {
  CHECK(Expression("sin(pi*x)")(0.5, 0, 0) == doctest::Approx(1.0).epsilon(1e-15));
  CHECK(Expression("pi")(0, 0, 0) == std::numbers::pi);
  CHECK(Expression("e")(0, 0, 0) == std::numbers::e);
  CHECK(Expression("x + 10*y + 100*z + 1000*t")(1, 2, 3, 4) == 4321.0);
  CHECK(Expression("pow(x, 3)")(2, 0, 0) == 8.0);
  CHECK(Expression("x^2")(3, 0, 0) == 9.0);
  CHECK(Expression("sqrt(abs(y)) + exp(0) + cos(0)")(0, -4, 0) == 4.0);
  // A number in exponent notation is not confused with the constant e.
  CHECK(Expression("1e3 + 2*e")(0, 0, 0) == doctest::Approx(1000 + 2 * std::numbers::e));
}

TEST_CASE("input: expressions survive a move") {
  Expression a("x*y");
  Expression b(std::move(a));
  CHECK(b(3, 4, 0) == 12.0);
  Expression c("0");
  c = std::move(b);
  CHECK(c(5, 6, 0) == 30.0);
}

TEST_CASE("input: bad expressions are rejected when compiled") {
  CHECK_THROWS_AS(Expression("sin(pi*x"), std::invalid_argument);
  CHECK_THROWS_AS(Expression("x +* y"), std::invalid_argument);
  CHECK_THROWS_AS(Expression("q*x"), std::invalid_argument);
  CHECK_THROWS_AS(Expression("foo(x)"), std::invalid_argument);
  CHECK_THROWS_AS(Expression(""), std::invalid_argument);
}

TEST_CASE("input: suggestions pick the closest plausible spelling") {
  CHECK(fdsolve::edit_distance("tolerence", "tolerance") == 1);
  CHECK(fdsolve::edit_distance("tolernace", "tolerance") == 1);  // adjacent swap
  CHECK(fdsolve::edit_distance("Double", "double") == 0);
  CHECK(fdsolve::edit_distance("", "abc") == 3);
  const std::vector<std::string> keys{"max_iterations", "tolerance", "absolute_tolerance"};
  CHECK(fdsolve::closest_match("tolerence", keys) == "tolerance");
  CHECK(fdsolve::closest_match("max_iter", keys) == "max_iterations");
  CHECK_FALSE(fdsolve::closest_match("colour", keys).has_value());
  CHECK_FALSE(fdsolve::closest_match("z", {"x", "y"}).has_value());
}
