// OpenMP diagnostics: rows in fixed chunks, each reduced serially, the chunk partials merged in
// chunk order (bit-identical for any thread count); integer histograms merged per thread.
#include "diagnostics_cpu.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "thread_policy.hpp"

namespace fdsolve::cpu {
namespace {

/// Rows per chunk: the unit of work and of the fixed-order merge.
constexpr index_t kRowsPerChunk = 16;

/// One chunk's sums and extremes (counts are integers: any order gives the same total).
struct Partial {
  double sum = 0;  // of cur over owned nodes
  double min = std::numeric_limits<double>::infinity();
  double max = -std::numeric_limits<double>::infinity();
  std::int64_t nonfinite = 0;
  double sum_sq = 0;             // of d over the box
  double max_abs = 0;            // NaN once any |d| is NaN
  std::int64_t max_abs_at = -1;  // its linear owned-node index (ranks_above)

  void add_max_abs(double ad, std::int64_t at) {
    if (ranks_above(ad, at, max_abs, max_abs_at)) max_abs = ad, max_abs_at = at;
  }
  void merge(const Partial& o) {
    sum += o.sum;
    min = std::fmin(min, o.min);
    max = std::fmax(max, o.max);
    nonfinite += o.nonfinite;
    sum_sq += o.sum_sq;
    add_max_abs(o.max_abs, o.max_abs_at);
  }
};

using Histogram = std::array<std::int64_t, kHistBins>;

/// Adds owned row (j, k): every node to the range, sum and non-finite count, the nodes of
/// the box to the update statistics and `hist`.
template <typename T>
void add_row(const T* prev, const T* cur, const Layout& L, const Box& box, index_t j, index_t k,
             Partial& p, Histogram& hist) {
  const T* c = cur + L.at(0, j, k);
  for (index_t i = 0; i < L.n[0]; ++i) {
    const double v = static_cast<double>(c[i]);
    p.sum += v;
    p.min = std::fmin(p.min, v);
    p.max = std::fmax(p.max, v);
    p.nonfinite += !std::isfinite(v);
  }
  if (box.empty() || j < box.lo[1] || j >= box.hi[1] || k < box.lo[2] || k >= box.hi[2]) return;
  const T* u = prev + L.at(0, j, k);
  const std::int64_t row = (k * L.n[1] + j) * L.n[0];
  for (index_t i = box.lo[0]; i < box.hi[0]; ++i) {
    const double d = static_cast<double>(c[i]) - static_cast<double>(u[i]);
    p.sum_sq += d * d;
    p.add_max_abs(std::fabs(d), row + i);
    ++hist[update_bin(d)];
  }
}

/// The first kMaxNonfiniteLocations non-finite owned nodes in C order; `row_has` says which
/// rows hold any, so only those are scanned.
template <typename T>
std::vector<std::array<std::int64_t, 3>> locate_nonfinite(const T* cur, const Layout& L,
                                                          const std::vector<char>& row_has) {
  std::vector<std::array<std::int64_t, 3>> at;
  for (index_t r = 0; r < static_cast<index_t>(row_has.size()); ++r) {
    if (!row_has[r]) continue;
    const index_t j = r % L.n[1], k = r / L.n[1];
    const T* c = cur + L.at(0, j, k);
    for (index_t i = 0; i < L.n[0]; ++i) {
      if (std::isfinite(static_cast<double>(c[i]))) continue;
      at.push_back({i, j, k});
      if (static_cast<int>(at.size()) == kMaxNonfiniteLocations) return at;
    }
  }
  return at;
}

}  // namespace

template <typename T>
Diagnostics diagnose(const T* prev, const T* cur, const Layout& L, const Box& box) {
  check_diagnose_box(L, box);
  const index_t rows = L.n[1] * L.n[2];
  const index_t chunks = (rows + kRowsPerChunk - 1) / kRowsPerChunk;
  std::vector<Partial> parts(static_cast<std::size_t>(chunks));
  std::vector<char> row_has(static_cast<std::size_t>(rows), 0);
  Histogram hist{};

#pragma omp parallel num_threads(team_size(L.owned_cells()))
  {
    Histogram local{};
#pragma omp for schedule(static)
    for (index_t c = 0; c < chunks; ++c) {
      Partial p;
      for (index_t r = c * kRowsPerChunk; r < std::min(rows, (c + 1) * kRowsPerChunk); ++r) {
        const std::int64_t before = p.nonfinite;
        add_row(prev, cur, L, box, r % L.n[1], r / L.n[1], p, local);
        row_has[r] = p.nonfinite != before;
      }
      parts[c] = p;
    }
#pragma omp critical(fdsolve_diagnose_histogram)
    for (int b = 0; b < kHistBins; ++b) hist[b] += local[b];
  }

  Partial total;
  for (const Partial& p : parts) total.merge(p);  // chunk order: independent of threads

  Diagnostics r;
  r.nodes = L.owned_cells();
  r.min = total.min;
  r.max = total.max;
  r.nonfinite = total.nonfinite;
  if (total.nonfinite > 0) r.nonfinite_at = locate_nonfinite(cur, L, row_has);
  r.updated = box.cells();
  r.sum_sq = total.sum_sq;
  r.linf = total.max_abs;
  if (total.max_abs_at >= 0) r.linf_at = owned_node(L, total.max_abs_at);
  r.histogram = hist;
  std::int64_t running = 0;
  for (int b = 0; b < kHistBins; ++b) r.cdf[b] = running += hist[b];
  r.finish(total.sum);
  return r;
}

template Diagnostics diagnose<float>(const float*, const float*, const Layout&, const Box&);
template Diagnostics diagnose<double>(const double*, const double*, const Layout&, const Box&);

}  // namespace fdsolve::cpu
