// See flux_hierarchy.hpp.
#include "flux_hierarchy.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cassert>
#include <chrono>
#include <cmath>
#include <stdexcept>

#include "stencil_hierarchy.hpp"
#include "cycles_detail.hpp"
#include "elapsed.hpp"
#include "level_operator.hpp"

namespace fdsolve::multigrid {

std::vector<int> halving_axes(const LevelGeometry& coarse) {
  std::vector<int> axes;
  for (int a = 0; a < coarse.dims; ++a) {
    const bool halves = 2 * coarse.ratio.num[a] == coarse.ratio.den[a];
    if (!halves && coarse.ratio.num[a] != coarse.ratio.den[a]) return {};  // does not nest
    if (halves) axes.push_back(a);
  }
  return axes;
}

bool galerkin_levels(const std::vector<LevelGeometry>& levels) {
  bool galerkin = levels.size() > 1;
  for (std::size_t l = 1; l < levels.size(); ++l) {
    galerkin = galerkin && !halving_axes(levels[l]).empty();
    for (int a = 0; a < levels[l].dims; ++a)
      galerkin = galerkin && (!levels[l].periodic[a] || levels[l].n[a] % 3 == 0);
  }
  return galerkin;
}

template <typename T>
FluxHierarchy<T>::FluxHierarchy(std::vector<LevelGeometry> levels,
                                std::vector<op::FluxLevel<T>> built, const MultigridSpec& spec,
                                Backend<T>& backend, double alpha, double scale)
    : levels_(std::move(levels)),
      spec_(spec),
      backend_(backend),
      flux_(require_flux_operations(backend)) {
  const auto start = std::chrono::steady_clock::now();
  for (std::size_t l = 0; l < levels_.size(); ++l) {
    const LevelGeometry& g = levels_[l];
    op::FluxLevel<T>& arrays = built[l];
    const Layout L = arrays.layout;
    layout_.push_back(L);
    box_.push_back(detail::local_box(g, detail::whole_of(g)));
    rules_.push_back(detail::homogeneous_rules<T>(g, L, detail::whole_of(g)));
    // The weight that smooths the frequencies the next grid cannot represent, from the
    // constant-coefficient symbol: each node's own diagonal scales the rest.
    omega_.push_back(multigrid::level_operator(g, 0.0, 1.0).omega);
    held_.push_back(arrays.held_count);
    face_.push_back(std::move(arrays.face));
    capacity_.push_back(std::move(arrays.capacity));
    robin_.push_back(std::move(arrays.diagonal));
    diagonal_.emplace_back();
    if (robin_[l].size()) diagonal_[l] = backend.allocate(L.size);
    x_.emplace_back();
    next_.emplace_back();
    rhs_.emplace_back();
    next_[l] = backend.allocate(L.size);
    backend.zero(next_[l]);
    if (l == 0) continue;
    for (auto* b : {&x_[l], &rhs_[l]}) {
      *b = backend.allocate(L.size);
      backend.zero(*b);
    }
  }
  // The coarsest level's arrays on the host, for its factorisation (a few dozen nodes).
  const std::size_t last = levels_.size() - 1;
  const auto to_host = [&](const Buffer<T>& b, std::vector<T>& out) {
    out.resize(static_cast<std::size_t>(b.size()));
    if (b.size()) backend.download(out.data(), b, b.size());
  };
  for (int a = 0; a < 3; ++a) to_host(face_[last][a], host_face_[a]);
  to_host(capacity_[last], host_capacity_);
  to_host(robin_[last], host_robin_);
  plan_.resize(levels_.size());
  for (std::size_t l = 0; l + 1 < levels_.size(); ++l) {
    const LevelGeometry& fine = levels_[l];
    const LevelGeometry& coarse = levels_[l + 1];
    AxisPlan& plan = plan_[l];
    plan.axes = halving_axes(coarse);
    if (plan.axes.empty()) continue;
    std::array<index_t, 3> n = coarse.n;
    plan.grid.push_back(layout_[l + 1]);
    plan.buffer.emplace_back();
    for (std::size_t s = 0; s < plan.axes.size(); ++s) {
      n[plan.axes[s]] = fine.n[plan.axes[s]];
      const bool last = s + 1 == plan.axes.size();
      plan.grid.push_back(last ? layout_[l] : detail::layout_of(fine.dims, n, sizeof(T)));
      plan.buffer.emplace_back();
      if (last) continue;
      plan.buffer.back() = backend.allocate(plan.grid.back().size);
      backend.zero(plan.buffer.back());
    }
  }
  galerkin_ = galerkin_levels(levels_);
  stencil_.resize(levels_.size());
  held_copy_.resize(levels_.size());
  if (galerkin_) {
    const index_t points = levels_[0].dims == 2 ? 9 : 27;
    for (std::size_t l = 1; l < levels_.size(); ++l) {
      stencil_[l] = backend.allocate(points * layout_[l].size);
      // Collapse writes the coarse faces over their held marker: each rebuild (set_shift)
      // reads the marker from this copy.
      if (held_[l] == 0) continue;
      held_copy_[l] = backend.allocate(layout_[l].size);
      backend.copy(held_copy_[l], face_[l][0]);
    }
  }
  if (spdlog::should_log(spdlog::level::debug)) {
    backend.synchronize();
    spdlog::debug("hierarchy: its arrays allocated in {:.1f} ms", 1e3 * seconds_since(start));
  }
  set_shift(alpha, scale);
}

template <typename T>
FluxHierarchy<T>::~FluxHierarchy() = default;

template <typename T>
const T* FluxHierarchy<T>::held_marker(int level) const {
  if (level > 0 && galerkin_)
    return stencil_[level].data() + stencil_centre(levels_[level].dims) * layout_[level].size;
  return face_[level][0].data();
}

template <typename T>
void FluxHierarchy<T>::set_shift(double alpha, double scale) {
  alpha_ = alpha;
  scale_ = scale;
  fine_neighbour_ = op::neighbour_couplings(levels_[0], scale_);
  for (std::size_t l = 0; l < levels_.size(); ++l)
    if (robin_[l].size())
      scale_diagonal(flux_, backend_, robin_[l], diagonal_[l], scale_, layout_[l], &capacity_[l]);
  if (galerkin_) build_galerkin();
  factor_coarsest();
}

template <typename T>
FluxOperator<T> FluxHierarchy<T>::level_operator(int level, double keep, double step,
                                              double relax) const {
  FluxOperator<T> op = face_operator<T>(
      levels_[level], {face_[level][0].data(), face_[level][1].data(), face_[level][2].data()},
      alpha_, scale_, keep, step, relax);
  // 19 and 27 points: the fine level's own stencil; the coarse levels below it are Galerkin
  // (R A P of that stencil) or 7-point averaged faces.
  if (level == 0) op.neighbour = fine_neighbour_;
  // The capacity and the Robin faces: the fine and averaged levels' diagonal; R A P carries it
  // on Galerkin ones (build_galerkin forms it from the fine operator).
  if (level == 0 || !galerkin_) op.diagonal = level_diagonal(static_cast<std::size_t>(level));
  if (level > 0 && galerkin_) {
    op.stencil = stencil_[level].data();
    op.stencil_stride = layout_[level].size;
  }
  return op;
}

template <typename T>
void FluxHierarchy<T>::fill(int level, const T* x) {
  HaloFillArgs<T> a = rules_[level];
  a.field = const_cast<T*>(x);
  if (a.any()) backend_.fill_halo(a);
}

template <typename T>
void FluxHierarchy<T>::sweep(int level, Buffer<T>& in, Buffer<T>& out, const FluxOperator<T>& op) {
  fill(level, in.data());
  SweepArgs<T> a;
  a.in = in.data();
  a.out = out.data();
  a.source_field = rhs(level).data();
  a.layout = layout_[level];
  a.box = box_[level];
  a.flux = op;
  backend_.sweep(a, KernelId{levels_[level].dims, 0});
}

template <typename T>
void FluxHierarchy<T>::smooth(int level, int sweeps, bool /*zeroed*/) {
  Buffer<T>& xl = x(level);
  Buffer<T>& next = next_[level];
  for (int s = 0; s < sweeps; ++s) {
    if (interrupt_ && interrupt_()) throw CycleInterrupted{};
    sweep(level, xl, next, level_operator(level, 1.0, 0.0, omega_[level]));
    xl.swap(next);
  }
}

template <typename T>
void FluxHierarchy<T>::restrict_residual(int level) {
  // The residual into `next`, its halo folded, restricted to the next level's right-hand side.
  sweep(level, x(level), next_[level], level_operator(level, 0.0, 1.0, 0.0));
  restrict_level(level, next_[level]);
}

template <typename T>
void FluxHierarchy<T>::interpolate(int level, bool /*high_order*/) {
  const T* held = held_[level] > 0 ? held_marker(level) : nullptr;
  if (!plan_[level].axes.empty()) {
    // The last axis's pass adds the correction where nodes are not held: the same sums as a
    // prolongation into `next` and a combine after it, one pass over the level fewer.
    prolong_level(level, x(level), held);
    return;
  }
  Buffer<T>& next = next_[level];
  prolong_level(level, next);
  LinearCombinationArgs<T> add;
  add.y = x(level).data();
  add.x = next.data();
  add.held_face = held;
  add.layout = layout_[level];
  add.box = box_[level];
  flux_.combine(add);
}

template <typename T>
void FluxHierarchy<T>::correct_and_smooth(int level, int sweeps) {
  interpolate(level, false);
  smooth(level, sweeps, false);
}

template <typename T>
AxisTransferArgs<T> FluxHierarchy<T>::axis_args(int level, int step, bool restrict) const {
  const AxisPlan& plan = plan_[level];
  const LevelGeometry& g = levels_[level];
  const int axis = plan.axes[step];
  AxisTransferArgs<T> a;
  a.restrict = restrict;
  a.axis = axis;
  a.face = face_[level][axis].data();
  a.face_layout = layout_[level];
  a.n_fine = g.n[axis];
  const auto rule = [&](int face) {
    if (g.periodic[axis]) return GhostRule::Wrap;
    return g.faces[face] == BoundaryType::Neumann ? GhostRule::Mirror : GhostRule::None;
  };
  a.lo = rule(2 * axis);
  a.hi = rule(2 * axis + 1);
  // Axes interpolated before this one are fine in both grids; later halving axes coarse.
  for (std::size_t later = static_cast<std::size_t>(step) + 1; later < plan.axes.size(); ++later)
    a.to_fine[plan.axes[later]] = 2;
  a.scale = 0.5;
  return a;
}

template <typename T>
void FluxHierarchy<T>::restrict_level(int level, const Buffer<T>& residual) {
  AxisPlan& plan = plan_[level];
  if (plan.axes.empty()) {
    fill(level, residual.data());
    TransferArgs<T> t;
    t.ratio = levels_[level + 1].ratio;
    t.from = residual.data();
    t.to = rhs_[level + 1].data();
    t.fine = layout_[level];
    t.coarse = layout_[level + 1];
    t.box = box_[level + 1];
    backend_.restrict_to_coarse(t);
    return;
  }
  const LevelGeometry& g = levels_[level];
  for (int s = static_cast<int>(plan.axes.size()) - 1; s >= 0; --s) {
    const bool first = s + 1 == static_cast<int>(plan.axes.size());
    const T* from = first ? residual.data() : plan.buffer[s + 1].data();
    T* to = s == 0 ? rhs_[level + 1].data() : plan.buffer[s].data();
    HaloFillArgs<T> h = detail::homogeneous_rules<T>(g, plan.grid[s + 1], detail::whole_of(g));
    h.field = const_cast<T*>(from);
    if (h.any()) backend_.fill_halo(h);
    AxisTransferArgs<T> a = axis_args(level, s, true);
    a.from = from;
    a.to = to;
    a.from_layout = plan.grid[s + 1];
    a.to_layout = plan.grid[s];
    a.box = s == 0 ? box_[level + 1] : plan.grid[s].owned_box();
    flux_.transfer_axis(a);
  }
}

template <typename T>
void FluxHierarchy<T>::prolong_level(int level, Buffer<T>& e, std::optional<const T*> add_where) {
  AxisPlan& plan = plan_[level];
  if (plan.axes.empty()) {
    assert(!add_where);  // interpolate adds by a combine there
    fill(level + 1, x_[level + 1].data());
    backend_.zero(e);
    TransferArgs<T> p;
    p.ratio = levels_[level + 1].ratio;
    p.from = x_[level + 1].data();
    p.to = e.data();
    p.fine = layout_[level];
    p.coarse = layout_[level + 1];
    p.box = box_[level];
    backend_.prolong_add(p);
    return;
  }
  const LevelGeometry& g = levels_[level];
  const int steps = static_cast<int>(plan.axes.size());
  for (int s = 0; s < steps; ++s) {
    const T* from = s == 0 ? x_[level + 1].data() : plan.buffer[s].data();
    T* to = s + 1 == steps ? e.data() : plan.buffer[s + 1].data();
    HaloFillArgs<T> h = detail::homogeneous_rules<T>(g, plan.grid[s], detail::whole_of(g));
    h.field = const_cast<T*>(from);
    if (h.any()) backend_.fill_halo(h);
    AxisTransferArgs<T> a = axis_args(level, s, false);
    a.from = from;
    a.to = to;
    a.from_layout = plan.grid[s];
    a.to_layout = plan.grid[s + 1];
    a.box = plan.grid[s + 1].owned_box();
    if (add_where && s + 1 == steps) {  // e += P x where not held, on the updated nodes
      a.accumulate = true;
      a.held = *add_where;
      a.box = box_[level];
    }
    flux_.transfer_axis(a);
  }
}

template <typename T>
void FluxHierarchy<T>::precondition(const Buffer<T>& r, Buffer<T>& z) {
  fine_x_ = &z;
  fine_rhs_ = &r;
  visit(*this, cycle_shape(spec_), 0, true);
}

template class FluxHierarchy<float>;
template class FluxHierarchy<double>;

}  // namespace fdsolve::multigrid
