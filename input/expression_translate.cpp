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

#include "expression_nodes.hpp"

namespace fdsolve {
namespace {

using translate::Untranslatable;
using translate::Node;
using translate::value;
using translate::code;
using translate::literal;
using translate::text_of;
using translate::Function;
using translate::functions;
using translate::Op;
using translate::fold;
using translate::binary;

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
