// Strict conversions between YAML scalar text and numbers, and the shortest text that reads
// back as the same double (used by to_yaml and in messages).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace fdsolve {

/// An integer written with digits only (optional sign); nullopt for "3.5", "1e3", "abc".
std::optional<std::int64_t> parse_integer_text(const std::string& text);

/// A finite decimal number ("1", "-2.5", "1e-6"); nullopt for text, booleans, inf and nan.
std::optional<double> parse_number_text(const std::string& text);

/// True for YAML's boolean spellings, so messages can say "a boolean is not a number".
bool is_boolean_text(const std::string& text);

/// The shortest decimal text that parses back to exactly `value`.
std::string format_number(double value);

}  // namespace fdsolve
