// read_case_file / parse_case: loads the YAML, applies --set overrides, checks the top level and
// hands each section to its reader (parse_*.cpp).
#include "case_reader.hpp"

#include <cctype>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "case_keys.hpp"
#include "overrides.hpp"
#include "parse_sections.hpp"
#include "yaml_pitfalls.hpp"
#include "yaml_values.hpp"

namespace fdsolve {

namespace {
std::string one_line(const std::string& message) {
  std::string text;
  for (const char ch : message) {
    const auto byte = static_cast<unsigned char>(ch);
    if (ch == '\n') {
      text += "\\n";
    } else if (ch == '\r') {
      text += "\\r";
    } else if (ch == '\t') {
      text += "\\t";
    } else if (byte < 0x20 || byte == 0x7f) {
      static const char hex[] = "0123456789abcdef";
      text += "\\x";
      text += hex[byte >> 4];
      text += hex[byte & 15];
    } else {
      text += ch;
    }
  }
  return text;
}
}  // namespace

InputError::InputError(const std::string& message) : std::runtime_error(one_line(message)) {}

namespace {
bool valid_name(const std::string& name) {
  return !name.empty() && name.find_first_of("/ \t\r\n\v\f") == std::string::npos;
}

// The file's stem, with characters a name may not contain replaced, so that a file called
// "my plate.yaml" still has a usable default name.
std::string default_name(const std::string& file_label) {
  std::string stem = std::filesystem::path(file_label).stem().string();
  for (char& ch : stem) {
    if (ch == '/' || std::isspace(static_cast<unsigned char>(ch))) ch = '_';
  }
  return stem.empty() ? "case" : stem;
}

YAML::Node load_yaml(const std::string& text, const std::string& label) {
  try {
    return YAML::Load(text);
  } catch (const YAML::ParserException& e) {
    if (!e.mark.is_null()) {
      if (auto explained = pitfalls::explain_syntax_error(text, label, e.mark.line, e.msg))
        throw InputError(*explained);
    }
    const std::string where = e.mark.is_null() ? label
                                               : label + ":" + std::to_string(e.mark.line + 1) +
                                                     ":" + std::to_string(e.mark.column + 1);
    throw InputError(where + ": invalid YAML: " + e.msg);
  }
}

void parse_top_level_values(const FieldMap& root, Case& c) {
  c.name = default_name(c.source_path);
  if (const auto f = root.get("name")) {
    c.name = read_text(*f);
    if (!valid_name(c.name)) {
      f->fail("must be non-empty without '/' or whitespace, got '" + c.name + "'");
    }
  }
  if (const auto f = root.get("precision")) {
    c.precision = read_choice(*f, {"float", "double"}) == 0 ? Precision::Float : Precision::Double;
  }
  if (const auto f = root.get("backend")) {
    const BackendChoice choices[] = {BackendChoice::Auto, BackendChoice::Cuda, BackendChoice::Cpu};
    c.backend = choices[read_choice(*f, {"auto", "cuda", "cpu"})];
  }
}
}  // namespace

Case parse_case(const std::string& text, const std::string& file_label,
                const std::vector<std::string>& overrides) {
  Case c;
  c.source_path = file_label;
  SourceMap sources(file_label);
  YAML::Node root = load_yaml(text, file_label);
  if (root.IsDefined() && !root.IsNull() && !root.IsMap()) {
    sources.fail(root, "", "expected a map of keys (name, grid, ...) at the top level");
  }
  apply_overrides(root, overrides, sources);
  if (!root.IsMap()) {
    throw InputError(file_label + ":1:1: the case file is empty; it needs at least grid.points");
  }

  const FieldMap top(Field{&sources, YAML::Node(), root, ""}, case_keys::section(""), c.locations);
  parse_top_level_values(top, c);
  parse_grid(top, c);
  parse_problem(top, c);
  parse_boundary(top, c);
  check_cell_datasets(c);
  parse_stencil(top, c);
  parse_run_settings(top, c);
  return c;
}

Case read_case_file(const std::string& path, const std::vector<std::string>& overrides) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    throw InputError(path + ": cannot read the case file: it is a directory");
  }
  std::ifstream file(path, std::ios::binary);
  if (!file) throw InputError(path + ": cannot open the case file: " + std::strerror(errno));
  std::ostringstream text;
  text << file.rdbuf();
  if (file.bad()) throw InputError(path + ": cannot read the case file: " + std::strerror(errno));
  return parse_case(text.str(), path, overrides);
}

}  // namespace fdsolve
