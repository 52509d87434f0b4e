// The cycles as sequences of backend operations (see cycles.hpp).
#include "cycles.hpp"

#include <algorithm>

namespace fdsolve::multigrid {
namespace {

/// The variant coarse levels sweep with where the backend has it: the tiled variants are tuned
/// for 16384^2 and measured slower than "plain" at every size up to 4097^2 on an H100 (4x up
/// to 1025^2; docs/performance.md), and coarse levels are at most a quarter of the fine grid.
constexpr const char* kCoarseVariant = "plain";

/// Homogeneous ghost rules of a grid's faces: zero-gradient mirrors and periodic wraps.
template <typename T>
HaloFillArgs<T> homogeneous_rules(const LevelGeometry& g, const Layout& L) {
  HaloFillArgs<T> a;
  a.layout = L;
  for (int f = 0; f < 2 * g.dims; ++f) {
    if (g.faces[f] == BoundaryType::Neumann) a.faces[f].rule = GhostRule::Mirror;
    if (g.faces[f] == BoundaryType::Periodic) a.faces[f].rule = GhostRule::Wrap;
  }
  return a;
}

}  // namespace

bool fused_restriction_pays(const std::string& backend_name, int dims) {
  return backend_name == "cuda" && dims == 2;
}

template <typename T>
Cycles<T>::Cycles(std::vector<LevelGeometry> levels, const CycleSettings& settings,
                  Backend<T>& backend, KernelId fine_kernel, FineHalo fine_halo)
    : levels_(std::move(levels)),
      settings_(settings),
      backend_(backend),
      fine_halo_(std::move(fine_halo)) {
  const auto names = backend.kernels(levels_[0].dims);
  const bool has_plain = std::find(names.begin(), names.end(), kCoarseVariant) != names.end();
  for (std::size_t l = 0; l < levels_.size(); ++l) {
    const LevelGeometry& g = levels_[l];
    layout_.push_back(g.layout(sizeof(T)));
    homogeneous_.push_back(homogeneous_rules<T>(g, layout_[l]));
    kernel_.push_back(l > 0 && has_plain ? backend.find_kernel(g.dims, kCoarseVariant)
                                         : fine_kernel);
    x_.emplace_back();
    next_.emplace_back();
    rhs_.emplace_back();
    if (l == 0) continue;
    // Dirichlet nodes of corrections stay zero: sweeps write only the box, fills only the halo.
    for (auto* b : {&x_[l], &next_[l], &rhs_[l]}) {
      *b = backend.allocate(layout_[l].size);
      backend.zero(*b);
    }
  }
  set_shift(settings.alpha, settings.beta);
}

template <typename T>
void Cycles<T>::set_shift(double alpha, double beta) {
  settings_.alpha = alpha;
  settings_.beta = beta;
  ops_.clear();
  for (const LevelGeometry& g : levels_) ops_.push_back(level_operator(g, alpha, beta));
  bottom_ = bottom_solve(levels_.back(), ops_.back(), alpha, beta, settings_.bottom_reduction);
}

template <typename T>
std::size_t Cycles<T>::coarse_bytes(const std::vector<LevelGeometry>& levels) {
  std::size_t bytes = 0;
  for (std::size_t l = 1; l < levels.size(); ++l)
    bytes += 3 * static_cast<std::size_t>(levels[l].layout(sizeof(T)).size) * sizeof(T);
  return bytes;
}

template <typename T>
void Cycles<T>::set_fine_rhs(const T* g_field, double g_constant) {
  fine_rhs_ = g_field;
  fine_rhs_constant_ = g_field ? 0.0 : g_constant;
}

template <typename T>
const T* Cycles<T>::rhs(int level) const {
  return level == 0 ? fine_rhs_ : rhs_[level].data();
}

template <typename T>
SweepArgs<T> Cycles<T>::sweep_args(int level, const StencilWeights& w, const Buffer<T>& in,
                                   Buffer<T>& out, const T* source) const {
  SweepArgs<T> a;
  a.in = in.data();
  a.out = out.data();
  a.source_field = source;
  a.layout = layout_[level];
  a.box = levels_[level].box;
  a.weights = w;
  if (!source) a.weights.source = fine_rhs_constant_;  // only the fine level has no g field
  return a;
}

template <typename T>
void Cycles<T>::fill_boundary(int level, Buffer<T>& x) {
  if (level == 0)
    fine_halo_(x);
  else
    fill_homogeneous(level, x);
}

template <typename T>
void Cycles<T>::fill_homogeneous(int level, Buffer<T>& x) {
  HaloFillArgs<T> a = homogeneous_[level];
  if (!a.any()) return;
  a.field = x.data();
  backend_.fill_halo(a);
}

template <typename T>
void Cycles<T>::smooth(int level, Buffer<T>& x, Buffer<T>& next, int sweeps) {
  for (int s = 0; s < sweeps; ++s) {
    fill_boundary(level, x);
    backend_.sweep(sweep_args(level, ops_[level].smooth, x, next, rhs(level)), kernel_[level]);
    x.swap(next);
  }
}

template <typename T>
void Cycles<T>::restrict_residual(int level, Buffer<T>& x, Buffer<T>& scratch) {
  fill_boundary(level, x);
  if (settings_.fuse_residual_restriction) {
    ResidualRestrictArgs<T> a;
    a.u = x.data();
    a.g = rhs(level);
    a.g_constant = a.g ? 0.0 : fine_rhs_constant_;
    a.residual = ops_[level].residual;
    for (int f = 0; f < 6; ++f) a.rules[f] = homogeneous_[level].faces[f].rule;
    a.to = rhs_[level + 1].data();
    a.fine = layout_[level];
    a.coarse = layout_[level + 1];
    a.box = levels_[level + 1].box;
    a.scale = ops_[level].diag / ops_[level + 1].diag;
    backend_.restrict_residual(a);
    return;
  }
  backend_.sweep(sweep_args(level, ops_[level].residual, x, scratch, rhs(level)), kernel_[level]);
  // The coarse nodes next to a Neumann or periodic face weigh residuals beyond it: mirrored
  // (the symmetric extension of the boundary rows) or wrapped.
  fill_homogeneous(level, scratch);
  restrict_field(level, scratch);
}

template <typename T>
void Cycles<T>::restrict_rhs(int level) {
  fill_homogeneous(level, rhs_[level]);
  restrict_field(level, rhs_[level]);
}

template <typename T>
void Cycles<T>::restrict_field(int level, const Buffer<T>& from) {
  TransferArgs<T> t;
  t.from = from.data();
  t.to = rhs_[level + 1].data();
  t.fine = layout_[level];
  t.coarse = layout_[level + 1];
  t.box = levels_[level + 1].box;
  // g = (omega / diag) f on both levels: g_c = (omega / diag_c) R f = (diag / diag_c) R g.
  t.scale = ops_[level].diag / ops_[level + 1].diag;
  backend_.restrict_to_coarse(t);
}

template <typename T>
void Cycles<T>::correct(int level, Buffer<T>& x, bool cubic) {
  TransferArgs<T> t;
  t.from = x_[level + 1].data();
  t.to = x.data();
  t.fine = layout_[level];
  t.coarse = layout_[level + 1];
  t.box = levels_[level].box;
  if (cubic) {  // folds the coarse field itself: no halo needed
    for (int f = 0; f < 6; ++f) t.rules[f] = homogeneous_[level + 1].faces[f].rule;
    backend_.prolong_cubic_add(t);
    return;
  }
  fill_homogeneous(level + 1, x_[level + 1]);  // the wrap a periodic axis's last node reads
  backend_.prolong_add(t);
}

template <typename T>
void Cycles<T>::coarse_correction(int level) {
  visit(level + 1, true);
  if (settings_.spec.cycle == CycleKind::W && level + 1 != coarsest()) visit(level + 1, false);
}

template <typename T>
void Cycles<T>::visit(int level, bool fresh) {
  if (fresh) backend_.zero(x_[level]);
  if (level == coarsest()) {
    smooth(level, x_[level], next_[level], bottom_.sweeps);
    return;
  }
  smooth(level, x_[level], next_[level], settings_.spec.pre_smooth);
  restrict_residual(level, x_[level], next_[level]);
  coarse_correction(level);
  correct(level, x_[level]);
  smooth(level, x_[level], next_[level], settings_.spec.post_smooth);
}

template <typename T>
void Cycles<T>::finish_fine(Buffer<T>& u, Buffer<T>& next, int pre_done) {
  if (coarsest() == 0) {  // no coarser grid: the cycle is the bottom solve on the fine grid
    smooth(0, u, next, std::max(0, bottom_.sweeps - pre_done));
    return;
  }
  smooth(0, u, next, std::max(0, settings_.spec.pre_smooth - pre_done));
  restrict_residual(0, u, next);
  coarse_correction(0);
  correct(0, u);
  smooth(0, u, next, settings_.spec.post_smooth);
}

template <typename T>
SweepStats Cycles<T>::probe(Buffer<T>& u, Buffer<T>& next) {
  fill_boundary(0, u);
  return backend_.sweep_with_stats(sweep_args(0, ops_[0].smooth, u, next, rhs(0)), kernel_[0]);
}

template <typename T>
void Cycles<T>::finish_cycle(Buffer<T>& u, Buffer<T>& next) {
  u.swap(next);
  finish_fine(u, next, 1);
}

template <typename T>
void Cycles<T>::cycle(Buffer<T>& u, Buffer<T>& next) {
  finish_fine(u, next, 0);
}

template <typename T>
void Cycles<T>::full_multigrid(Buffer<T>& u, Buffer<T>& next) {
  if (coarsest() == 0) return cycle(u, next);
  // Descend: the fine residual, then its restriction to every coarser level.
  restrict_residual(0, u, next);
  for (int l = 1; l < coarsest(); ++l) restrict_rhs(l);
  // Ascend: solve the coarsest, interpolate each solution up as the next level's start.
  visit(coarsest(), true);
  // Each level's solution interpolated up (linearly, or cubically with settings.cubic_fmg)
  // as the start of the next finer level's cycle.
  for (int l = coarsest() - 1; l >= 1; --l) {
    backend_.zero(x_[l]);
    correct(l, x_[l], settings_.cubic_fmg);
    visit(l, false);
  }
  correct(0, u, settings_.cubic_fmg);
  cycle(u, next);
}

template class Cycles<float>;
template class Cycles<double>;

}  // namespace fdsolve::multigrid
