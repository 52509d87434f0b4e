// The cycles as sequences of backend operations (see stencil_hierarchy.hpp): construction,
// smoothing and the shape of V, W and full-multigrid cycles. The transfers and the bottom solve are
// in stencil_transfers.cpp, the work between ranks in stencil_ranks.cpp.
#include "stencil_hierarchy.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cstdlib>
#include <stdexcept>

#include "cycle_work.hpp"
#include "cycles_detail.hpp"

namespace fdsolve::multigrid {
namespace {

using detail::homogeneous_rules;
using detail::layout_of;
using detail::local_box;
using detail::whole_of;

/// The variant coarse levels sweep with where the backend has it: the tiled variants are tuned
/// for 16384^2 and measured slower than "plain" at every size up to 4097^2 on an H100 (4x up
/// to 1025^2; docs/performance-history.md); coarse levels are at most a quarter of the fine grid.
constexpr const char* kCoarseVariant = "plain";

}  // namespace

template <typename T>
StencilHierarchy<T>::StencilHierarchy(std::vector<LevelGeometry> levels,
                                      const CycleSettings& settings, Backend<T>& backend,
                                      KernelId fine_kernel, FineHalo fine_halo,
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
  chebyshev_ = uses_chebyshev(settings.spec);
  const bool gathers = gather_ < static_cast<int>(levels_.size());
  const DeviceExchange<T>* device = backend.device_exchange();
  const bool on_device = several && device && device->connected() && !backend.host_memory();
  redundant_ = gathers && redundant_coarse_levels(ranks.coarse_levels, backend);
  device_gather_ = redundant_ && on_device;
  // Every message of a cycle on the stream: the halos through the device exchange and, where
  // levels are gathered, their allgather too (no scatter: every rank runs them).
  stream_ordered_ = on_device && (!gathers || device_gather_);
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
    plan_.level.push_back(
        {l > 0 && has_plain ? backend.find_kernel(g.dims, kCoarseVariant) : fine_kernel,
         std::nullopt});
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
    const index_t packed =
        std::max(sub.n[0] * sub.n[1] * sub.n[2],
                 comm_.root() && !redundant_ ? layout_[gather_].owned_cells() : index_t(0));
    packed_ = backend.allocate(packed);
    if (device_gather_) {
      blocks_.resize(static_cast<std::size_t>(comm_.size()));
      for (int r = 0; r < comm_.size(); ++r)
        if (r != comm_.rank())
          blocks_[static_cast<std::size_t>(r)] = backend.allocate(gathered_box(r).cells());
      // The first message between two ranks sets up their connection (NCCL connects peers
      // lazily, at a cost of the order of a second): here, in the set-up, where every rank
      // builds its hierarchy in the same order, not in the first cycle or inside a recording.
      // Everything it moves is zero.
      allgather_rhs_on_device();
      backend.transfers().wait();
    }
  }
  const int last = coarsest();
  plan_.bottom_by_cg = cg_bottom_applies(levels_) && !split(last);
  if (plan_.bottom_by_cg && here(last))
    for (auto* b : {&cg_r_, &cg_p_, &cg_q_}) {
      *b = backend.allocate(layout_[last].size);
      backend.zero(*b);  // Dirichlet nodes and the halo stay zero: CG writes only the box
    }
  set_shift(settings.alpha, settings.beta);
  set_bottom_levels_cells(bottom_levels_cells(backend.traits()));
  set_blocked_smoothing(blocked_smoothing_default(backend.traits(), levels_[0].dims));
  set_fused_correction(fused_correction_default());
  if (several && comm_.root()) {
    const std::string whole =
        gathers ? fmt::format("levels {}-{} {}", gather_, coarsest(), whole_levels())
                : "every level split over the ranks";
    spdlog::info("multigrid over {} ranks: {}; {}", comm_.size(), whole,
                 recordable() ? "cycles recorded as graphs over the ranks"
                              : "cycles launched operation by operation");
  }
  if (spdlog::should_log(spdlog::level::debug))
    for (const std::string& line : describe_plan()) spdlog::debug("cycle plan: {}", line);
}

template <typename T>
StencilHierarchy<T>::~StencilHierarchy() = default;

template <typename T>
void StencilHierarchy<T>::set_shift(double alpha, double beta) {
  settings_.alpha = alpha;
  settings_.beta = beta;
  ops_.clear();
  for (const LevelGeometry& g : levels_) ops_.push_back(level_operator(g, alpha, beta));
  bottom_ = bottom_solve(levels_.back(), ops_.back(), alpha, beta, settings_.bottom_reduction);
}

template <typename T>
void StencilHierarchy<T>::set_fine_rhs(const T* g_field, double g_constant) {
  fine_rhs_ = g_field;
  fine_rhs_constant_ = g_field ? 0.0 : g_constant;
}

template <typename T>
const T* StencilHierarchy<T>::rhs(int level) const {
  return level == 0 ? fine_rhs_ : rhs_[level].data();
}

template <typename T>
SweepArgs<T> StencilHierarchy<T>::sweep_args(int level, const StencilWeights& w,
                                             const Buffer<T>& in, Buffer<T>& out,
                                             const T* source) const {
  SweepArgs<T> a;
  a.in = in.data();
  a.out = out.data();
  a.source_field = source;
  a.layout = layout_[level];
  a.box = box_[level];
  a.weights = sourced(w, source);
  return a;
}

template <typename T>
void StencilHierarchy<T>::fill_boundary(int level, Buffer<T>& x) {
  if (level == 0)
    timed(0, fill_part(0), [&] { fine_halo_(x); });
  else
    fill_homogeneous(level, x);
}

template <typename T>
void StencilHierarchy<T>::fill_homogeneous(int level, Buffer<T>& x) {
  timed(level, fill_part(level),
        [&] { fill_and_exchange(homogeneous_[level], halo_[level].get(), x); });
}

template <typename T>
void StencilHierarchy<T>::set_blocked_smoothing(bool on, index_t min_cells) {
  const int dims = levels_[0].dims;
  const auto names = backend_.step_kernels(dims);
  for (LevelPlan& l : plan_.level) l.passes.reset();
  plan_.pair_probe = false;
  // Over several ranks the halo between two sweeps comes from a neighbour.
  if (!on || comm_.several() || names.empty()) return;
  // The kernel built for smoothing passes where the backend has one, else its default blocked
  // kernel (the CPU's runs single sweeps; CUDA's 3D tiles measured slower: a measurement only).
  const std::string made = backend_.traits().smoothing_pass_kernel[dims];
  const bool has_made = !made.empty() && std::find(names.begin(), names.end(), made) != names.end();
  const KernelId id =
      backend_.find_step_kernel(dims, has_made ? made : backend_.default_step_kernel(dims));
  for (std::size_t l = 0; l < levels_.size(); ++l) {
    const LevelGeometry& g = levels_[l];
    // A blocked pass reads the halo as it was at its start: only Dirichlet faces, whose
    // boundary nodes no sweep changes, keep every sweep's inputs what single sweeps see.
    const bool dirichlet = std::all_of(g.faces.begin(), g.faces.begin() + 2 * dims,
                                       [](BoundaryType b) { return b == BoundaryType::Dirichlet; });
    // Chebyshev steps: where the pass runs each of its two sweeps with its own weights.
    if (dirichlet && g.cells() >= min_cells &&
        (!chebyshev(static_cast<int>(l)) || backend_.steps_take_two_weights(id)))
      plan_.level[l].passes = id;
  }
  // The probe as the fine level's first two pre-smoothing sweeps, where the kernel can count
  // the first one's update as it goes.
  plan_.pair_probe = blocked_smoothing(0) && settings_.spec.pre_smooth >= 2 && coarsest() > 0 &&
                     backend_.pairs_with_stats(*plan_.level[0].passes);
}

template <typename T>
void StencilHierarchy<T>::smooth_level(int level, int sweeps, bool zeroed,
                                       const TransferArgs<T>* correction, int degree) {
  if (!here(level)) return;
  Buffer<T>& xl = x(level);
  Buffer<T>& nl = next(level);
  const std::optional<KernelId>& blocked = plan_.level[level].passes;
  for (int done = 0; done < sweeps;) {
    check_interrupt();
    const int n = blocked ? std::min(sweeps - done, kMaxBlockedSweeps) : 1;
    if (!(zeroed && done == 0)) fill_boundary(level, xl);
    const int index = std::max(0, degree - sweeps + done);
    SweepArgs<T> a = sweep_args(level, smoothing_weights(level, degree, index), xl, nl, rhs(level));
    if (n >= 2 && chebyshev(level)) a.second_weights = pass_weights(level, degree, index + 1);
    SmoothingPass<T> pass{a, n, plan_.level[level].sweep};
    pass.correction = done == 0 ? correction : nullptr;
    if (n >= 2 || pass.correction) {  // x's box is scratch afterwards
      pass.kernel = *blocked;
      pass.blocked = true;
    }
    timed(level, &output::LevelSeconds::sweep, [&] { backend_.smooth(pass); });
    xl.swap(nl);
    done += n;
  }
}

template <typename T>
void StencilHierarchy<T>::zero(int level) {
  timed(level, &output::LevelSeconds::sweep, [&] { backend_.zero(x(level)); });
}

template <typename T>
SweepStats StencilHierarchy<T>::probe(Buffer<T>& u, Buffer<T>& next) {
  fill_boundary(0, u);
  const SweepArgs<T> a =
      sweep_args(0, smoothing_weights(0, settings_.spec.pre_smooth, 0), u, next, rhs(0));
  SweepStats stats;
  timed(0, &output::LevelSeconds::sweep,
        [&] { stats = backend_.smooth(probe_pass(a, PassStats::Now)); });
  return stats;
}

template <typename T>
SmoothingPass<T> StencilHierarchy<T>::probe_pass(const SweepArgs<T>& a, PassStats when) const {
  // Paired: the first two pre-smoothing sweeps, the first one's update counted as it goes.
  if (plan_.pair_probe) {
    SweepArgs<T> pair = a;
    if (chebyshev(0)) pair.second_weights = pass_weights(0, settings_.spec.pre_smooth, 1);
    return {pair, 2, *plan_.level[0].passes, true, nullptr, when};
  }
  return {a, 1, plan_.level[0].sweep, false, nullptr, when};
}

template <typename T>
void StencilHierarchy<T>::enqueue_probe(Buffer<T>& u, Buffer<T>& next) {
  fill_boundary(0, u);
  const SweepArgs<T> a =
      sweep_args(0, smoothing_weights(0, settings_.spec.pre_smooth, 0), u, next, rhs(0));
  backend_.smooth(probe_pass(a, PassStats::Queued));
}

template <typename T>
void StencilHierarchy<T>::finish_cycle(Buffer<T>& u, Buffer<T>& next) {
  bind(u, next);
  if (probe_redone()) {
    fine_cycle(*this, shape());  // the probe's output is dropped
  } else {
    u.swap(next);
    fine_cycle(*this, shape(), plan_.pair_probe ? 2 : 1);
  }
  settle_times();
}

template <typename T>
void StencilHierarchy<T>::cycle(Buffer<T>& u, Buffer<T>& next) {
  bind(u, next);
  fine_cycle(*this, shape());
  settle_times();
}

template <typename T>
void StencilHierarchy<T>::settle_times() const {
  if (!clock_ || timings_.empty()) return;
  for (const PendingTime& t : timings_)
    seconds_[static_cast<std::size_t>(t.level)].*t.part += clock_->seconds(t.from, t.to);
  timings_.clear();
  clock_->reset();
}

template <typename T>
void StencilHierarchy<T>::full_multigrid(Buffer<T>& u, Buffer<T>& next) {
  bind(u, next);
  multigrid::full_multigrid(*this, shape(), settings_.cubic_fmg);
  settle_times();
}

template <typename T>
std::vector<std::string> StencilHierarchy<T>::describe_plan() const {
  const int dims = levels_[0].dims;
  const auto sweeps = backend_.kernels(dims);
  const auto passes = backend_.step_kernels(dims);
  std::vector<std::string> lines;
  for (std::size_t l = 0; l < levels_.size(); ++l) {
    const int level = static_cast<int>(l);
    const LevelGeometry& g = levels_[l];
    const LevelPlan& p = plan_.level[l];
    std::string line = fmt::format("level {} ({} nodes): ", level, g.cells());
    if (level >= plan_.bottom_call_first) {
      line += "in the bottom levels' one call";
    } else {
      line += "sweeps " + sweeps[static_cast<std::size_t>(p.sweep.index)];
      if (p.passes)
        line += ", smoothing passes " + passes[static_cast<std::size_t>(p.passes->index)];
      if (level == 0 && plan_.pair_probe) line += ", the probe a checked pair";
      if (chebyshev(level))
        line += fmt::format(", Chebyshev steps over [{:.4f}, {:.4f}]", ops_[l].high_lo,
                            ops_[l].high_hi);
      if (fuses_correction(level)) line += ", the correction inside the first pass";
      if (level < coarsest() && settings_.fuse_residual_restriction &&
          levels_[l + 1].ratio.halves(dims))
        line += ", residual inside the restriction";
    }
    if (level == coarsest())
      line += plan_.bottom_by_cg ? "; solved by conjugate gradients"
                                 : fmt::format("; solved by {} sweeps", bottom_.sweeps);
    if (split(level)) line += "; split over the ranks";
    if (comm_.several() && level >= gather_) line += "; " + whole_levels();
    lines.push_back(std::move(line));
  }
  return lines;
}

template <typename T>
std::string StencilHierarchy<T>::whole_levels() const {
  if (!redundant_) return "whole on rank 0 (gathered and scattered back through MPI)";
  return fmt::format("whole on every rank (their right-hand side allgathered through {})",
                     device_gather_ ? "the device exchange" : "MPI");
}

template class StencilHierarchy<float>;
template class StencilHierarchy<double>;

}  // namespace fdsolve::multigrid
