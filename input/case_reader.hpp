// Reads and validates a case file (with --set overrides) into a Case, and writes a Case back
// as YAML with every default filled in.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "case.hpp"

namespace fdsolve {

/// Bad input. what() is one line: "file:line:col: key.path: reason". The CLI maps it to exit 2.
/// Control characters that a message quotes from the input (a newline in a quoted value, a
/// stray byte) are written as \n, \r, \t or \xHH, so the message stays one line.
class InputError : public std::runtime_error {
 public:
  explicit InputError(const std::string& message);
};

/// Reads `path`, applies `overrides` ("key.path=YAML value", later ones win), validates.
Case read_case_file(const std::string& path, const std::vector<std::string>& overrides = {});

/// The same from text; `file_label` stands for the file name in messages and for the default
/// case name (its stem).
Case parse_case(const std::string& text, const std::string& file_label,
                const std::vector<std::string>& overrides = {});

/// The resolved case as YAML: every key with its value, defaults included. parse_case of
/// this text gives back an equal Case.
std::string to_yaml(const Case& c);

/// The name of `e` in case files: "laplace", "poisson", "heat" or "custom".
const char* equation_name(Equation e);

/// The name of `s` in case files: "explicit", "implicit" or "crank-nicolson".
const char* time_scheme_name(TimeScheme s);

}  // namespace fdsolve
