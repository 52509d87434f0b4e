// `fdsolve bench --sizes`: the size ladder's measurements with, per rung, the variant `run`
// would choose (kernel_choice.hpp) beside the fastest one measured.
#include <fmt/format.h>

#include "bench.hpp"
#include "tuning/kernel_ladder.hpp"

namespace fdsolve {

void write_bench_json(const std::vector<BenchRow>& rows, const std::string& path);

namespace {

BenchRow bench_row(const LadderRow& l, const std::string& backend, double copy_gb_per_s) {
  BenchRow r;
  r.backend = backend;
  r.kernel = l.kernel;
  r.dims = l.dims;
  r.precision = l.precision;
  r.size = l.size;
  r.iterations = static_cast<int>(l.sweeps);
  r.gcells_per_s = l.gcells_per_s;
  r.gb_per_s = l.gcells_per_s * 2 * (l.precision == "float" ? 4 : 8);
  r.pct_copy = l.pct_copy;
  r.copy_gb_per_s = copy_gb_per_s;
  r.points = l.points;
  r.us_per_sweep = l.us_per_sweep;
  return r;
}

}  // namespace

std::vector<BenchRow> run_size_bench(const BenchOptions& options, std::ostream& out) {
  std::vector<BenchRow> rows;
  for (const std::string backend : {"cuda", "cpu"}) {
    if (!options.backend.empty() && options.backend != backend) continue;
    if (backend == std::string("cuda") && cuda_device_count() == 0) {
      out << "# cuda: skipped: " << cuda_unavailable_reason() << "\n";
      continue;
    }
    LadderOptions lo;
    lo.backend = backend;
    lo.dims = options.dims;
    lo.precision = options.precision;
    lo.kernel = options.kernel;
    lo.size = options.size;
    const LadderResult result = measure_ladder(lo, nullptr);
    out << fmt::format("# {}: {}, copy bandwidth {:.1f} GB/s (read + write)\n", backend,
                       result.device, result.copy_gb_per_s);
    out << fmt::format("{:<7} {:>4} {:>6} {:<9} {:>6} {:<13} {:<12} {:>9} {:>8} {:>7}  {}\n",
                       "backend", "dims", "points", "precision", "size", "role", "kernel",
                       "us/sweep", "Gcell/s", "%copy", "why the default");
    // Rows arrive grouped by rung; each group gets its default and its best.
    for (std::size_t begin = 0; begin < result.rows.size();) {
      const LadderRow& first = result.rows[begin];
      std::size_t end = begin;
      std::size_t best = begin;
      while (end < result.rows.size() && result.rows[end].dims == first.dims &&
             result.rows[end].points == first.points &&
             result.rows[end].precision == first.precision && result.rows[end].size == first.size) {
        if (result.rows[end].us_per_sweep < result.rows[best].us_per_sweep) best = end;
        ++end;
      }
      const std::int64_t inner = first.size - 2;
      const ChoiceKey key{first.dims, first.points, first.precision,
                          first.dims == 2 ? inner * inner : inner * inner * inner};
      const KernelChoice chosen =
          choose_with_cache("", key, backend, result.identity, result.kernels2d, result.kernels3d,
                            first.dims == 2 ? result.fallback2d : result.fallback3d);
      for (std::size_t i = begin; i < end; ++i) {
        BenchRow r = bench_row(result.rows[i], backend, result.copy_gb_per_s);
        const bool is_default = r.kernel == chosen.kernel, is_best = i == best;
        r.role = is_default && is_best ? "default+best"
                 : is_default          ? "default"
                 : is_best             ? "best"
                                       : "";
        r.reason = is_default ? chosen.reason : "";
        if (!r.role.empty())
          out << fmt::format(
              "{:<7} {:>4} {:>6} {:<9} {:>6} {:<13} {:<12} {:>9.2f} {:>8.2f} {:>7.1f}  {}\n",
              r.backend, r.dims, r.points, r.precision, r.size, r.role, r.kernel, r.us_per_sweep,
              r.gcells_per_s, r.pct_copy, r.reason);
        rows.push_back(r);
      }
      if (std::none_of(result.rows.begin() + begin, result.rows.begin() + end,
                       [&](const LadderRow& l) { return l.kernel == chosen.kernel; }))
        out << fmt::format("# {} {}D {}-point {} {}: default {} not measured\n", backend,
                           first.dims, first.points, first.precision,
                           size_text(first.dims, first.size), chosen.kernel);
      out << std::flush;
      begin = end;
    }
  }
  if (!options.json_path.empty()) write_bench_json(rows, options.json_path);
  return rows;
}

}  // namespace fdsolve
