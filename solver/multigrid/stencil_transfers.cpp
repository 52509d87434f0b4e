// The cycles' transfers between levels and the bottom solve (see stencil_hierarchy.hpp): restriction of
// residuals and right-hand sides, prolongation of corrections (nested or not; fused into the
// post-smoothing where the backend can), and conjugate gradients on the coarsest grid.
#include <algorithm>

#include "cycle_work.hpp"
#include "stencil_hierarchy.hpp"

namespace fdsolve::multigrid {

template <typename T>
void StencilHierarchy<T>::restrict_residual(int level) {
  Buffer<T>& xl = x(level);
  Buffer<T>& scratch = next(level);
  fill_boundary(level, xl);
  // The fused kernel computes residuals one node beyond the coarse node's cell, which on a
  // split level lie a node beyond the halo: split levels restrict the residual field.
  if (settings_.fuse_residual_restriction && !split(level) &&
      levels_[level + 1].ratio.halves(levels_[level].dims)) {
    ResidualRestrictArgs<T> a;
    a.u = xl.data();
    a.g = rhs(level);
    a.g_constant = a.g ? 0.0 : fine_rhs_constant_;
    a.residual = ops_[level].residual;
    for (int f = 0; f < 6; ++f) a.rules[f] = homogeneous_[level].faces[f].rule;
    a.to = coarse_rhs(level).data();
    a.fine = layout_[level];
    a.coarse = coarse_layout(level);
    a.box = coarse_box(level);
    a.scale = ops_[level].diag / ops_[level + 1].diag;
    timed(level, &output::LevelSeconds::transfer, [&] { backend_.restrict_residual(a); });
    if (level + 1 == gather_) timed(level + 1, &output::LevelSeconds::exchange, [&] { gather_rhs(); });
    return;
  }
  timed(level, &output::LevelSeconds::sweep, [&] {
    backend_.sweep(sweep_args(level, ops_[level].residual, xl, scratch, rhs(level)),
                   plan_.level[level].sweep);
  });
  // The coarse nodes next to a Neumann or periodic face weigh residuals beyond it: mirrored
  // (the symmetric extension of the boundary rows) or wrapped; next to another rank's box,
  // its residuals, exchanged.
  fill_homogeneous(level, scratch);
  restrict_field(level, scratch);
}

template <typename T>
void StencilHierarchy<T>::restrict_rhs(int level) {
  if (!here(level)) return;
  fill_homogeneous(level, rhs_[level]);
  restrict_field(level, rhs_[level]);
}

template <typename T>
void StencilHierarchy<T>::restrict_field(int level, const Buffer<T>& from) {
  TransferArgs<T> t;
  t.ratio = levels_[level + 1].ratio;
  t.from = from.data();
  t.to = coarse_rhs(level).data();
  t.fine = layout_[level];
  t.coarse = coarse_layout(level);
  t.box = coarse_box(level);
  // g = (omega / diag) f on both levels: g_c = (omega / diag_c) R f = (diag / diag_c) R g.
  t.scale = ops_[level].diag / ops_[level + 1].diag;
  timed(level, &output::LevelSeconds::transfer, [&] { backend_.restrict_to_coarse(t); });
  if (level + 1 == gather_) timed(level + 1, &output::LevelSeconds::exchange, [&] { gather_rhs(); });
}

template <typename T>
TransferArgs<T> StencilHierarchy<T>::correction_args(int level, Buffer<T>& x) const {
  const bool from_copy = level + 1 == gather_;
  TransferArgs<T> t;
  t.ratio = levels_[level + 1].ratio;
  t.from = (from_copy ? copy_x_ : x_[level + 1]).data();
  t.to = x.data();
  t.fine = layout_[level];
  t.coarse = from_copy ? copy_layout_ : layout_[level + 1];
  t.box = box_[level];
  return t;
}

template <typename T>
bool StencilHierarchy<T>::fuses_correction(int level) const {
  return plan_.fused_correction && level < coarsest() && plan_.level[level].passes &&
         settings_.spec.post_smooth >= 2 && level + 1 != gather_ &&
         levels_[level + 1].ratio.halves(levels_[level].dims);
}

template <typename T>
void StencilHierarchy<T>::correct_and_smooth(int level, int sweeps) {
  if (!fuses_correction(level)) {
    correct(level);
    smooth_level(level, sweeps, false, nullptr, settings_.spec.post_smooth);
    return;
  }
  // The first post-smoothing pass adds the correction as it reads x
  // (SmoothingPass::correction); the coarse halo is filled as correct() fills it. The fill of x's
  // halo before the pass writes only nodes the correction leaves alone.
  fill_homogeneous(level + 1, x_[level + 1]);
  const TransferArgs<T> t = correction_args(level, x(level));
  smooth_level(level, sweeps, false, &t, settings_.spec.post_smooth);
}

template <typename T>
void StencilHierarchy<T>::correct(int level, bool cubic) {
  const bool from_copy = level + 1 == gather_;
  if (from_copy) timed(level + 1, &output::LevelSeconds::exchange, [&] { scatter_correction(); });
  TransferArgs<T> t = correction_args(level, x(level));
  // Cubic interpolation folds the coarse field itself (no halo; whole, nested levels only).
  if (cubic && t.ratio.halves(levels_[level].dims)) {
    for (int f = 0; f < 6; ++f) t.rules[f] = homogeneous_[level + 1].faces[f].rule;
    timed(level, &output::LevelSeconds::transfer, [&] { backend_.prolong_cubic_add(t); });
    return;
  }
  // The wrap a periodic axis's last node reads, and the next rank's first coarse node.
  if (from_copy)
    timed(level + 1, &output::LevelSeconds::exchange,
          [&] { fill_and_exchange(copy_rules_, copy_halo_.get(), copy_x_); });
  else
    fill_homogeneous(level + 1, x_[level + 1]);
  timed(level, &output::LevelSeconds::transfer, [&] { backend_.prolong_add(t); });
}

template <typename T>
void StencilHierarchy<T>::solve_coarsest() {
  const int l = coarsest();
  check_interrupt();
  if (!plan_.bottom_by_cg) {
    smooth_level(l, bottom_.sweeps, false, nullptr, 0);
    return;
  }
  timed(l, &output::LevelSeconds::bottom, [&] { backend_.bottom_solve(bottom_args()); });
}

template <typename T>
BottomSolveArgs<T> StencilHierarchy<T>::bottom_args() {
  const int l = coarsest();
  BottomSolveArgs<T> a;
  a.x = x_[l].data();
  a.g = rhs_[l].data();
  a.r = cg_r_.data();
  a.p = cg_p_.data();
  a.q = cg_q_.data();
  a.layout = layout_[l];
  a.box = box_[l];
  a.residual = ops_[l].residual;
  bool dirichlet = false;
  for (int f = 0; f < 2 * levels_[l].dims; ++f) {
    a.rules[f] = homogeneous_[l].faces[f].rule;
    dirichlet = dirichlet || levels_[l].faces[f] == BoundaryType::Dirichlet;
  }
  a.singular = !dirichlet && settings_.alpha == 0;
  // The tolerance is what a V-cycle needs of its coarsest grid with room to spare, and what
  // the precision allows.
  a.tolerance = sizeof(T) == sizeof(float) ? 1e-5 : 1e-10;
  a.max_iterations = cg_bottom_iterations(box_[l].cells());
  return a;
}


template void StencilHierarchy<float>::restrict_residual(int);
template void StencilHierarchy<float>::restrict_rhs(int);
template void StencilHierarchy<float>::restrict_field(int, const Buffer<float>&);
template void StencilHierarchy<float>::correct(int, bool);
template TransferArgs<float> StencilHierarchy<float>::correction_args(int, Buffer<float>&) const;
template bool StencilHierarchy<float>::fuses_correction(int) const;
template void StencilHierarchy<float>::correct_and_smooth(int, int);
template void StencilHierarchy<float>::solve_coarsest();
template BottomSolveArgs<float> StencilHierarchy<float>::bottom_args();
template void StencilHierarchy<double>::restrict_residual(int);
template void StencilHierarchy<double>::restrict_rhs(int);
template void StencilHierarchy<double>::restrict_field(int, const Buffer<double>&);
template void StencilHierarchy<double>::correct(int, bool);
template TransferArgs<double> StencilHierarchy<double>::correction_args(int, Buffer<double>&) const;
template bool StencilHierarchy<double>::fuses_correction(int) const;
template void StencilHierarchy<double>::correct_and_smooth(int, int);
template void StencilHierarchy<double>::solve_coarsest();
template BottomSolveArgs<double> StencilHierarchy<double>::bottom_args();

}  // namespace fdsolve::multigrid
