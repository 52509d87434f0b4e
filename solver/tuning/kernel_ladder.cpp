// The size ladder's measurements: per rung one pair of fields with random values, every variant
// timed in recorded blocks of sweeps.
#include "kernel_ladder.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <tuple>

#include "loop/sweep_block.hpp"

namespace fdsolve {
namespace {

constexpr int kRepetitions = 3;

StencilWeights ladder_weights(int points) {
  StencilWeights w;
  w.points = points;
  if (points == 5) {
    w.face = {0.25, 0.25, 0};
  } else if (points == 7) {
    w.face = {1.0 / 6, 1.0 / 6, 1.0 / 6};
  } else {  // the 27-point Laplace weights of `fdsolve bench`
    w.face = {14.0 / 128, 14.0 / 128, 14.0 / 128};
    w.edge = 3.0 / 128;
    w.corner = 1.0 / 128;
  }
  return w;
}

/// Values in [-1, 1] everywhere, halo included (xorshift: a 2 GiB field fills in a second).
template <typename T>
std::vector<T> noise(index_t n) {
  std::vector<T> v(static_cast<std::size_t>(n));
  std::uint64_t s = 0x9E3779B97F4A7C15ull;
  for (auto& x : v) {
    s ^= s << 13, s ^= s >> 7, s ^= s << 17;
    x = static_cast<T>(static_cast<double>(s >> 11) * (2.0 / 9007199254740992.0) - 1.0);
  }
  return v;
}

/// Sweeps per repetition: about `budget` node updates, even, in [8, 4096].
std::int64_t sweeps_for(double cells, double budget) {
  const auto n = static_cast<std::int64_t>(std::clamp(budget / cells, 8.0, 4096.0));
  return n + n % 2;
}

template <typename T>
void measure_precision(const LadderOptions& o, LadderResult& result, std::ostream* progress) {
  auto be = o.backend == "cuda" ? make_cuda_backend<T>(0) : make_cpu_backend<T>();
  const std::string precision = sizeof(T) == 4 ? "float" : "double";
  const double budget = (o.backend == "cuda" ? 2e9 : 1e8) * (o.quick ? 0.1 : 1.0);
  for (int dims : {2, 3}) {
    if (o.dims != 0 && o.dims != dims) continue;
    std::vector<std::string> names = be->kernels(dims);
    if (!o.kernel.empty()) {
      if (std::find(names.begin(), names.end(), o.kernel) == names.end()) continue;
      names = {o.kernel};
    }
    const std::vector<std::int64_t> rungs =
        o.size > 0 ? std::vector<std::int64_t>{o.size} : size_ladder(dims, o.quick);
    for (std::int64_t size : rungs) {
      // Nodes per axis including the boundary, as a case's grid.points: the sweep updates the
      // inner size - 2.
      const index_t inner = size - 2;
      const Layout layout = Layout::make(dims, {inner, inner, dims == 3 ? inner : 1},
                                         static_cast<index_t>(128 / sizeof(T)));
      const std::size_t need = 2 * static_cast<std::size_t>(layout.size) * sizeof(T);
      if (be->free_memory() < need + (std::size_t{256} << 20)) {
        if (progress)
          *progress << fmt::format("# {} {} {}: skipped, needs {} bytes\n", o.backend, precision,
                                   size_text(dims, size), need);
        continue;
      }
      Buffer<T> cur = be->allocate(layout.size), next = be->allocate(layout.size);
      {
        const std::vector<T> init = noise<T>(layout.size);
        be->upload(cur, init.data(), layout.size);
        be->upload(next, init.data(), layout.size);
      }
      for (int points : dims == 2 ? std::vector<int>{5} : std::vector<int>{7, 27}) {
        SweepArgs<T> args;
        args.layout = layout;
        args.box = layout.owned_box();
        args.weights = ladder_weights(points);
        const double cells = static_cast<double>(args.box.cells());
        const std::int64_t sweeps = sweeps_for(cells, budget);
        for (const std::string& name : names) {
          SweepBlock<T> block(*be, be->find_kernel(dims, name), {});
          block.run(cur, next, args, std::min(sweeps, SweepBlock<T>::kMaxRecorded));
          be->synchronize();  // warm-up, recordings made
          std::vector<double> secs;
          for (int rep = 0; rep < kRepetitions; ++rep) {
            const auto t0 = std::chrono::steady_clock::now();
            for (std::int64_t left = sweeps; left > 0;) left -= block.run(cur, next, args, left);
            be->synchronize();
            secs.push_back(
                std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
          }
          std::sort(secs.begin(), secs.end());
          LadderRow r;
          r.dims = dims;
          r.points = points;
          r.precision = precision;
          r.size = size;
          r.kernel = name;
          r.sweeps = sweeps;
          r.us_per_sweep = 1e6 * secs[secs.size() / 2] / static_cast<double>(sweeps);
          r.gcells_per_s = cells / r.us_per_sweep / 1e3;
          r.pct_copy = 100.0 * r.gcells_per_s * 2 * sizeof(T) / result.copy_gb_per_s;
          if (progress)
            *progress << fmt::format("# {} {}D {}-point {} {}: {} {:.2f} us/sweep\n", o.backend,
                                     dims, points, precision, size_text(dims, size), name,
                                     r.us_per_sweep)
                      << std::flush;
          result.rows.push_back(r);
        }
      }
    }
  }
  if (result.kernels2d.empty()) {
    result.kernels2d = be->kernels(2);
    result.kernels3d = be->kernels(3);
    result.fallback2d = be->default_kernel(2);
    result.fallback3d = be->default_kernel(3);
  }
}

}  // namespace

LadderResult measure_ladder(const LadderOptions& o, std::ostream* progress) {
  LadderResult result;
  {
    auto be = o.backend == "cuda" ? make_cuda_backend<float>(0) : make_cpu_backend<float>();
    result.device = be->device();
    result.identity = be->identity();
    const std::size_t copy_bytes =
        (o.backend == "cuda" ? std::size_t{1} << 30 : std::size_t{1} << 28) >> (o.quick ? 4 : 0);
    result.copy_gb_per_s = be->copy_bandwidth(copy_bytes) / 1e9;
  }
  if (progress)
    *progress << fmt::format("# {}: {}, copy bandwidth {:.1f} GB/s (read + write)\n", o.backend,
                             result.device, result.copy_gb_per_s);
  if (o.precision.empty() || o.precision == "float") measure_precision<float>(o, result, progress);
  if (o.precision.empty() || o.precision == "double")
    measure_precision<double>(o, result, progress);
  return result;
}

std::vector<ChoiceEntry> ladder_winners(const std::vector<LadderRow>& rows) {
  std::map<std::tuple<int, int, std::string, std::int64_t>, const LadderRow*> best;
  std::vector<std::tuple<int, int, std::string, std::int64_t>> order;
  for (const LadderRow& r : rows) {
    const auto key = std::make_tuple(r.dims, r.points, r.precision, r.size);
    auto [it, fresh] = best.emplace(key, &r);
    if (fresh)
      order.push_back(key);
    else if (r.us_per_sweep < it->second->us_per_sweep)
      it->second = &r;
  }
  std::vector<ChoiceEntry> entries;
  for (const auto& key : order) {
    const LadderRow& r = *best.at(key);
    entries.push_back({r.dims, r.points, r.precision, r.size, r.kernel, r.us_per_sweep});
  }
  return entries;
}

}  // namespace fdsolve
