// The reader's view of the YAML tree: where each node came from (file position or --set),
// one-line errors at that place, and maps whose keys have been checked against a fixed list.
#pragma once

#include <yaml-cpp/yaml.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "case.hpp"

namespace fdsolve {

/// Knows the file label and the applied overrides, and turns a node plus its key path into
/// "file:line:col" (or "--set KEY=VALUE" for values that came from an override).
class SourceMap {
 public:
  explicit SourceMap(std::string file_label) : file_label_(std::move(file_label)) {}

  const std::string& file_label() const { return file_label_; }

  /// `path` and everything under it now come from `origin` ("--set path=value").
  void add_override(const std::string& path, const std::string& origin);
  /// An intermediate map created for an override (its keys are checked like any other).
  void add_created(const std::string& path, const std::string& origin);

  std::string location(const YAML::Node& node, const std::string& path) const;

  /// Throws InputError "location: path: reason" (no path part when `path` is empty).
  [[noreturn]] void fail(const YAML::Node& node, const std::string& path,
                         const std::string& reason) const;

 private:
  struct Origin {
    std::string path;
    std::string text;
  };
  std::string file_label_;
  std::vector<Origin> overrides_;  // in the order applied: the last match wins
  std::vector<Origin> created_;
};

/// "a.b" + "c" -> "a.b.c"; "" + "c" -> "c".
std::string join_path(const std::string& parent, const std::string& key);

/// One value of the tree with its key path; `key` is the map key node (null for list entries)
/// and gives the position when the value itself is empty.
struct Field {
  const SourceMap* sources = nullptr;
  YAML::Node key;
  YAML::Node value;
  std::string path;

  /// The node errors point at: the value, or its key when the value is empty.
  YAML::Node anchor() const;
  std::string location() const { return sources->location(anchor(), path); }
  [[noreturn]] void fail(const std::string& reason) const { sources->fail(anchor(), path, reason); }
};

/// A map node whose keys are all in `allowed` (else an unknown-key error with a suggestion)
/// and unique. A missing or null section counts as an empty map. Records the location of every
/// key present into `locations`.
class FieldMap {
 public:
  FieldMap(const Field& field, const std::vector<std::string>& allowed,
           std::map<std::string, std::string>& locations);

  bool has(const std::string& key) const { return find(key) != nullptr; }
  std::optional<Field> get(const std::string& key) const;
  /// The key's field, or an empty one (for defaults) whose errors point at this map.
  Field get_or_empty(const std::string& key) const;
  /// The key's field, or an error at this map saying the key is required.
  Field require(const std::string& key) const;
  const Field& self() const { return self_; }

 private:
  const Field* find(const std::string& key) const;
  Field self_;
  std::vector<Field> entries_;
};

}  // namespace fdsolve
