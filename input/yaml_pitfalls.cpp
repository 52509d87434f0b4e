// See yaml_pitfalls.hpp. The text of a file that YAML refused is read line by line here: there
// is no tree to ask, so the key path of the offending line comes from its indentation.
#include "yaml_pitfalls.hpp"

#include <algorithm>
#include <sstream>
#include <vector>

namespace fdsolve::pitfalls {
namespace {

constexpr auto npos = std::string::npos;

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    lines.push_back(line);
  }
  return lines;
}

std::string trimmed(const std::string& s) {
  const auto first = s.find_first_not_of(" \t");
  if (first == npos) return "";
  return s.substr(first, s.find_last_not_of(" \t") - first + 1);
}

/// Whether `s` holds the YAML indicator `mark` (':' or '?') followed by a space or the end.
bool holds_indicator(const std::string& s, char mark) {
  for (std::size_t i = 0; i < s.size(); ++i)
    if (s[i] == mark && (i + 1 == s.size() || s[i + 1] == ' ')) return true;
  return false;
}

bool quoted_start(char ch) { return ch == '"' || ch == '\''; }

/// One block-structure element of a line: a list dash or the key of "key: value" / "key:".
struct Element {
  std::size_t column = 0;
  bool dash = false;
  std::string key;
  std::size_t value_column = npos;  // keys: where the value begins (npos: none on the line)
};

/// The end of a plain key starting at `from`: the ':' followed by a space or the line's end.
std::size_t key_end(const std::string& line, std::size_t from) {
  for (std::size_t i = from; i < line.size(); ++i) {
    if (line[i] == ':' && (i + 1 == line.size() || line[i + 1] == ' ')) return i;
    if (line[i] == '#' && i > from && line[i - 1] == ' ') return npos;
  }
  return npos;
}

/// The dashes and the key of one line, left to right; none for a blank or comment line.
std::vector<Element> elements_of(const std::string& line) {
  std::vector<Element> out;
  std::size_t i = line.find_first_not_of(' ');
  if (i == npos || line[i] == '#' || line[i] == '\t') return out;
  while (i < line.size() && line[i] == '-' && (i + 1 == line.size() || line[i + 1] == ' ')) {
    out.push_back({i, true, "", npos});
    i = line.find_first_not_of(' ', i + 1);
    if (i == npos) return out;
  }
  if (std::string("\"'{[|>#&*!?%@`").find(line[i]) != npos) return out;
  const std::size_t end = key_end(line, i);
  if (end == npos) return out;
  const std::size_t value = line.find_first_not_of(' ', end + 1);
  out.push_back({i, false, trimmed(line.substr(i, end - i)), value});
  return out;
}

/// The key path of element `at` of line `line` ("problem.fixed[0].value"), from the
/// indentation of the lines above: a key's parent is the nearest element further left; a
/// dash's is too (or a key in its column: a list at its key's indentation), and the dashes in
/// its column on the way are the entries before it.
std::string block_path(const std::vector<std::string>& lines, std::size_t line, std::size_t at) {
  struct Placed {
    std::size_t line;
    Element element;
  };
  std::vector<Placed> all;
  std::size_t cur = 0;
  for (std::size_t l = 0; l <= line && l < lines.size(); ++l) {
    const auto elements = elements_of(lines[l]);
    for (std::size_t e = 0; e < elements.size(); ++e) {
      if (l == line && e > at) break;
      all.push_back({l, elements[e]});
      if (l == line && e == at) cur = all.size() - 1;
    }
  }
  if (all.empty()) return "";
  std::vector<std::string> parts;  // innermost first: "name" or "[index]"
  for (std::size_t i = cur + 1; i-- > 0;) {
    const Element& e = all[i].element;
    std::size_t entries = 0;
    std::size_t parent = npos;
    for (std::size_t j = i; j-- > 0;) {
      const Element& p = all[j].element;
      if (p.column < e.column || (e.dash && p.column == e.column && !p.dash)) {
        parent = j;
        break;
      }
      if (e.dash && p.dash && p.column == e.column) ++entries;
    }
    // Appended piece by piece: "[" + to_string(...) trips GCC 12's -Wrestrict false positive.
    std::string part;
    if (e.dash) {
      part.push_back('[');
      part.append(std::to_string(entries));
      part.push_back(']');
    } else {
      part = e.key;
    }
    parts.push_back(part);
    if (parent == npos) break;
    i = parent + 1;
  }
  std::string path;
  for (auto it = parts.rbegin(); it != parts.rend(); ++it) {
    if ((*it)[0] == '[' || path.empty())
      path += *it;
    else
      path += "." + *it;
  }
  return path;
}

/// An unquoted value that holds ': ' (or, inside {...}, '? '), found on one line.
struct SplitValue {
  std::size_t column = 0;  // where the value begins
  std::string flow_path;   // keys inside {...} down to the value's own ("" in block style)
  std::string key;         // the key the value belongs to
  std::string expression;  // the value as written
  bool flow = false;
};

/// The end of a flow value starting at `from`: the ',', '}' or ']' outside parentheses.
std::size_t flow_value_end(const std::string& line, std::size_t from) {
  int depth = 0;
  for (std::size_t i = from; i < line.size(); ++i) {
    const char ch = line[i];
    if (ch == '(') ++depth;
    if (ch == ')') --depth;
    if (depth <= 0 && (ch == ',' || ch == '}' || ch == ']')) return i;
  }
  return line.size();
}

/// The first unquoted value of the flow map at `open` ('{') that holds ': ' or '? '.
std::optional<SplitValue> split_in_flow(const std::string& line, std::size_t open) {
  std::vector<std::string> keys;  // the keys of the enclosing maps
  std::size_t i = open + 1;
  while (i < line.size()) {
    i = line.find_first_not_of(' ', i);
    if (i == npos) return std::nullopt;
    if (line[i] == '}') {
      if (keys.empty()) return std::nullopt;
      keys.pop_back();
      ++i;
      continue;
    }
    if (line[i] == ',') {
      ++i;
      continue;
    }
    const std::size_t colon = key_end(line, i);
    const std::size_t stop = flow_value_end(line, i);
    if (colon == npos || colon > stop) {  // a list entry or a key without value: skip it
      i = stop + 1;
      continue;
    }
    const std::string key = trimmed(line.substr(i, colon - i));
    std::size_t v = line.find_first_not_of(' ', colon + 1);
    if (v == npos) return std::nullopt;
    if (line[v] == '{') {
      keys.push_back(key);
      i = v + 1;
      continue;
    }
    if (line[v] == '[') {
      const std::size_t close = line.find(']', v);
      if (close == npos) return std::nullopt;
      i = close + 1;
      continue;
    }
    if (quoted_start(line[v])) {
      const std::size_t close = line.find(line[v], v + 1);
      if (close == npos) return std::nullopt;
      i = close + 1;
      continue;
    }
    const std::size_t end = flow_value_end(line, v);
    const std::string value = trimmed(line.substr(v, end - v));
    if (holds_indicator(value, ':') || holds_indicator(value, '?')) {
      std::string path;
      for (const std::string& k : keys) path += k + ".";
      return SplitValue{v, path + key, key, value, true};
    }
    i = end;
  }
  return std::nullopt;
}

/// The value on `line` that YAML could not read because it holds ': ' unquoted.
std::optional<SplitValue> split_on_line(const std::string& line, const std::vector<Element>& e) {
  std::size_t v;
  std::string key;
  if (!e.empty() && !e.back().dash) {
    v = e.back().value_column;
    key = e.back().key;
  } else {
    v = line.find_first_not_of(' ', e.empty() ? 0 : e.back().column + 1);
  }
  if (v == npos || quoted_start(line[v])) return std::nullopt;
  if (line[v] == '{') return split_in_flow(line, v);
  if (key.empty() || line[v] == '[' || line[v] == '|' || line[v] == '>') return std::nullopt;
  std::string value = line.substr(v);
  for (std::size_t i = 1; i < value.size(); ++i) {
    if (value[i] == '#' && value[i - 1] == ' ') {
      value.resize(i);
      break;
    }
  }
  value = trimmed(value);
  if (!holds_indicator(value, ':')) return std::nullopt;
  return SplitValue{v, "", key, value, false};
}

std::string location(const std::string& label, std::size_t line, std::size_t column) {
  return label + ":" + std::to_string(line + 1) + ":" + std::to_string(column + 1);
}

std::string key_path_join(const std::string& parent, const std::string& child) {
  if (parent.empty()) return child;
  if (child.empty()) return parent;
  return parent + "." + child;
}

}  // namespace

std::string double_quoted(const std::string& text) {
  std::string out = "\"";
  for (const char ch : text) {
    if (ch == '"' || ch == '\\') out += '\\';
    out += ch;
  }
  return out + "\"";
}

std::optional<std::string> explain_syntax_error(const std::string& text, const std::string& label,
                                                int line, const std::string& yaml_reason) {
  const std::vector<std::string> lines = lines_of(text);
  const std::size_t last = std::min<std::size_t>(static_cast<std::size_t>(line), lines.size());
  // The first tab in an indentation at or above the error: every later line is misread.
  for (std::size_t l = 0; l <= last && l < lines.size(); ++l) {
    const std::string& s = lines[l];
    const std::size_t content = s.find_first_not_of(" \t");
    if (content == npos || s[content] == '#') continue;
    const std::size_t tab = s.find('\t');
    if (tab < content)
      return location(label, l, tab) + ": invalid YAML: a tab indents line " +
             std::to_string(l + 1) + "; YAML indents with spaces only: replace the tab with spaces";
  }
  if (static_cast<std::size_t>(line) >= lines.size()) return std::nullopt;
  const std::string& s = lines[static_cast<std::size_t>(line)];
  const std::vector<Element> elements = elements_of(s);
  const std::optional<SplitValue> split = split_on_line(s, elements);
  if (!split) return std::nullopt;
  // The line's innermost block element: its key, or the dash of a list entry "- {...}". A flow
  // map's keys hang below it.
  const std::string outer =
      elements.empty() ? ""
                       : block_path(lines, static_cast<std::size_t>(line), elements.size() - 1);
  const std::string path = split->flow ? key_path_join(outer, split->flow_path) : outer;
  const std::string what = split->flow
                               ? "inside {...} YAML reads ': ' and '? ' in an unquoted value as "
                                 "map syntax"
                               : "YAML reads ': ' in an unquoted value as the end of a key";
  return location(label, static_cast<std::size_t>(line), split->column) + ": " +
         (path.empty() ? "" : path + ": ") + "quote the expression: " + what +
         " (invalid YAML: " + yaml_reason + "); write " + split->key + ": " +
         double_quoted(split->expression);
}

bool looks_like_expression(const std::string& key) {
  return key.find_first_of("?<>=*/^()+") != npos;
}

std::string split_expression_reason(const std::string& name, const std::string& key,
                                    const std::string& value) {
  // YAML cut "c ? a : b" at ': ' and trimmed both halves; a ternary gets its spaces back.
  const std::string expression = key + (key.find('?') != npos ? " : " : ": ") + value;
  return "quote the expression: YAML read '" + expression + "' as a map with the key '" + key +
         "' (it ends a key at ': '); write " + (name.empty() ? "" : name + ": ") +
         double_quoted(expression);
}

std::optional<std::string> set_value_reason(const std::string& key, const std::string& value,
                                            bool reads_as_map_or_fails) {
  const std::string v = trimmed(value);
  if (!reads_as_map_or_fails || v.empty() || quoted_start(v[0]) || v[0] == '{' || v[0] == '[')
    return std::nullopt;
  if (!holds_indicator(v, ':')) return std::nullopt;
  return "quote the expression: YAML reads ': ' in an unquoted value as the end of a key; write "
         "--set '" +
         key + "=" + double_quoted(v) + "'";
}

std::string expression_hint(const std::string& expression) {
  if (expression.find("**") == npos) return "";
  std::string hint = "; write powers with ^, not **: '";
  for (std::size_t i = 0; i < expression.size(); ++i) {
    const bool power = expression.compare(i, 2, "**") == 0;
    hint.push_back(power ? '^' : expression[i]);
    i += power;
  }
  hint.push_back('\'');
  return hint;
}

}  // namespace fdsolve::pitfalls
