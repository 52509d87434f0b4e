// The cycles' coarsest levels in one backend call (see stencil_hierarchy.hpp, bottom_levels.hpp):
// which levels take it, and the arguments that make the call do what visit() does level by level.
#include "bottom_levels.hpp"
#include "stencil_hierarchy.hpp"

namespace fdsolve::multigrid {

template <typename T>
void StencilHierarchy<T>::set_bottom_levels_cells(index_t cells) {
  const int last = coarsest();
  plan_.bottom_call_first = static_cast<int>(levels_.size());
  // Levels split over ranks exchange halos between the steps: the call visits whole levels
  // only, on one rank or, over several, the gathered levels where every rank runs them (on rank
  // 0 alone they wait for the gather and scatter; a split run is large, its coarse levels a
  // small share of a cycle).
  if (cells <= 0 || !backend_.bottom_levels_call()) return;
  if (comm_.several() && !redundant_) return;
  if (last < 2 || levels_[last].cells() > cells) return;
  int first = last;
  // Never the fine level: its field, halo fill and right-hand side are the caller's.
  const int whole_from = comm_.several() ? gather_ : 1;
  // Chebyshev steps: the call takes the weights of at most kMaxStepSweeps sweeps per step.
  if (chebyshev_ &&
      (settings_.spec.pre_smooth > kMaxStepSweeps || settings_.spec.post_smooth > kMaxStepSweeps))
    return;
  while (first - 1 >= whole_from && levels_[first - 1].cells() <= cells &&
         last - (first - 1) + 1 <= kMaxBottomLevels)
    --first;
  if (first < last) plan_.bottom_call_first = first;
}

template <typename T>
void StencilHierarchy<T>::visit_below(int level, bool fresh) {
  check_interrupt();  // one check for the whole call: it cannot stop part-way
  const int dims = levels_[0].dims;
  BottomLevelsArgs<T> a;
  for (int l = level; l <= coarsest(); ++l) {
    BottomLevelArgs<T> b;
    b.x = x_[l].data();
    b.next = next_[l].data();
    b.g = rhs_[l].data();
    b.layout = layout_[l];
    b.box = box_[l];
    for (int f = 0; f < 6; ++f) b.rules[f] = homogeneous_[l].faces[f].rule;
    b.smooth = ops_[l].smooth;
    for (int i = 0; i < kMaxStepSweeps; ++i) {
      b.pre[static_cast<std::size_t>(i)] = smoothing_weights(l, settings_.spec.pre_smooth, i);
      b.post[static_cast<std::size_t>(i)] = smoothing_weights(l, settings_.spec.post_smooth, i);
    }
    b.residual = ops_[l].residual;
    if (l > level) {  // as restrict_residual restricts level l - 1 into this one
      b.ratio = levels_[l].ratio;
      b.scale = ops_[l - 1].diag / ops_[l].diag;
      b.fused = settings_.fuse_residual_restriction && levels_[l].ratio.halves(dims);
    }
    a.levels.push_back(b);
  }
  a.fresh = fresh;
  a.pre_smooth = settings_.spec.pre_smooth;
  a.post_smooth = settings_.spec.post_smooth;
  a.stepped = chebyshev_;
  a.w_cycle = settings_.spec.cycle == CycleKind::W;
  a.cg = plan_.bottom_by_cg;
  if (plan_.bottom_by_cg)
    a.bottom = bottom_args();
  else
    a.bottom_sweeps = bottom_.sweeps;
  timed(level, &output::LevelSeconds::bottom,
        [&] { backend_.bottom_levels_call()->bottom_levels(a); });
  // The call swapped each level's pair as often as the level-by-level sweeps would have.
  const unsigned odd = bottom_levels_swaps(a);
  for (int l = level; l <= coarsest(); ++l)
    if ((odd >> (l - level)) & 1u) x_[l].swap(next_[l]);
}

template void StencilHierarchy<float>::set_bottom_levels_cells(index_t);
template void StencilHierarchy<float>::visit_below(int, bool);
template void StencilHierarchy<double>::set_bottom_levels_cells(index_t);
template void StencilHierarchy<double>::visit_below(int, bool);

}  // namespace fdsolve::multigrid
