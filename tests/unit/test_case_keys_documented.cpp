// docs/case-file.md documents every key the case parser accepts: the keys come from the table
// the parser checks each map against (input/case_keys.hpp), and the parser is checked to use
// exactly that table, so a key added to the parser and not to the manual fails here.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "case_keys.hpp"
#include "case_reader.hpp"

namespace {

std::string manual_text() {
  const std::string path = std::string(FDSOLVE_SOURCE_DIR) + "/docs/case-file.md";
  std::ifstream file(path);
  REQUIRE_MESSAGE(file.good(), "cannot read " << path);
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

std::string joined(const std::vector<std::string>& keys) {
  std::string out;
  for (const auto& key : keys) out += (out.empty() ? "" : ", ") + key;
  return out;
}

/// The parser's message for an unknown key `zzzz` placed by `yaml` (nothing is close to it, so
/// the message lists the allowed keys).
std::string unknown_key_message(const std::string& yaml) {
  try {
    fdsolve::parse_case(yaml, "case.yaml", {});
  } catch (const fdsolve::InputError& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace

TEST_CASE("case keys: every key the parser accepts is documented in docs/case-file.md") {
  const std::string manual = manual_text();
  const auto paths = fdsolve::case_keys::all_paths();
  CHECK(paths.size() > 50);
  for (const std::string& path : paths) {
    INFO("key ", path);
    CHECK_MESSAGE(manual.find("`" + path + "`") != std::string::npos,
                  "docs/case-file.md does not name `" << path << "`");
  }
}

TEST_CASE("case keys: each map of the parser allows exactly the keys of the table") {
  struct Row {
    const char* section;
    std::string yaml;
  };
  const std::string g2 = "grid: {points: [9, 9]}\n";
  const std::string g3 = "grid: {points: [5, 5, 5]}\n";
  const Row rows[] = {
      {"", g2 + "zzzz: 1\n"},
      {"grid", "grid: {points: [9, 9], zzzz: 1}\n"},
      {"problem", g2 + "problem: {zzzz: 1}\n"},
      {"field_file", g2 + "initial: {zzzz: 1}\n"},
      {"problem.fixed", g2 + "problem: {fixed: [{where: 1, zzzz: 1}]}\n"},
      {"field_file", g2 + "problem: {coefficient: {zzzz: 1}}\n"},
      {"boundary", g2 + "boundary: {zzzz: 1}\n"},
      {"boundary.face", g2 + "boundary: {x_min: {zzzz: 1}}\n"},
      {"stencil", g2 + "problem: {equation: custom}\nstencil: {zzzz: 1}\n"},
      {"stencil.weights.5",
       g2 + "problem: {equation: custom}\nstencil: {points: 5, weights: {zzzz: 1}}\n"},
      {"stencil.weights.27",
       g3 + "problem: {equation: custom}\nstencil: {points: 27, weights: {zzzz: 1}}\n"},
      {"time", g2 + "problem: {equation: heat}\ntime: {end: 1, zzzz: 1}\n"},
      {"solve", g2 + "solve: {zzzz: 1}\n"},
      {"solve.multigrid", g2 + "solve: {multigrid: {zzzz: 1}}\n"},
      {"output", g2 + "output: {zzzz: 1}\n"},
      {"output.probes", g2 + "output: {probes: [{name: a, at: [1, 1], zzzz: 1}]}\n"},
      {"checkpoint", g2 + "checkpoint: {zzzz: 1}\n"},
      {"tuning", g2 + "tuning: {zzzz: 1}\n"},
      {"parallel", g2 + "parallel: {zzzz: 1}\n"},
  };
  for (const Row& row : rows) {
    INFO("section '", row.section, "'");
    const std::string message = unknown_key_message(row.yaml);
    INFO(message);
    CHECK(message.find("unknown key 'zzzz' (expected one of " +
                       joined(fdsolve::case_keys::section(row.section)) + ")") !=
          std::string::npos);
  }
  CHECK_THROWS_AS(fdsolve::case_keys::section("no such section"), std::logic_error);
}
