// Implements the small JSON writer of json_writer.hpp.
#include "json_writer.hpp"

#include <cmath>
#include <cstdio>

#include "format_number.hpp"

namespace fdsolve::output {

std::string json_string(std::string_view text) {
  std::string out = "\"";
  for (const char c : text) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\f':
        out += "\\f";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buffer[8];
          std::snprintf(buffer, sizeof buffer, "\\u%04x", static_cast<unsigned>(c));
          out += buffer;
        } else {
          out += c;  // UTF-8 bytes pass through: JSON text is UTF-8
        }
    }
  }
  return out + "\"";
}

std::string json_number(double value) {
  return std::isfinite(value) ? format_double(value) : "null";
}

void JsonWriter::start_item(std::string_view key) {
  if (depth_ > 0) {
    if (!first_in_container_) out_ += ',';
    if (compact()) {
      if (!first_in_container_) out_ += ' ';
    } else {
      out_ += '\n';
      out_.append(static_cast<size_t>(2 * depth_), ' ');
    }
  }
  first_in_container_ = false;
  if (!key.empty()) out_ += json_string(key) + ": ";
}

void JsonWriter::close(char bracket) {
  const bool empty = first_in_container_;
  const bool on_one_line = compact();
  --depth_;
  if (!empty && !on_one_line) {
    out_ += '\n';
    out_.append(static_cast<size_t>(2 * depth_), ' ');
  }
  out_ += bracket;
  first_in_container_ = false;
  if (compact_depth_ > depth_) compact_depth_ = 0;
}

void JsonWriter::open(std::string_view key, char bracket, bool compact) {
  start_item(key);
  out_ += bracket;
  ++depth_;
  first_in_container_ = true;
  if (compact && compact_depth_ == 0) compact_depth_ = depth_;
}

void JsonWriter::begin_object(std::string_view key, bool compact) { open(key, '{', compact); }

void JsonWriter::end_object() { close('}'); }

void JsonWriter::begin_array(std::string_view key, bool compact) { open(key, '[', compact); }

void JsonWriter::end_array() { close(']'); }

void JsonWriter::value(std::string_view key, std::string_view text) {
  start_item(key);
  out_ += json_string(text);
}

void JsonWriter::value(std::string_view key, double number) {
  start_item(key);
  out_ += json_number(number);
}

void JsonWriter::value(std::string_view key, std::int64_t number) {
  start_item(key);
  out_ += std::to_string(number);
}

void JsonWriter::null_value(std::string_view key) {
  start_item(key);
  out_ += "null";
}

void JsonWriter::value(std::string_view key, bool flag) {
  start_item(key);
  out_ += flag ? "true" : "false";
}

}  // namespace fdsolve::output
