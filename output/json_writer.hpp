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
  /// A `compact` container and everything in it is written on one line (history rows).
  void begin_object(std::string_view key = {}, bool compact = false);
  void end_object();
  void begin_array(std::string_view key = {}, bool compact = false);
  void end_array();

  void value(std::string_view key, std::string_view text);
  void value(std::string_view key, const char* text) { value(key, std::string_view(text)); }
  void value(std::string_view key, double number);
  void value(std::string_view key, std::int64_t number);
  void value(std::string_view key, int number) { value(key, std::int64_t{number}); }
  void value(std::string_view key, bool flag);
  void null_value(std::string_view key);

  /// The document, ending in a newline.
  std::string str() const { return out_ + "\n"; }

 private:
  // Starts a member: comma after a sibling, newline, indentation, and `"key": ` in objects.
  void start_item(std::string_view key);
  void close(char bracket);
  void open(std::string_view key, char bracket, bool compact);
  bool compact() const { return compact_depth_ > 0 && depth_ >= compact_depth_; }

  std::string out_;
  int depth_ = 0;
  int compact_depth_ = 0;  // depth of the outermost compact container's members; 0: none
  bool first_in_container_ = true;
};

}  // namespace fdsolve::output
