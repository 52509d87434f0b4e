// Translates a case expression (muparser syntax, as Expression accepts it) into C++ source that
// computes the same double, so that the CUDA backend can compile it at run time (NVRTC) and
// evaluate it where the field lives. Pure C++: the same text also compiles on the host.
#pragma once

#include <optional>
#include <string>

namespace fdsolve {

/// The translation of one expression: `body` is a C++ expression of type double in the
/// variables `x`, `y`, `z`, `t` (doubles in scope), calling only the C math library and the
/// fdx_* helpers of expression_helpers().
struct TranslatedExpression {
  std::string body;
};

/// Translates `text` (already accepted by Expression). The text mirrors what muparser 2.3
/// evaluates, folding included (constants folded, `a*x + b` chains merged, `x^2..4` as
/// products), so that the host and the translated code round alike. Returns nullopt, with the
/// reason in `why`, for what it cannot translate (an unknown function, an assignment, several
/// comma-separated results): the caller then evaluates on the host.
std::optional<TranslatedExpression> translate_expression(const std::string& text,
                                                         std::string* why = nullptr);

/// The fdx_* helpers (muparser's sign, rint, abs, min, max, mod, log2, ...), as C++ source for a
/// translation unit that has defined FDX_FN (e.g. `__device__ inline`, or `inline` on the host)
/// and made the double overloads of the C math functions visible.
const char* expression_helpers();

}  // namespace fdsolve
