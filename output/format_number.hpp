// Round-trip number formatting shared by the text writers (CSV, JSON, XDMF): %.17g, so a value
// read back with strtod is bit-identical to the one written.
#pragma once

#include <cstdio>
#include <string>

namespace fdsolve::output {

inline std::string format_double(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.17g", value);
  return buffer;
}

}  // namespace fdsolve::output
