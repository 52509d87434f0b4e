// --set handling. Format: "KEY.PATH=VALUE", split at the first '='; KEY.PATH is dot-separated
// map keys (surrounding spaces trimmed); VALUE is one YAML value, e.g. [512,512], 1e-8 or
// "sin(pi*y)". Errors in or about an override are located by its text: "--set KEY=VALUE".
#include "overrides.hpp"

#include "case_reader.hpp"
#include "yaml_pitfalls.hpp"

namespace fdsolve {

namespace {
std::string trim(const std::string& s) {
  const auto first = s.find_first_not_of(" \t");
  if (first == std::string::npos) return "";
  const auto last = s.find_last_not_of(" \t");
  return s.substr(first, last - first + 1);
}

std::vector<std::string> split_path(const std::string& path) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (true) {
    const auto dot = path.find('.', start);
    parts.push_back(path.substr(start, dot == std::string::npos ? std::string::npos : dot - start));
    if (dot == std::string::npos) return parts;
    start = dot + 1;
  }
}

[[noreturn]] void fail(const std::string& origin, const std::string& key,
                       const std::string& reason) {
  throw InputError(origin + ": " + (key.empty() ? "" : key + ": ") + reason);
}

void apply_one(YAML::Node& root, const std::string& text, SourceMap& sources) {
  const std::string origin = "--set " + text;
  const auto equals = text.find('=');
  if (equals == std::string::npos) fail(origin, "", "expected KEY.PATH=VALUE");
  const std::string key = trim(text.substr(0, equals));
  if (key.empty()) fail(origin, "", "expected KEY.PATH=VALUE, the key is empty");
  const auto parts = split_path(key);
  for (const auto& part : parts) {
    if (part.empty()) fail(origin, key, "empty part in the key path");
  }
  const std::string value_text = text.substr(equals + 1);
  YAML::Node value;
  try {
    value = YAML::Load(value_text);
  } catch (const YAML::ParserException& e) {
    if (const auto reason = pitfalls::set_value_reason(key, value_text, true))
      fail(origin, key, *reason + " (the value is not valid YAML: " + e.msg + ")");
    fail(origin, key, "the value is not valid YAML: " + e.msg);
  }
  if (value.IsMap()) {
    // An unquoted "x < 0.5 ? 5 : 1" reads as the map {"x < 0.5 ? 5": 1}.
    bool split_expression = false;
    for (const auto& entry : value) {
      if (entry.first.IsScalar() && pitfalls::looks_like_expression(entry.first.Scalar()))
        split_expression = true;
    }
    if (const auto reason = pitfalls::set_value_reason(key, value_text, split_expression))
      fail(origin, key, *reason);
  }

  if (!root.IsMap()) root.reset(YAML::Node(YAML::NodeType::Map));
  // Walk down with reset(): assigning one yaml-cpp Node to another copies into the tree
  // instead of moving the handle.
  YAML::Node node;
  node.reset(root);
  std::string path;
  for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
    path = join_path(path, parts[i]);
    const YAML::Node& existing = static_cast<const YAML::Node&>(node)[parts[i]];
    if (!existing || existing.IsNull()) {
      node[parts[i]] = YAML::Node(YAML::NodeType::Map);
      sources.add_created(path, origin);
    } else if (!existing.IsMap()) {
      fail(origin, path, "cannot set '" + parts[i + 1] + "' inside a value that is not a map");
    }
    YAML::Node child = node[parts[i]];
    node.reset(child);
  }
  node[parts.back()] = value;
  sources.add_override(key, origin);
}
}  // namespace

void apply_overrides(YAML::Node& root, const std::vector<std::string>& overrides,
                     SourceMap& sources) {
  for (const auto& text : overrides) apply_one(root, text, sources);
}

}  // namespace fdsolve
