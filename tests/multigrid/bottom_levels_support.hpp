// Helpers of the bottom levels' tests (tests/unit/test_multigrid_bottom_levels.cpp on the CPU,
// tests/gpu/test_cuda_bottom_levels.cpp on CUDA): the same cycles run with the coarsest levels
// in one backend call (BottomLevelsCall::bottom_levels) or level by level, on cases that cover what the
// call must do alike: 2D 5-point and 3D 7- and 27-point stencils, every face type, node counts
// that nest and that do not, V and W cycles, full multigrid, with and without a shift.
#pragma once

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "multigrid_support.hpp"

namespace fdsolve::test {

struct BottomCase {
  std::string name;
  std::string yaml;
  int stencil = 5;
  int dims = 2;
};

/// Every face type on n^dims nodes (periodic axes: n - 1, the same spacing); `extra` is
/// appended (a solve section).
inline std::vector<BottomCase> bottom_cases(int dims, index_t n, int stencil,
                                            const std::string& extra = "") {
  std::vector<BottomCase> cases;
  for (const FaceCase& f : face_cases(dims)) {
    const std::string yaml = face_case_yaml(dims, n, stencil, f);
    cases.push_back({std::to_string(dims) + "D " + std::to_string(stencil) + "-point " + f.name +
                         " n = " + std::to_string(n) + (extra.empty() ? "" : " " + extra),
                     yaml + extra, stencil, dims});
  }
  return cases;
}

/// Both buffers of a fine field set to one random start: values in [-1, 1] on the nodes of `b`
/// (seeded by `seed`), zero elsewhere.
template <typename T>
void random_start(Backend<T>& be, const Layout& L, const Box& b, unsigned seed, Buffer<T>& cur,
                  Buffer<T>& next) {
  std::vector<T> u(static_cast<std::size_t>(L.size), T(0));
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  for (index_t k = b.lo[2]; k < b.hi[2]; ++k)
    for (index_t j = b.lo[1]; j < b.hi[1]; ++j)
      for (index_t i = b.lo[0]; i < b.hi[0]; ++i) u[L.at(i, j, k)] = static_cast<T>(unit(rng));
  be.upload(cur, u.data(), L.size);
  be.upload(next, u.data(), L.size);
}

template <typename T>
struct CycleRun {
  std::vector<double> norms;  // the fine residual before the first cycle and after each
  std::vector<T> u;           // the fine field at the end
  int first = 0;              // StencilHierarchy::bottom_levels_first()
  int levels = 0;
  std::vector<bool> blocked;  // StencilHierarchy::blocked_smoothing(level) of each level
  bool fused_correction = false;  // StencilHierarchy::fuses_correction(0)
};

/// `cycles` cycles (after full multigrid when `fmg`) from a random start with zero source and
/// boundary values, on operator alpha I - beta L, the levels of at most `bottom_cells` nodes in
/// one call (0: level by level). `fused`: the residual inside the restriction; `blocked`:
/// smoothing by blocked passes on every level that can; `fused_correction`: the correction
/// inside the first post-smoothing pass (-1 for any of them: the default).
template <typename T>
CycleRun<T> run_cycles(Backend<T>& be, const std::string& yaml, index_t bottom_cells, int cycles,
                       double alpha = 0.0, double beta = 1.0, int fused = -1, bool fmg = false,
                       int blocked = -1, int fused_correction = -1) {
  const Case c = parse_case(yaml, "t.yaml");
  const auto levels = build_hierarchy(fine_level(c));
  const Layout L = levels[0].layout(sizeof(T));
  Buffer<T> cur = be.allocate(L.size), next = be.allocate(L.size);
  random_start(be, L, levels[0].box, 11, cur, next);
  Boundaries<T> bounds(c, be, L);
  CycleSettings settings;
  settings.spec = c.solve.multigrid;
  settings.alpha = alpha;
  settings.beta = beta;
  settings.fuse_residual_restriction =
      fused < 0 ? fused_restriction_pays(be.traits(), c.grid.dims) : fused == 1;
  StencilHierarchy<T> cy(levels, settings, be, choose_kernel(c, be),
               [&](Buffer<T>& x) { bounds.before_sweep(x, x, 0, 0); });
  cy.set_bottom_levels_cells(bottom_cells);
  if (blocked >= 0) cy.set_blocked_smoothing(blocked == 1, 0);
  if (fused_correction >= 0) cy.set_fused_correction(fused_correction == 1);
  cy.set_fine_rhs(nullptr, 0.0);
  CycleRun<T> run;
  run.fused_correction = cy.fuses_correction(0);
  for (std::size_t l = 0; l < levels.size(); ++l)
    run.blocked.push_back(cy.blocked_smoothing(static_cast<int>(l)));
  run.first = cy.bottom_levels_first();
  run.levels = static_cast<int>(levels.size());
  if (fmg) cy.full_multigrid(cur, next);
  for (int k = 0; k <= cycles; ++k) {
    run.norms.push_back(scale_norms(cy.probe(cur, next), cy.residual_scale()).l2());
    if (k < cycles) cy.finish_cycle(cur, next);
  }
  run.u.resize(static_cast<std::size_t>(L.size));
  be.download(run.u.data(), cur, L.size);
  return run;
}

/// The largest difference between the residual reductions of two runs, cycle by cycle, as a
/// fraction: |(a_k / a_{k-1}) / (b_k / b_{k-1}) - 1|.
inline double reduction_gap(const std::vector<double>& a, const std::vector<double>& b) {
  double worst = 0;
  for (std::size_t k = 1; k < a.size() && k < b.size(); ++k)
    worst = std::max(worst, std::fabs((a[k] / a[k - 1]) / (b[k] / b[k - 1]) - 1.0));
  return worst;
}

/// max |a - b| / max |b| over the fine fields.
template <typename T>
double field_gap(const std::vector<T>& a, const std::vector<T>& b) {
  double diff = 0, size = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    diff = std::max(diff, std::fabs(double(a[i]) - double(b[i])));
    size = std::max(size, std::fabs(double(b[i])));
  }
  return size > 0 ? diff / size : diff;
}

}  // namespace fdsolve::test
