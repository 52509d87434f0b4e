// The subexpression forms and their algebra (expression_nodes.hpp).
#include "expression_nodes.hpp"

#include <cmath>
#include <cstdio>

namespace fdsolve::translate {
namespace {

double rint_(double v) { return std::floor(v + 0.5); }
double sign_(double v) { return v < 0 ? -1.0 : v > 0 ? 1.0 : 0.0; }
double abs_(double v) { return v >= 0 ? v : -v; }
bool same_var(const Node& a, const Node& b) { return a.var == b.var; }

}  // namespace

Node value(double v) { return {Node::Val, 0, v, 0, 0, {}}; }

/// A double literal that reads back exactly (hexadecimal), in parentheses when negative.
std::string literal(double v) {
  if (std::isnan(v)) return "(0.0 / 0.0)";
  if (std::isinf(v)) return v > 0 ? "(1.0 / 0.0)" : "(-1.0 / 0.0)";
  // The parentheses written into the buffer: GCC 12 warns (-Wrestrict, a false positive) on
  // "(" + std::string + ")".
  char buf[64];
  if (std::signbit(v))
    std::snprintf(buf, sizeof buf, "(%a)", v);
  else
    std::snprintf(buf, sizeof buf, "%a", v);
  return buf;
}

std::string text_of(const Node& n) {
  const std::string v(1, n.var);
  switch (n.kind) {
    case Node::Val:
      return literal(n.data2);
    case Node::Var:
      return v;
    case Node::VarMul:  // muparser: *ptr * data + data2, the + kept (it turns -0 into +0)
      return "(" + v + " * " + literal(n.data) + " + " + literal(n.data2) + ")";
    case Node::VarPow: {
      std::string s = "(" + v;
      for (int i = 1; i < n.power; ++i) s += " * " + v;
      return s + ")";
    }
    case Node::Code:
      break;
  }
  return n.code;
}

Node code(std::string s) {
  Node n;
  n.code = std::move(s);
  return n;
}

// The functions muparser 2.3 defines, plus the project's pow, floor, ceil and mod
// (expression.cpp), with the host value used to fold constant arguments and the C++ the
// translation calls. The host values are muparser's own definitions (MathImpl).


const std::map<std::string, Function>& functions() {
  using A = const std::vector<double>&;
  static const std::map<std::string, Function> table = {
      {"sin", {1, [](A a) { return std::sin(a[0]); }, "sin"}},
      {"cos", {1, [](A a) { return std::cos(a[0]); }, "cos"}},
      {"tan", {1, [](A a) { return std::tan(a[0]); }, "tan"}},
      {"asin", {1, [](A a) { return std::asin(a[0]); }, "asin"}},
      {"acos", {1, [](A a) { return std::acos(a[0]); }, "acos"}},
      {"atan", {1, [](A a) { return std::atan(a[0]); }, "atan"}},
      {"atan2", {2, [](A a) { return std::atan2(a[0], a[1]); }, "atan2"}},
      {"sinh", {1, [](A a) { return std::sinh(a[0]); }, "sinh"}},
      {"cosh", {1, [](A a) { return std::cosh(a[0]); }, "cosh"}},
      {"tanh", {1, [](A a) { return std::tanh(a[0]); }, "tanh"}},
      {"asinh", {1, [](A a) { return std::log(a[0] + std::sqrt(a[0] * a[0] + 1)); }, "fdx_asinh"}},
      {"acosh", {1, [](A a) { return std::log(a[0] + std::sqrt(a[0] * a[0] - 1)); }, "fdx_acosh"}},
      {"atanh", {1, [](A a) { return 0.5 * std::log((1 + a[0]) / (1 - a[0])); }, "fdx_atanh"}},
      {"log2", {1, [](A a) { return std::log(a[0]) / std::log(2.0); }, "fdx_log2"}},
      {"log10", {1, [](A a) { return std::log10(a[0]); }, "log10"}},
      {"log", {1, [](A a) { return std::log(a[0]); }, "log"}},
      {"ln", {1, [](A a) { return std::log(a[0]); }, "log"}},
      {"exp", {1, [](A a) { return std::exp(a[0]); }, "exp"}},
      {"sqrt", {1, [](A a) { return std::sqrt(a[0]); }, "sqrt"}},
      {"sign", {1, [](A a) { return sign_(a[0]); }, "fdx_sign"}},
      {"rint", {1, [](A a) { return rint_(a[0]); }, "fdx_rint"}},
      {"abs", {1, [](A a) { return abs_(a[0]); }, "fdx_abs"}},
      {"floor", {1, [](A a) { return std::floor(a[0]); }, "floor"}},
      {"ceil", {1, [](A a) { return std::ceil(a[0]); }, "ceil"}},
      {"pow", {2, [](A a) { return std::pow(a[0], a[1]); }, "pow"}},
      {"mod", {2, [](A a) { return a[0] - a[1] * std::floor(a[0] / a[1]); }, "fdx_mod"}},
      {"sum", {-1, nullptr, "sum"}},
      {"avg", {-1, nullptr, "avg"}},
      {"min", {-1, nullptr, "fdx_min"}},
      {"max", {-1, nullptr, "fdx_max"}},
  };
  return table;
}


/// Both operands constant: muparser's ConstantFolding (note the int casts of && and ||).
double fold(Op op, double x, double y) {
  switch (op) {
    case Op::And:
      return static_cast<int>(x) && static_cast<int>(y);
    case Op::Or:
      return static_cast<int>(x) || static_cast<int>(y);
    case Op::Lt:
      return x < y;
    case Op::Gt:
      return x > y;
    case Op::Le:
      return x <= y;
    case Op::Ge:
      return x >= y;
    case Op::Eq:
      return x == y;
    case Op::Ne:
      return x != y;
    case Op::Add:
      return x + y;
    case Op::Sub:
      return x - y;
    case Op::Mul:
      return x * y;
    case Op::Div:
      return x / y;
    case Op::Pow:
      return std::pow(x, y);
  }
  return 0;
}


/// muparser's ParserByteCode::AddOp for operands l (below) and r (on top).
Node binary(Op op, const Node& l, const Node& r) {
  using K = Node::Kind;
  if (l.kind == K::Val && r.kind == K::Val) return value(fold(op, l.data2, r.data2));
  const auto is = [](const Node& n, K k) { return n.kind == k; };
  if (op == Op::Pow && is(l, K::Var) && is(r, K::Val)) {
    const double p = r.data2;
    if (p == 0) return value(1);
    if (p == 1) return l;
    if (p == 2 || p == 3 || p == 4) return {K::VarPow, 0, 0, l.var, static_cast<int>(p), {}};
  }
  if (op == Op::Add || op == Op::Sub) {
    const bool merge = (is(r, K::Var) && is(l, K::Val)) || (is(r, K::Val) && is(l, K::Var)) ||
                       (is(r, K::Val) && is(l, K::VarMul)) || (is(r, K::VarMul) && is(l, K::Val)) ||
                       ((is(r, K::Var) || is(r, K::VarMul)) &&
                        (is(l, K::Var) || is(l, K::VarMul)) && same_var(l, r));
    if (merge) {
      const double s = op == Op::Sub ? -1 : 1;
      Node n{K::VarMul,
             l.data + s * r.data,
             l.data2 + s * r.data2,
             l.kind == K::Val ? r.var : l.var,
             0,
             {}};
      return n;
    }
  }
  if (op == Op::Mul) {
    if ((is(r, K::Var) && is(l, K::Val)) || (is(r, K::Val) && is(l, K::Var)))
      return {K::VarMul, l.data2 + r.data2, 0, l.kind == K::Val ? r.var : l.var, 0, {}};
    if (is(r, K::Val) && is(l, K::VarMul))
      return {K::VarMul, l.data * r.data2, l.data2 * r.data2, l.var, 0, {}};
    if (is(r, K::VarMul) && is(l, K::Val))
      return {K::VarMul, r.data * l.data2, r.data2 * l.data2, r.var, 0, {}};
    if (is(r, K::Var) && is(l, K::Var) && same_var(l, r)) return {K::VarPow, 0, 0, l.var, 2, {}};
  }
  if (op == Op::Div && is(r, K::Val) && is(l, K::VarMul) && r.data2 != 0)
    return {K::VarMul, l.data / r.data2, l.data2 / r.data2, l.var, 0, {}};
  const std::string a = text_of(l), b = text_of(r);
  switch (op) {
    case Op::Or:
      return code("((" + a + ") != 0.0 || (" + b + ") != 0.0 ? 1.0 : 0.0)");
    case Op::And:
      return code("((" + a + ") != 0.0 && (" + b + ") != 0.0 ? 1.0 : 0.0)");
    case Op::Lt:
      return code("(" + a + " < " + b + " ? 1.0 : 0.0)");
    case Op::Gt:
      return code("(" + a + " > " + b + " ? 1.0 : 0.0)");
    case Op::Le:
      return code("(" + a + " <= " + b + " ? 1.0 : 0.0)");
    case Op::Ge:
      return code("(" + a + " >= " + b + " ? 1.0 : 0.0)");
    case Op::Eq:
      return code("(" + a + " == " + b + " ? 1.0 : 0.0)");
    case Op::Ne:
      return code("(" + a + " != " + b + " ? 1.0 : 0.0)");
    case Op::Add:
      return code("(" + a + " + " + b + ")");
    case Op::Sub:
      return code("(" + a + " - " + b + ")");
    case Op::Mul:
      return code("(" + a + " * " + b + ")");
    case Op::Div:
      return code("(" + a + " / " + b + ")");
    case Op::Pow:
      return code("pow(" + a + ", " + b + ")");
  }
  return {};
}

}  // namespace fdsolve::translate
