// The cycles as sequences of backend operations (see cycles.hpp).
#include "cycles.hpp"

#include <algorithm>
#include <stdexcept>

#include "parallel/field_gather.hpp"

namespace fdsolve::multigrid {
namespace {

/// The variant coarse levels sweep with where the backend has it: the tiled variants are tuned
/// for 16384^2 and measured slower than "plain" at every size up to 4097^2 on an H100 (4x up
/// to 1025^2; docs/performance.md), and coarse levels are at most a quarter of the fine grid.
constexpr const char* kCoarseVariant = "plain";

/// The whole grid `g` as one rank's box.
Subdomain whole_of(const LevelGeometry& g) {
  Subdomain s;
  s.global = s.n = g.n;
  return s;
}

/// The nodes of `sub` a sweep of grid `g` updates, in its local indices: Dirichlet nodes out
/// where the box touches a Dirichlet face of the grid.
Box local_box(const LevelGeometry& g, const Subdomain& sub) {
  Box b{{0, 0, 0}, {1, 1, 1}};
  for (int a = 0; a < g.dims; ++a) {
    const auto fixed = [&](int face) {
      return sub.physical(face) && g.faces[face] == BoundaryType::Dirichlet;
    };
    b.lo[a] = fixed(2 * a) ? 1 : 0;
    b.hi[a] = sub.n[a] - (fixed(2 * a + 1) ? 1 : 0);
  }
  return b;
}

/// Homogeneous ghost rules of the faces of `sub` on the grid's boundary: zero-gradient mirrors
/// and periodic wraps (faces between ranks are filled by the exchange).
template <typename T>
HaloFillArgs<T> homogeneous_rules(const LevelGeometry& g, const Layout& L, const Subdomain& sub) {
  HaloFillArgs<T> a;
  a.layout = L;
  for (int f = 0; f < 2 * g.dims; ++f) {
    if (!sub.physical(f)) continue;
    if (g.faces[f] == BoundaryType::Neumann) a.faces[f].rule = GhostRule::Mirror;
    if (g.faces[f] == BoundaryType::Periodic) a.faces[f].rule = GhostRule::Wrap;
  }
  return a;
}

Layout layout_of(int dims, const std::array<index_t, 3>& n, std::size_t value_size) {
  return Layout::make(dims, n, static_cast<index_t>(128 / value_size));
}

}  // namespace

bool fused_restriction_pays(const std::string& backend_name, int dims) {
  return backend_name == "cuda" && dims == 2;
}

template <typename T>
Cycles<T>::Cycles(std::vector<LevelGeometry> levels, const CycleSettings& settings,
                  Backend<T>& backend, KernelId fine_kernel, FineHalo fine_halo,
                  const LevelRanks& ranks)
    : levels_(std::move(levels)),
      settings_(settings),
      backend_(backend),
      fine_halo_(std::move(fine_halo)) {
  const bool several = ranks.comm.several() && ranks.split;
  if (several) {
    comm_ = ranks.comm;
    split_ = ranks.split->level;
  }
  gather_ = several ? ranks.split->gather : static_cast<int>(levels_.size());
  // Cubic interpolation reads two coarse nodes beyond the fine node's cell: more than the
  // one-node halo of a rank's box holds.
  if (several && settings.cubic_fmg)
    throw std::invalid_argument(
        "cubic full-multigrid interpolation does not run over several ranks");
  const auto names = backend.kernels(levels_[0].dims);
  const bool has_plain = std::find(names.begin(), names.end(), kCoarseVariant) != names.end();
  for (std::size_t l = 0; l < levels_.size(); ++l) {
    const int level = static_cast<int>(l);
    const LevelGeometry& g = levels_[l];
    const Subdomain sub = split(level) ? split_[l].sub : whole_of(g);
    layout_.push_back(layout_of(g.dims, sub.n, sizeof(T)));
    box_.push_back(local_box(g, sub));
    homogeneous_.push_back(homogeneous_rules<T>(g, layout_[l], sub));
    halo_.push_back(split(level)
                        ? std::make_unique<HaloExchange<T>>(layout_[l], backend, comm_, split_[l])
                        : nullptr);
    kernel_.push_back(l > 0 && has_plain ? backend.find_kernel(g.dims, kCoarseVariant)
                                         : fine_kernel);
    x_.emplace_back();
    next_.emplace_back();
    rhs_.emplace_back();
    if (l == 0 || !here(level)) continue;
    // Dirichlet nodes of corrections stay zero: sweeps write only the box, fills only the halo.
    for (auto* b : {&x_[l], &next_[l], &rhs_[l]}) {
      *b = backend.allocate(layout_[l].size);
      backend.zero(*b);
    }
  }
  if (several && gather_ < static_cast<int>(levels_.size())) {
    const LevelGeometry& g = levels_[gather_];
    const Subdomain& sub = split_[gather_].sub;
    copy_layout_ = layout_of(g.dims, sub.n, sizeof(T));
    copy_box_ = local_box(g, sub);
    copy_rules_ = homogeneous_rules<T>(g, copy_layout_, sub);
    copy_halo_ = std::make_unique<HaloExchange<T>>(copy_layout_, backend, comm_, split_[gather_]);
    for (auto* b : {&copy_rhs_, &copy_x_}) {
      *b = backend.allocate(copy_layout_.size);
      backend.zero(*b);
    }
    const index_t packed = std::max(sub.n[0] * sub.n[1] * sub.n[2],
                                    comm_.root() ? layout_[gather_].owned_cells() : index_t(0));
    packed_ = backend.allocate(packed);
  }
  set_shift(settings.alpha, settings.beta);
}

template <typename T>
Cycles<T>::~Cycles() = default;

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
std::size_t Cycles<T>::coarse_bytes(const std::vector<LevelGeometry>& levels,
                                    const parallel::LevelSplit& split, int rank) {
  const auto bytes = [&](const std::array<index_t, 3>& n) {
    return static_cast<std::size_t>(layout_of(levels[0].dims, n, sizeof(T)).size) * sizeof(T);
  };
  std::size_t total = 0;
  for (int l = 1; l < static_cast<int>(levels.size()); ++l) {
    if (split.split(l))
      total += 3 * bytes(split.level[l].subdomain_of(rank).n);
    else if (rank == 0)
      total += 3 * bytes(levels[l].n);
  }
  if (split.gather < static_cast<int>(levels.size())) {
    const std::array<index_t, 3> n = split.level[split.gather].subdomain_of(rank).n;
    const index_t owned = n[0] * n[1] * n[2];
    const LevelGeometry& g = levels[split.gather];
    total += 2 * bytes(n) +
             static_cast<std::size_t>(std::max(owned, rank == 0 ? g.cells() : 0)) * sizeof(T);
  }
  return total;
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
  a.box = box_[level];
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
  fill_and_exchange(homogeneous_[level], halo_[level].get(), x);
}

template <typename T>
void Cycles<T>::fill_and_exchange(HaloFillArgs<T> rules, HaloExchange<T>* halo, Buffer<T>& x) {
  rules.field = x.data();
  if (!halo || !halo->active()) {
    if (rules.any()) backend_.fill_halo(rules);
    return;
  }
  // One axis at a time: its physical ghosts, then its exchange, which carries the earlier
  // axes' halo along (edges and corners as on one rank).
  for (int axis = 0; axis < rules.layout.dims; ++axis) {
    HaloFillArgs<T> one = rules;
    for (int face = 0; face < 6; ++face)
      if (face / 2 != axis) one.faces[face] = GhostFace<T>{};
    if (one.any()) backend_.fill_halo(one);
    halo->exchange_axis(x, axis);
  }
}

template <typename T>
Buffer<T>& Cycles<T>::coarse_rhs(int level) {
  return level + 1 == gather_ ? copy_rhs_ : rhs_[level + 1];
}

template <typename T>
const Layout& Cycles<T>::coarse_layout(int level) const {
  return level + 1 == gather_ ? copy_layout_ : layout_[level + 1];
}

template <typename T>
const Box& Cycles<T>::coarse_box(int level) const {
  return level + 1 == gather_ ? copy_box_ : box_[level + 1];
}

template <typename T>
void Cycles<T>::gather_rhs() {
  const Box owned = copy_layout_.owned_box();
  backend_.pack_box(copy_rhs_, copy_layout_, owned, packed_);
  mine_.resize(static_cast<std::size_t>(owned.cells()));
  backend_.download(mine_.data(), packed_, owned.cells());
  const std::vector<T> whole = parallel::gather_field(comm_, split_[gather_], mine_);
  if (comm_.root())
    backend_.write_box(rhs_[gather_], layout_[gather_], layout_[gather_].owned_box(), whole.data());
}

template <typename T>
void Cycles<T>::scatter_correction() {
  std::vector<T> blocks;
  std::vector<std::size_t> bytes;
  if (comm_.root()) {
    const Box owned = layout_[gather_].owned_box();
    backend_.pack_box(x_[gather_], layout_[gather_], owned, packed_);
    whole_.resize(static_cast<std::size_t>(owned.cells()));
    backend_.download(whole_.data(), packed_, owned.cells());
    blocks = parallel::split_field(split_[gather_], whole_, bytes);
  }
  const Box owned = copy_layout_.owned_box();
  mine_.resize(static_cast<std::size_t>(owned.cells()));
  comm_.scatter_from_root(blocks.data(), bytes, mine_.data(), mine_.size() * sizeof(T));
  backend_.write_box(copy_x_, copy_layout_, owned, mine_.data());
}

template <typename T>
void Cycles<T>::smooth(int level, Buffer<T>& x, Buffer<T>& next, int sweeps) {
  if (!here(level)) return;
  for (int s = 0; s < sweeps; ++s) {
    fill_boundary(level, x);
    backend_.sweep(sweep_args(level, ops_[level].smooth, x, next, rhs(level)), kernel_[level]);
    x.swap(next);
  }
}

template <typename T>
void Cycles<T>::restrict_residual(int level, Buffer<T>& x, Buffer<T>& scratch) {
  fill_boundary(level, x);
  // The fused kernel computes residuals one node beyond the coarse node's cell, which on a
  // split level lie a node beyond the halo: split levels restrict the residual field.
  if (settings_.fuse_residual_restriction && !split(level)) {
    ResidualRestrictArgs<T> a;
    a.u = x.data();
    a.g = rhs(level);
    a.g_constant = a.g ? 0.0 : fine_rhs_constant_;
    a.residual = ops_[level].residual;
    for (int f = 0; f < 6; ++f) a.rules[f] = homogeneous_[level].faces[f].rule;
    a.to = coarse_rhs(level).data();
    a.fine = layout_[level];
    a.coarse = coarse_layout(level);
    a.box = coarse_box(level);
    a.scale = ops_[level].diag / ops_[level + 1].diag;
    backend_.restrict_residual(a);
    if (level + 1 == gather_) gather_rhs();
    return;
  }
  backend_.sweep(sweep_args(level, ops_[level].residual, x, scratch, rhs(level)), kernel_[level]);
  // The coarse nodes next to a Neumann or periodic face weigh residuals beyond it: mirrored
  // (the symmetric extension of the boundary rows) or wrapped; next to another rank's box,
  // its residuals, exchanged.
  fill_homogeneous(level, scratch);
  restrict_field(level, scratch);
}

template <typename T>
void Cycles<T>::restrict_rhs(int level) {
  if (!here(level)) return;
  fill_homogeneous(level, rhs_[level]);
  restrict_field(level, rhs_[level]);
}

template <typename T>
void Cycles<T>::restrict_field(int level, const Buffer<T>& from) {
  TransferArgs<T> t;
  t.from = from.data();
  t.to = coarse_rhs(level).data();
  t.fine = layout_[level];
  t.coarse = coarse_layout(level);
  t.box = coarse_box(level);
  // g = (omega / diag) f on both levels: g_c = (omega / diag_c) R f = (diag / diag_c) R g.
  t.scale = ops_[level].diag / ops_[level + 1].diag;
  backend_.restrict_to_coarse(t);
  if (level + 1 == gather_) gather_rhs();
}

template <typename T>
void Cycles<T>::correct(int level, Buffer<T>& x, bool cubic) {
  const bool from_copy = level + 1 == gather_;
  if (from_copy) scatter_correction();
  Buffer<T>& coarse = from_copy ? copy_x_ : x_[level + 1];
  TransferArgs<T> t;
  t.from = coarse.data();
  t.to = x.data();
  t.fine = layout_[level];
  t.coarse = from_copy ? copy_layout_ : layout_[level + 1];
  t.box = box_[level];
  if (cubic) {  // folds the coarse field itself: no halo needed (whole levels only)
    for (int f = 0; f < 6; ++f) t.rules[f] = homogeneous_[level + 1].faces[f].rule;
    backend_.prolong_cubic_add(t);
    return;
  }
  // The wrap a periodic axis's last node reads, and the next rank's first coarse node.
  if (from_copy)
    fill_and_exchange(copy_rules_, copy_halo_.get(), copy_x_);
  else
    fill_homogeneous(level + 1, x_[level + 1]);
  backend_.prolong_add(t);
}

template <typename T>
void Cycles<T>::coarse_correction(int level) {
  visit(level + 1, true);
  if (settings_.spec.cycle == CycleKind::W && level + 1 != coarsest()) visit(level + 1, false);
}

template <typename T>
void Cycles<T>::visit(int level, bool fresh) {
  if (!here(level)) return;  // a gathered level: rank 0 alone
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
    if (!here(l)) continue;
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
