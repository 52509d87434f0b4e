// A user expression in x, y, z, t (muparser syntax, with pi and e), compiled once and
// evaluated at many points.
#pragma once

#include <memory>
#include <set>
#include <string>

namespace fdsolve {

/// Evaluation writes the variables into the compiled parser, so one Expression must not be
/// evaluated from several threads at once: give each thread its own copy (compile it again).
class Expression {
 public:
  /// Compiles `text`; throws std::invalid_argument with muparser's reason on a syntax error
  /// or an unknown variable.
  explicit Expression(const std::string& text);
  ~Expression();
  Expression(Expression&&) noexcept;
  Expression& operator=(Expression&&) noexcept;

  double operator()(double x, double y, double z, double t = 0) const;

  /// The variables the text mentions, of x, y, z and t (so {"t"} for "sin(t)", {} for "2*pi").
  std::set<std::string> variables() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace fdsolve
