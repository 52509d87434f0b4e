// The built-in kernel choice tables: the sweep variant per size class, precision and stencil
// class on each GPU, used when no tune cache matches (kernel_choice.hpp).
//
// Where each entry comes from (docs/performance.md, "Variants by size and GPU"):
//  - measured: the H100 2D rows at 257^2, 1025^2 and 4097^2 double (whole runs of the plate,
//    2026-11-22: plain 3.9 / 5.2 / 6.5 / 103 us per sweep against 18-23 / 123 us for rows128g4,
//    115 us for rows256g2); the H100 3D float at 512^3 (vmarch4p1 81.0% of copy against 77.5%
//    for vring16s3); the H200 at 16384^2 and 512^3 (bench, 2026-11-21: rows128g4 float,
//    rows256g2 double, vring16s3 both).
//  - provisional (no device was lent when the size ladder was built): every other rung keeps
//    the measured neighbour's variant (same GPU, nearest size), or the H100's where the H200
//    has no small-size measurement. `fdsolve tune` measures them all on the device at hand;
//    `fdsolve bench --sizes` prints the default beside the best at every rung.
#include "kernel_choice.hpp"

namespace fdsolve {

namespace {

/// One GPU's table from its per-rung choices: 2D (5-point) float and double, 3D float and
/// double (7- and 27-point alike: the vector marches compute both with the same loads).
std::vector<ChoiceEntry> table(const char* const (&f2)[4], const char* const (&d2)[4],
                               const char* const (&f3)[4], const char* const (&d3)[4]) {
  std::vector<ChoiceEntry> t;
  const auto s2 = size_ladder(2), s3 = size_ladder(3);
  for (int i = 0; i < 4; ++i) {
    t.push_back({2, 5, "float", s2[i], f2[i], 0});
    t.push_back({2, 5, "double", s2[i], d2[i], 0});
    for (int points : {7, 27}) {
      t.push_back({3, points, "float", s3[i], f3[i], 0});
      t.push_back({3, points, "double", s3[i], d3[i], 0});
    }
  }
  return t;
}

}  // namespace

const std::vector<BuiltinTable>& builtin_tables() {
  // Rungs: 2D 257^2, 1025^2, 4097^2, 16384^2; 3D 65^3, 129^3, 257^3, 512^3.
  static const std::vector<BuiltinTable> tables = {
      {"H100", table({"plain", "plain", "rows128g4", "rows128g4"},   // 257, 1025 measured
                     {"plain", "plain", "plain", "rows256g2"},       // 257-4097 measured
                     {"vring16s3", "vring16s3", "vmarch4p1", "vmarch4p1"},  // 512 measured
                     {"vring16s3", "vring16s3", "vring16s3", "vring16s3"})},
      {"H200", table({"plain", "plain", "rows128g4", "rows128g4"},   // 16384 measured
                     {"plain", "plain", "plain", "rows256g2"},       // 16384 measured
                     {"vring16s3", "vring16s3", "vring16s3", "vring16s3"},  // 512 measured
                     {"vring16s3", "vring16s3", "vring16s3", "vring16s3"})},  // 512 measured
  };
  return tables;
}

}  // namespace fdsolve
