// Node positions, one-line errors and checked maps for the case reader.
#include "yaml_fields.hpp"

#include <algorithm>
#include <set>

#include "case_reader.hpp"
#include "suggestions.hpp"
#include "yaml_pitfalls.hpp"

namespace fdsolve {

namespace {
// True when `path` is `prefix` or lies under it ("grid.points[1]" is under "grid.points").
bool is_under(const std::string& path, const std::string& prefix) {
  if (path.rfind(prefix, 0) != 0) return false;
  return path.size() == prefix.size() || path[prefix.size()] == '.' || path[prefix.size()] == '[';
}

const char* type_name(const YAML::Node& node) {
  switch (node.Type()) {
    case YAML::NodeType::Sequence:
      return "a list";
    case YAML::NodeType::Scalar:
      return "a single value";
    default:
      return "nothing";
  }
}
}  // namespace

void SourceMap::add_override(const std::string& path, const std::string& origin) {
  overrides_.push_back({path, origin});
}

void SourceMap::add_created(const std::string& path, const std::string& origin) {
  created_.push_back({path, origin});
}

std::string SourceMap::location(const YAML::Node& node, const std::string& path) const {
  // A later override replaces what earlier ones (and the file) said under its path.
  for (auto it = overrides_.rbegin(); it != overrides_.rend(); ++it) {
    if (!path.empty() && is_under(path, it->path)) return it->text;
  }
  for (const auto& created : created_) {
    if (created.path == path) return created.text;
  }
  const YAML::Mark mark = node.Mark();
  if (mark.is_null()) return file_label_;
  return file_label_ + ":" + std::to_string(mark.line + 1) + ":" + std::to_string(mark.column + 1);
}

void SourceMap::fail(const YAML::Node& node, const std::string& path,
                     const std::string& reason) const {
  const std::string where = location(node, path);
  throw InputError(path.empty() ? where + ": " + reason : where + ": " + path + ": " + reason);
}

std::string join_path(const std::string& parent, const std::string& key) {
  return parent.empty() ? key : parent + "." + key;
}

YAML::Node Field::anchor() const {
  const bool value_placed = value.IsDefined() && !value.IsNull() && !value.Mark().is_null();
  if (value_placed || !key.IsDefined() || key.Mark().is_null()) return value;
  return key;
}

FieldMap::FieldMap(const Field& field, const std::vector<std::string>& allowed,
                   std::map<std::string, std::string>& locations)
    : self_(field) {
  const YAML::Node& map = field.value;
  if (!map.IsDefined() || map.IsNull()) return;
  if (!map.IsMap()) field.fail(std::string("expected a map of keys, got ") + type_name(map));
  std::set<std::string> seen;
  for (auto it = map.begin(); it != map.end(); ++it) {
    Field entry{field.sources, it->first, it->second, ""};
    if (!it->first.IsScalar()) {
      field.sources->fail(it->first, field.path, "keys must be plain names");
    }
    const std::string name = it->first.Scalar();
    entry.path = join_path(field.path, name);
    if (std::find(allowed.begin(), allowed.end(), name) == allowed.end()) {
      if (pitfalls::looks_like_expression(name)) {
        // An expression given on the line below its key, unquoted, splits at ': ' into a map.
        const auto dot = field.path.find_last_of('.');
        const std::string meant_for = field.path.substr(dot == std::string::npos ? 0 : dot + 1);
        field.sources->fail(
            it->first, field.path,
            pitfalls::split_expression_reason(meant_for.ends_with(']') ? "" : meant_for, name,
                                              it->second.IsScalar() ? it->second.Scalar() : ""));
      }
      field.sources->fail(it->first, entry.path, unknown_key_reason(name, allowed));
    }
    if (!seen.insert(name).second) {
      field.sources->fail(it->first, entry.path, "duplicate key '" + name + "'");
    }
    locations[entry.path] = entry.location();
    entries_.push_back(std::move(entry));
  }
}

const Field* FieldMap::find(const std::string& key) const {
  for (const auto& entry : entries_) {
    if (entry.key.Scalar() == key) return &entry;
  }
  return nullptr;
}

std::optional<Field> FieldMap::get(const std::string& key) const {
  if (const Field* entry = find(key)) return *entry;
  return std::nullopt;
}

Field FieldMap::get_or_empty(const std::string& key) const {
  if (const Field* entry = find(key)) return *entry;
  return Field{self_.sources, self_.anchor(), YAML::Node(), join_path(self_.path, key)};
}

Field FieldMap::require(const std::string& key) const {
  if (const Field* entry = find(key)) return *entry;
  // Point at the map that lacks the key; its own path decides whether an override made it.
  const std::string where = self_.sources->location(self_.anchor(), self_.path);
  throw InputError(where + ": " + join_path(self_.path, key) + ": required key is missing");
}

}  // namespace fdsolve
