// Did-you-mean for misspelled keys and values: the closest valid spelling by edit distance.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace fdsolve {

/// Optimal-string-alignment distance (Levenshtein plus swaps of adjacent letters), ignoring
/// ASCII case, so "Tolerence" and "tolernace" are both one or two edits from "tolerance".
std::size_t edit_distance(const std::string& a, const std::string& b);

/// The choice `given` most likely meant, when one is close enough to be a plausible typo.
std::optional<std::string> closest_match(const std::string& given,
                                         const std::vector<std::string>& choices);

/// "unknown key 'tolerence' (did you mean 'tolerance'?)", or the list of valid keys when
/// nothing is close.
std::string unknown_key_reason(const std::string& given, const std::vector<std::string>& keys);

/// "unknown value 'dubble' (expected float, double); did you mean 'double'?" — the part
/// before ';' is the fixed wording, the suggestion is added only when one is close.
std::string unknown_value_reason(const std::string& given, const std::vector<std::string>& values);

/// "a, b, c": the choices as a message lists them.
std::string join_choices(const std::vector<std::string>& choices);

}  // namespace fdsolve
