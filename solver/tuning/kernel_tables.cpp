// The built-in kernel choice tables: the sweep variant per size class, precision and stencil
// class on each GPU, used when no tune cache matches (kernel_choice.hpp).
//
// Every entry is measured: the winners of `fdsolve bench --sizes --backend cuda` (recorded
// blocks of sweeps, median of 3 repetitions, launch overhead included) on an NVIDIA H100 80GB
// HBM3 and an NVIDIA H200, turned into these lists by tools/sizes_table.py. The runs and their
// winners: docs/performance.md, "Size ladder: the best variant per size";
// docs/performance-history.md, "Size ladder: measured", shows both with the default beside the
// best at every rung.
#include "kernel_choice.hpp"

namespace fdsolve {

namespace {

using Rungs = const char* const (&)[4];

/// One GPU's table from its per-rung choices: 2D 5-point float and double, 3D 7-point float
/// and double, 3D 27-point float and double (19 points are keyed with 27: the same kernels).
std::vector<ChoiceEntry> table(Rungs f2, Rungs d2, Rungs f7, Rungs d7, Rungs f27, Rungs d27) {
  std::vector<ChoiceEntry> t;
  const auto s2 = size_ladder(2), s3 = size_ladder(3);
  for (int i = 0; i < 4; ++i) {
    t.push_back({2, 5, "float", s2[i], f2[i], 0});
    t.push_back({2, 5, "double", s2[i], d2[i], 0});
    t.push_back({3, 7, "float", s3[i], f7[i], 0});
    t.push_back({3, 7, "double", s3[i], d7[i], 0});
    t.push_back({3, 27, "float", s3[i], f27[i], 0});
    t.push_back({3, 27, "double", s3[i], d27[i], 0});
  }
  return t;
}

}  // namespace

const std::vector<BuiltinTable>& builtin_tables() {
  // Rungs: 2D 257^2, 1025^2, 4097^2, 16384^2; 3D 65^3, 129^3, 257^3, 512^3.
  static const std::vector<BuiltinTable> tables = {
      {"H100", table({"plain", "rows256g2", "rows256g2", "rows64g4"},     // 2D float
                     {"plain", "plain", "plain", "rows256g2"},            // 2D double
                     {"plain", "plain", "vmarch4p1", "vmarch4p1"},        // 3D 7-point float
                     {"plain", "vring8s3", "plain", "plain"},             // 3D 7-point double
                     {"plain", "vmarch4p1", "vmarch4p1", "vmarch4p1"},    // 3D 27-point float
                     {"plain", "vring8s3", "vmarch4p1", "vmarch4p1"})},  // 3D 27-point double
      {"H200", table({"plain", "rows128g4", "rows256g2", "rows128g4"},    // 2D float
                     {"plain", "plain", "plain", "rows256g2"},            // 2D double
                     {"plain", "plain", "vring8s3", "vring16s3"},         // 3D 7-point float
                     {"plain", "plain", "plain", "plain"},                // 3D 7-point double
                     {"plain", "vmarch4p1", "vring8s3", "vring16s3"},     // 3D 27-point float
                     {"plain", "vring4s3", "vring16s3", "vring16s3"})},  // 3D 27-point double
  };
  return tables;
}

}  // namespace fdsolve
