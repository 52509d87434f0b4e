// YAML mistakes a case file's author makes without knowing YAML, explained with their fix: an
// expression holding ': ' (as in 'c ? a : b') left unquoted, which YAML reads as map syntax; a
// tab in the indentation, which YAML forbids; Python's ** for a power, which muparser lacks.
// yaml-cpp's own words ("illegal map value") name none of these.
#pragma once

#include <optional>
#include <string>

namespace fdsolve::pitfalls {

/// For a YAML syntax error on line `line` (0-based) of `text`: the whole one-line message
/// "label:line:col: key.path: reason" that names the mistake and its fix (located at the tab,
/// or at the value to quote), or nothing when none of the known mistakes explains the error.
/// `yaml_reason` is yaml-cpp's message, quoted in it.
std::optional<std::string> explain_syntax_error(const std::string& text, const std::string& label,
                                                int line, const std::string& yaml_reason);

/// Whether a map key YAML found is a piece of an expression ("x < 0.5 ? 5" of
/// "x < 0.5 ? 5 : 1"): it holds an operator no key name of a case file has.
bool looks_like_expression(const std::string& key);

/// The reason for a map whose key `key` and value `value` are the two halves of one unquoted
/// expression: "quote the expression: ...; write NAME: \"KEY : VALUE\"". `name` is the key the
/// expression was meant for ("coefficient"); empty for a list entry.
std::string split_expression_reason(const std::string& name, const std::string& key,
                                    const std::string& value);

/// For a --set value that holds ': ' outside quotes and reads as a map or not at all: the
/// reason naming the quoted form (--set 'KEY="VALUE"'), or nothing for any other value.
std::optional<std::string> set_value_reason(const std::string& key, const std::string& value,
                                            bool reads_as_map_or_fails);

/// A hint for an expression muparser refused ("; write powers with ^: 'x^2'"), or "".
std::string expression_hint(const std::string& expression);

/// `text` in YAML double quotes (as a user would type it: '"' and '\' escaped).
std::string double_quoted(const std::string& text);

}  // namespace fdsolve::pitfalls
