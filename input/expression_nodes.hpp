// The subexpressions of an expression's translation to C++ (expression_translate.cpp) and
// their algebra: each stays in one of the forms muparser's bytecode optimiser folds (a
// constant, a variable, var*a + b, var^2..4) until an operation outside those rules turns it
// into plain code, so that the translation computes what muparser computes, bit for bit.
#pragma once

#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace fdsolve::translate {

/// An expression the translation does not cover (the caller falls back to muparser).
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

/// A constant.
Node value(double v);
/// Plain code.
Node code(std::string s);
/// A double literal that reads back exactly (hexadecimal), in parentheses when negative.
std::string literal(double v);
/// The C++ of a subexpression in any form.
std::string text_of(const Node& n);

/// A function muparser 2.3 defines (or the project adds: pow, floor, ceil, mod), with the host
/// value used to fold constant arguments and the C++ the translation calls.
struct Function {
  int arity;  // -1: any number >= 1 (never folded, as in muparser)
  std::function<double(const std::vector<double>&)> fold;
  std::string name;  // what the translation calls
};
const std::map<std::string, Function>& functions();

enum class Op { Or, And, Lt, Gt, Le, Ge, Eq, Ne, Add, Sub, Mul, Div, Pow };

/// Both operands constant: muparser's ConstantFolding.
double fold(Op op, double x, double y);
/// muparser's ParserByteCode::AddOp for operands l (below) and r (on top).
Node binary(Op op, const Node& l, const Node& r);

}  // namespace fdsolve::translate
