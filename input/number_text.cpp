// Strict number parsing for case files: whole-text matches only, so "5abc" or "3.5" where an
// integer is expected are errors rather than silently truncated.
#include "number_text.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <system_error>

namespace fdsolve {

namespace {
// from_chars rejects a leading '+', which YAML and users allow.
std::string_view strip_plus(std::string_view text) {
  if (text.size() > 1 && text[0] == '+' && text[1] != '-') text.remove_prefix(1);
  return text;
}
}  // namespace

std::optional<std::int64_t> parse_integer_text(const std::string& text) {
  const std::string_view s = strip_plus(text);
  std::int64_t value = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  if (s.empty() || ec != std::errc{} || end != s.data() + s.size()) return std::nullopt;
  return value;
}

std::optional<double> parse_number_text(const std::string& text) {
  const std::string_view s = strip_plus(text);
  double value = 0;
  const auto [end, ec] =
      std::from_chars(s.data(), s.data() + s.size(), value, std::chars_format::general);
  if (s.empty() || ec != std::errc{} || end != s.data() + s.size() || !std::isfinite(value)) {
    return std::nullopt;
  }
  return value;
}

bool is_boolean_text(const std::string& text) {
  static const std::array<const char*, 16> spellings{
      "true", "false", "True", "False", "TRUE", "FALSE", "yes", "no",
      "Yes",  "No",    "YES",  "NO",    "on",   "off",   "On",  "Off"};
  for (const char* s : spellings) {
    if (text == s) return true;
  }
  return false;
}

std::string format_number(double value) {
  // to_chars without a precision gives the shortest text that round-trips exactly.
  std::array<char, 64> buffer{};
  const auto [end, ec] = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value);
  std::string text(buffer.data(), ec == std::errc{} ? end : buffer.data());
  // to_chars writes exponents printf-style ("1e-06", "1e+06"); "1e-6" and "1e6" read better
  // and parse to the same value.
  const auto e = text.find('e');
  if (e != std::string::npos) {
    std::string exponent = text.substr(e + 1);
    const bool negative = !exponent.empty() && exponent[0] == '-';
    if (!exponent.empty() && (exponent[0] == '-' || exponent[0] == '+')) exponent.erase(0, 1);
    exponent.erase(0, std::min(exponent.find_first_not_of('0'), exponent.size() - 1));
    text = text.substr(0, e + 1) + (negative ? "-" : "") + exponent;
  }
  return text;
}

}  // namespace fdsolve
