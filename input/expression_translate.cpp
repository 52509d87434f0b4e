// Expression -> C++ source (see expression_translate.hpp). A recursive-descent parser with
// muparser's precedences builds the text bottom-up; each subexpression stays in one of the
// forms muparser's bytecode optimiser folds (a constant, a variable, var*a + b, var^2..4) until
// an operation outside those rules turns it into plain code.
#include "expression_translate.hpp"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <stdexcept>
#include <vector>

namespace fdsolve {
namespace {

struct Untranslatable : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// One subexpression. muparser keeps a variable as data = 1, data2 = 0 and a constant as
/// data = 0, data2 = value; var*data + data2 is its merged linear form (cmVARMUL).
struct Node {
  enum Kind { Val, Var, VarMul, VarPow, Code } kind = Code;
  double data = 0, data2 = 0;
  char var = 0;
  int power = 0;
  std::string code;
};

Node value(double v) { return {Node::Val, 0, v, 0, 0, {}}; }

/// A double literal that reads back exactly (hexadecimal), in parentheses when negative.
std::string literal(double v) {
  if (std::isnan(v)) return "(0.0 / 0.0)";
  if (std::isinf(v)) return v > 0 ? "(1.0 / 0.0)" : "(-1.0 / 0.0)";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%a", v);
  return v < 0 || std::signbit(v) ? "(" + std::string(buf) + ")" : std::string(buf);
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
struct Function {
  int arity;  // -1: any number >= 1 (never folded, as in muparser)
  std::function<double(const std::vector<double>&)> fold;
  std::string name;  // what the translation calls
};

double rint_(double v) { return std::floor(v + 0.5); }
double sign_(double v) { return v < 0 ? -1.0 : v > 0 ? 1.0 : 0.0; }
double abs_(double v) { return v >= 0 ? v : -v; }

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

enum class Op { Or, And, Lt, Gt, Le, Ge, Eq, Ne, Add, Sub, Mul, Div, Pow };

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

bool same_var(const Node& a, const Node& b) { return a.var == b.var; }

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

class Translator {
 public:
  explicit Translator(const std::string& text) : s_(text) {}

  Node whole() {
    Node n = ternary();
    skip();
    if (i_ < s_.size())
      throw Untranslatable(s_[i_] == ',' ? "several comma-separated results"
                                         : "unexpected '" + std::string(1, s_[i_]) + "'");
    return n;
  }

 private:
  void skip() {
    while (i_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[i_]))) ++i_;
  }
  bool eat(const char* op) {
    skip();
    const std::size_t n = std::char_traits<char>::length(op);
    if (s_.compare(i_, n, op) != 0) return false;
    // "<" must not take the first character of "<=", nor "=" stand alone (assignment).
    if (n == 1 && i_ + 1 < s_.size() && s_[i_ + 1] == '=' &&
        std::string("<>!=").find(*op) != std::string::npos)
      return false;
    i_ += n;
    return true;
  }
  void expect(const char* op) {
    if (!eat(op)) throw Untranslatable(std::string("expected '") + op + "'");
  }

  Node ternary() {  // lowest precedence, right-associative
    Node c = binary_level(1);
    if (!eat("?")) return c;
    Node a = ternary();
    expect(":");
    Node b = ternary();
    return code("((" + text_of(c) + ") != 0.0 ? (" + text_of(a) + ") : (" + text_of(b) + "))");
  }

  // muparser's priorities: || 1, && 2, comparisons 4, + - 5, * / 6 (and the signs), ^ 7.
  Node binary_level(int level) {
    if (level == 3) return binary_level(4);
    if (level == 6) return product();
    Node l = binary_level(level + 1);
    for (;;) {
      Op op;
      if (level == 1 && eat("||"))
        op = Op::Or;
      else if (level == 2 && eat("&&"))
        op = Op::And;
      else if (level == 4 && eat("<="))
        op = Op::Le;
      else if (level == 4 && eat(">="))
        op = Op::Ge;
      else if (level == 4 && eat("=="))
        op = Op::Eq;
      else if (level == 4 && eat("!="))
        op = Op::Ne;
      else if (level == 4 && eat("<"))
        op = Op::Lt;
      else if (level == 4 && eat(">"))
        op = Op::Gt;
      else if (level == 5 && eat("+"))
        op = Op::Add;
      else if (level == 5 && eat("-"))
        op = Op::Sub;
      else
        return l;
      l = binary(op, l, binary_level(level + 1));
    }
  }

  Node product() {
    Node l = signed_factor();
    for (;;) {
      if (eat("*"))
        l = binary(Op::Mul, l, signed_factor());
      else if (eat("/"))
        l = binary(Op::Div, l, signed_factor());
      else
        return l;
    }
  }

  // A sign binds below ^ (-2^2 is -4) and is folded into a constant; unary plus is dropped.
  Node signed_factor() {
    if (eat("-")) {
      Node n = signed_factor();
      if (n.kind == Node::Val) return value(-n.data2);
      return code("(-" + text_of(n) + ")");
    }
    if (eat("+")) return signed_factor();
    return power();
  }

  Node power() {  // right-associative; the exponent may carry a sign (2^-x)
    Node base = primary();
    if (!eat("^")) return base;
    return binary(Op::Pow, base, signed_factor());
  }

  Node primary() {
    skip();
    if (i_ >= s_.size()) throw Untranslatable("unexpected end");
    const char ch = s_[i_];
    if (ch == '(') {
      ++i_;
      Node n = ternary();
      expect(")");
      return n;
    }
    if (std::isdigit(static_cast<unsigned char>(ch)) || ch == '.') return number();
    if (std::isalpha(static_cast<unsigned char>(ch)) || ch == '_') return name();
    throw Untranslatable("unexpected '" + std::string(1, ch) + "'");
  }

  Node number() {
    const std::size_t start = i_;
    const auto digits = [&] {
      while (i_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[i_]))) ++i_;
    };
    digits();
    if (i_ < s_.size() && s_[i_] == '.') {
      ++i_;
      digits();
    }
    if (i_ < s_.size() && (s_[i_] == 'e' || s_[i_] == 'E')) {
      std::size_t j = i_ + 1;
      if (j < s_.size() && (s_[j] == '+' || s_[j] == '-')) ++j;
      if (j < s_.size() && std::isdigit(static_cast<unsigned char>(s_[j]))) {
        i_ = j;
        digits();
      }
    }
    const std::string t = s_.substr(start, i_ - start);
    return value(std::strtod(t.c_str(), nullptr));
  }

  Node name() {
    const std::size_t start = i_;
    while (i_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[i_])) || s_[i_] == '_'))
      ++i_;
    const std::string id = s_.substr(start, i_ - start);
    skip();
    if (i_ < s_.size() && s_[i_] == '(') return call(id);
    if (id == "x" || id == "y" || id == "z" || id == "t") return {Node::Var, 1, 0, id[0], 0, {}};
    if (id == "pi") return value(3.14159265358979323846);
    if (id == "e") return value(2.71828182845904523536);
    throw Untranslatable("unknown name '" + id + "'");
  }

  Node call(const std::string& id) {
    const auto it = functions().find(id);
    if (it == functions().end()) throw Untranslatable("no translation for function '" + id + "'");
    const Function& f = it->second;
    expect("(");
    std::vector<Node> args{ternary()};
    while (eat(",")) args.push_back(ternary());
    expect(")");
    if (f.arity > 0 && static_cast<int>(args.size()) != f.arity)
      throw Untranslatable("wrong number of arguments for '" + id + "'");
    bool constant = f.arity > 0;
    std::vector<double> values;
    for (const Node& a : args) {
      constant = constant && a.kind == Node::Val;
      values.push_back(a.data2);
    }
    if (constant) return value(f.fold(values));  // muparser folds fixed-arity calls
    std::vector<std::string> t;
    for (const Node& a : args) t.push_back(text_of(a));
    if (id == "sum" || id == "avg") {  // muparser: r = 0; r += a[i] ...; avg: r / n
      std::string s = "(0.0";
      for (const auto& a : t) s += " + " + a;
      s += ")";
      return code(id == "sum" ? s : "(" + s + " / " + literal(double(args.size())) + ")");
    }
    if (f.arity < 0) {  // min, max: r = a[0], then r = std::min(r, a[i]) from i = 0
      std::string s = f.name + "(" + t[0] + ", " + t[0] + ")";
      if (t.size() > 1) s = t[0];
      for (std::size_t k = 1; k < t.size(); ++k) s = f.name + "(" + s + ", " + t[k] + ")";
      return code(s);
    }
    std::string s = f.name + "(";
    for (std::size_t k = 0; k < t.size(); ++k) s += (k ? ", " : "") + t[k];
    return code(s + ")");
  }

  const std::string& s_;
  std::size_t i_ = 0;
};

}  // namespace

std::optional<TranslatedExpression> translate_expression(const std::string& text,
                                                         std::string* why) {
  try {
    Translator tr(text);
    return TranslatedExpression{text_of(tr.whole())};
  } catch (const Untranslatable& e) {
    if (why) *why = e.what();
    return std::nullopt;
  }
}

const char* expression_helpers() {
  // muparser's MathImpl, written out: log2 divides by ln 2 as a literal (glibc's log(2.0),
  // correctly rounded), min and max are std::min and std::max (NaN handling included).
  return R"(
FDX_FN double fdx_sign(double v) { return v < 0 ? -1.0 : v > 0 ? 1.0 : 0.0; }
FDX_FN double fdx_rint(double v) { return floor(v + 0.5); }
FDX_FN double fdx_abs(double v) { return v >= 0 ? v : -v; }
FDX_FN double fdx_min(double a, double b) { return b < a ? b : a; }
FDX_FN double fdx_max(double a, double b) { return a < b ? b : a; }
FDX_FN double fdx_mod(double a, double b) { return a - b * floor(a / b); }
FDX_FN double fdx_log2(double v) { return log(v) / 0x1.62e42fefa39efp-1; }
FDX_FN double fdx_asinh(double v) { return log(v + sqrt(v * v + 1)); }
FDX_FN double fdx_acosh(double v) { return log(v + sqrt(v * v - 1)); }
FDX_FN double fdx_atanh(double v) { return 0.5 * log((1 + v) / (1 - v)); }
)";
}

}  // namespace fdsolve
