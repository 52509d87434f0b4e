// The table of bad inputs the input error tests share: a case (and --set overrides) that must
// fail with one located line "file:line:col: key.path: reason".
#pragma once

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "case_reader.hpp"

namespace fdsolve::testing {

struct BadInput {
  const char* what;
  std::string yaml;
  std::vector<std::string> sets;
  std::string expected;  // the whole message, or its beginning when `reason_part` is given
  std::string reason_part = {};
};

/// Catches the InputError and returns its message; fails the test if nothing was thrown.
inline std::string error_of(const BadInput& row) {
  try {
    fdsolve::parse_case(row.yaml, "case.yaml", row.sets);
  } catch (const fdsolve::InputError& e) {
    return e.what();
  }
  return "(no error)";
}

/// Each row fails with one line: the whole expected message, or its beginning and a part of the
/// reason.
inline void check_bad_inputs(const std::vector<BadInput>& rows) {
  for (const auto& row : rows) {
    const std::string what = row.what;
    CAPTURE(what);
    const std::string message = error_of(row);
    CHECK(message.find('\n') == std::string::npos);
    const bool whole = row.reason_part.empty() && row.expected.back() != ' ';
    if (whole) {
      CHECK(message == row.expected);
    } else {
      CHECK(message.rfind(row.expected, 0) == 0);
      CHECK(message.find(row.reason_part) != std::string::npos);
    }
  }
}

}  // namespace fdsolve::testing
