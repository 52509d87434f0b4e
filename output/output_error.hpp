// The one exception the output module throws: every I/O or HDF5 failure, with the path involved
// and what failed, so main can report it once and exit with the runtime-failure code.
#pragma once

#include <stdexcept>
#include <string>

namespace fdsolve::output {

class OutputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace fdsolve::output
