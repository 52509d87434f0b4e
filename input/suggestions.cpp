// Edit distance and the wording of unknown-key / unknown-value messages.
#include "suggestions.hpp"

#include <algorithm>
#include <cctype>

namespace fdsolve {

namespace {
std::string lower(std::string s) {
  for (char& ch : s) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return s;
}
}  // namespace

std::size_t edit_distance(const std::string& a_in, const std::string& b_in) {
  const std::string a = lower(a_in);
  const std::string b = lower(b_in);
  // d[i][j]: distance between the first i letters of a and the first j of b.
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[a.size()][b.size()];
}

std::optional<std::string> closest_match(const std::string& given,
                                         const std::vector<std::string>& choices) {
  std::optional<std::string> best;
  std::size_t best_distance = 0;
  for (const auto& choice : choices) {
    const std::size_t distance = edit_distance(given, choice);
    // About one typo per three letters is still recognisable; words of one or two letters
    // ("x", "l2") only match up to case, so that "z" does not suggest "x".
    const std::size_t allowed = std::min(given.size(), choice.size()) / 3;
    if (distance <= allowed && (!best || distance < best_distance)) {
      best = choice;
      best_distance = distance;
    }
  }
  if (best) return best;
  // A truncated name ("max_iter") is also a clear intent.
  if (given.size() >= 3) {
    const std::string g = lower(given);
    for (const auto& choice : choices) {
      if (lower(choice).rfind(g, 0) == 0) return choice;
    }
  }
  return std::nullopt;
}

std::string join_choices(const std::vector<std::string>& choices) {
  std::string out;
  for (const auto& choice : choices) {
    if (!out.empty()) out += ", ";
    out += choice;
  }
  return out;
}

std::string unknown_key_reason(const std::string& given, const std::vector<std::string>& keys) {
  if (const auto match = closest_match(given, keys)) {
    return "unknown key '" + given + "' (did you mean '" + *match + "'?)";
  }
  return "unknown key '" + given + "' (expected one of " + join_choices(keys) + ")";
}

std::string unknown_value_reason(const std::string& given, const std::vector<std::string>& values) {
  std::string reason = "unknown value '" + given + "' (expected " + join_choices(values) + ")";
  if (const auto match = closest_match(given, values)) {
    reason += "; did you mean '" + *match + "'?";
  }
  return reason;
}

}  // namespace fdsolve
