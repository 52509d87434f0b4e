// Robustness of the case loader: the input-level bound on the grid size (at most 2^40 nodes,
// checked without overflow, so `check` refuses what no machine holds), and error messages that
// stay one line whatever bytes they quote from the input.
#include <doctest/doctest.h>

#include "case_reader.hpp"

namespace {

std::string error_of(const std::string& yaml) {
  try {
    fdsolve::parse_case(yaml, "case.yaml");
  } catch (const fdsolve::InputError& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace

TEST_CASE("input: grids of more than 2^40 nodes are refused, 2^40 is accepted") {
  // 2^20 x 2^20 = 2^40 exactly: the largest accepted 2D grid.
  CHECK(fdsolve::parse_case("grid: {points: [1048576, 1048576]}\n", "case.yaml").grid.points[1] ==
        1048576);
  // 2^14 x 2^13 x 2^13 = 2^40 in 3D.
  CHECK_NOTHROW(fdsolve::parse_case("grid: {points: [16384, 8192, 8192]}\n", "case.yaml"));
  CHECK(error_of("grid: {points: [1048576, 1048577]}\n") ==
        "case.yaml:1:16: grid.points: 1048576 x 1048577 = 1099512676352 nodes, more than the "
        "limit of 2^40 = 1099511627776 nodes per case");
  CHECK(error_of("grid: {points: [10000000, 10000000]}\n") ==
        "case.yaml:1:16: grid.points: 10000000 x 10000000 = 100000000000000 nodes, more than the "
        "limit of 2^40 = 1099511627776 nodes per case");
  // Entries whose product overflows 64 bits: still one clear line, the total rounded.
  CHECK(error_of("grid: {points: [9000000000000000000, 9000000000000000000, 3]}\n") ==
        "case.yaml:1:16: grid.points: 9000000000000000000 x 9000000000000000000 x 3 = 2.43e+38 "
        "nodes, more than the limit of 2^40 = 1099511627776 nodes per case");
}

TEST_CASE("input: control characters quoted from the input do not break the one-line message") {
  // A YAML escape puts a newline and a tab into the name; the message shows them escaped.
  CHECK(error_of("name: \"a\\nb\\tc\"\ngrid: {points: [5, 5]}\n") ==
        "case.yaml:1:7: name: must be non-empty without '/' or whitespace, got 'a\\nb\\tc'");
  // A raw control byte (0x01) in a value.
  CHECK(error_of(std::string("grid: {points: [5, x\x01]}\n")) ==
        "case.yaml:1:20: grid.points[1]: expected an integer, got 'x\\x01'");
  // UTF-8 is left as it is.
  CHECK(error_of("precision: \xc3\xa9t\xc3\xa9\ngrid: {points: [5, 5]}\n") ==
        "case.yaml:1:12: precision: unknown value '\xc3\xa9t\xc3\xa9' (expected float, double)");
}
