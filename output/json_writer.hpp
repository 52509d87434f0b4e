// A minimal pretty-printing JSON writer for summary.json: escaped strings, round-trip numbers,
// and null for non-finite numbers (which JSON cannot express).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace fdsolve::output {

/// JSON string literal for `text`, quotes included.
std::string json_string(std::string_view text);

/// JSON number for `value` (%.17g), or null when it is NaN or infinite.
std::string json_number(double value);

/// Builds one JSON document; containers are opened and closed in order, members need a key.
class JsonWriter {
 public:
  void begin_object(std::string_view key = {});
  void end_object();
  void begin_array(std::string_view key = {});
  void end_array();

  void value(std::string_view key, std::string_view text);
  void value(std::string_view key, const char* text) { value(key, std::string_view(text)); }
  void value(std::string_view key, double number);
  void value(std::string_view key, std::int64_t number);
  void value(std::string_view key, int number) { value(key, std::int64_t{number}); }
  void value(std::string_view key, bool flag);

  /// The document, ending in a newline.
  std::string str() const { return out_ + "\n"; }

 private:
  // Starts a member: comma after a sibling, newline, indentation, and `"key": ` in objects.
  void start_item(std::string_view key);
  void close(char bracket);

  std::string out_;
  int depth_ = 0;
  bool first_in_container_ = true;
};

}  // namespace fdsolve::output
