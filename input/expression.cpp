// Expression: a muparser formula in x, y, z, t with pi and e, compiled once when constructed.
#include "expression.hpp"

#include <muParser.h>

#include <cmath>
#include <numbers>
#include <stdexcept>

namespace fdsolve {

namespace {
// muparser 2.3 has the `^` operator but no pow() function, which users of other tools expect.
mu::value_type pow_function(mu::value_type base, mu::value_type exponent) {
  return std::pow(base, exponent);
}
// Piecewise media (layers, checkerboards, inclusions) are written with these.
double floor_function(double v) { return std::floor(v); }
double ceil_function(double v) { return std::ceil(v); }
double mod_function(double a, double b) { return a - b * std::floor(a / b); }
}  // namespace

// The variables live beside the parser because muparser binds them by address; keeping both
// in one heap object makes Expression cheap to move without re-binding.
struct Expression::Impl {
  mu::Parser parser;
  double x = 0, y = 0, z = 0, t = 0;
};

Expression::Expression(const std::string& text) : impl_(std::make_unique<Impl>()) {
  try {
    auto& p = impl_->parser;
    p.DefineConst("pi", std::numbers::pi);
    p.DefineConst("e", std::numbers::e);
    p.DefineFun("pow", pow_function);
    p.DefineFun("floor", floor_function);
    p.DefineFun("ceil", ceil_function);
    p.DefineFun("mod", mod_function);
    p.DefineVar("x", &impl_->x);
    p.DefineVar("y", &impl_->y);
    p.DefineVar("z", &impl_->z);
    p.DefineVar("t", &impl_->t);
    p.SetExpr(text);
    // SetExpr only stores the text: evaluating once parses it, so syntax errors and unknown
    // names surface here rather than in the middle of a run.
    p.Eval();
  } catch (const mu::Parser::exception_type& e) {
    throw std::invalid_argument(e.GetMsg());
  }
}

Expression::~Expression() = default;
Expression::Expression(Expression&&) noexcept = default;
Expression& Expression::operator=(Expression&&) noexcept = default;

double Expression::operator()(double x, double y, double z, double t) const {
  impl_->x = x;
  impl_->y = y;
  impl_->z = z;
  impl_->t = t;
  try {
    return impl_->parser.Eval();
  } catch (const mu::Parser::exception_type& e) {
    throw std::runtime_error(e.GetMsg());
  }
}

std::set<std::string> Expression::variables() const {
  std::set<std::string> names;
  try {
    // GetUsedVar re-tokenises the text and leaves the parser to parse again on its next Eval.
    for (const auto& entry : impl_->parser.GetUsedVar()) names.insert(entry.first);
  } catch (const mu::Parser::exception_type& e) {
    throw std::runtime_error(e.GetMsg());
  }
  return names;
}

}  // namespace fdsolve
