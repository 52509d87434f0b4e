// The Galerkin coarse operators of FluxHierarchy (flux_hierarchy.hpp): R A P of each level
// formed row by row on the backend (galerkin_product.hpp), or by probing (galerkin.hpp), which
// applies the cycle's own transfers and operator to 3^dims fields and is the reference the
// product is tested against; then each level's faces for the next transfers and its held rows.
#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <string>

#include "elapsed.hpp"
#include "flux_hierarchy.hpp"

namespace fdsolve::multigrid {

template <typename T>
void FluxHierarchy<T>::build_galerkin(GalerkinBuild how) {
  const bool timed = spdlog::should_log(spdlog::level::debug);
  std::string times;
  for (int l = 0; l < coarsest(); ++l) {
    const auto t0 = std::chrono::steady_clock::now();
    const int c = l + 1;
    backend_.zero(stencil_[c]);
    if (how == GalerkinBuild::product)
      galerkin_product(l);
    else
      probe_galerkin(l);
    GalerkinArgs<T> g = galerkin_args(c);
    g.op = GalerkinOp::Collapse;
    for (int a = 0; a < 3; ++a) g.faces[a] = face_[c][a].data();
    flux_.galerkin(g);
    g.op = GalerkinOp::HeldRows;
    if (g.held) flux_.galerkin(g);
    if (!timed) continue;
    backend_.synchronize();  // the debug log times each grid's operator
    times += fmt::format("{}{:.1f}", l ? " / " : "", 1e3 * seconds_since(t0));
  }
  backend_.synchronize();
  if (timed) spdlog::debug("Galerkin operators formed in {} ms, finest first", times);
}

template <typename T>
GalerkinArgs<T> FluxHierarchy<T>::galerkin_args(int level) {
  GalerkinArgs<T> g;
  g.layout = layout_[level];
  g.box = box_[level];
  g.held = held_[level] > 0 ? held_copy_[level].data() : nullptr;  // flux_levels' held nodes
  g.stencil = stencil_[level].data();
  g.stride = layout_[level].size;
  for (int a = 0; a < 3; ++a) g.periodic[a] = levels_[level].periodic[a];
  return g;
}

template <typename T>
void FluxHierarchy<T>::galerkin_product(int l) {
  const int c = l + 1;
  const LevelGeometry& g = levels_[l];
  GalerkinProductArgs<T> p;
  p.op = level_operator(l, 0.0, -1.0, 0.0);
  p.fine = layout_[l];
  p.coarse = layout_[c];
  p.box = box_[c];
  AxisPlan& plan = plan_[l];
  const std::vector<int>& axes = plan.axes;
  // Each halving axis's prolongation weights on the grid its pass writes: the plan's buffers
  // between the levels, and for the last axis the level's own `next`, free during set-up.
  const int steps = static_cast<int>(axes.size());
  for (int s = 0; s < steps; ++s) {
    AxisTransferArgs<T> w = axis_args(l, s, false);
    w.weights = true;
    w.to = s + 1 == steps ? next_[l].data() : plan.buffer[s + 1].data();
    w.from_layout = plan.grid[s];
    w.to_layout = plan.grid[s + 1];
    w.box = plan.grid[s + 1].owned_box();
    flux_.transfer_axis(w);
    p.weight[axes[s]] = w.to;
    p.weight_layout[axes[s]] = plan.grid[s + 1];
  }
  for (int a = 0; a < g.dims; ++a) {
    p.halves[a] = std::find(axes.begin(), axes.end(), a) != axes.end();
    // The level's halo rule of each face, which the transfers' folds follow too.
    p.lo[a] = static_cast<int>(rules_[l].faces[2 * a].rule);
    p.hi[a] = static_cast<int>(rules_[l].faces[2 * a + 1].rule);
  }
  p.stencil = stencil_[c].data();
  p.stride = layout_[c].size;
  flux_.galerkin_product(p);
  backend_.zero(next_[l]);
}

template <typename T>
void FluxHierarchy<T>::probe_galerkin(int l) {
  const int dims = levels_[0].dims;
  const int colours = dims == 2 ? 9 : 27;
  const int c = l + 1;
  Buffer<T> scratch;
  if (l == 0) scratch = backend_.allocate(layout_[0].size);
  Buffer<T>& e = next_[l];
  Buffer<T>& q = l == 0 ? scratch : rhs_[l];
  GalerkinArgs<T> g = galerkin_args(c);
  for (int colour = 0; colour < colours; ++colour) {
    g.colour = {colour % 3, colour / 3 % 3, colour / 9};
    g.op = GalerkinOp::Colour;
    g.out = x_[c].data();
    flux_.galerkin(g);
    prolong_level(l, e);  // e = P (the colour's field)
    backend_.zero(q);     // q = e off the held nodes
    LinearCombinationArgs<T> keep;
    keep.y = q.data();
    keep.x = e.data();
    keep.b = 0.0;
    keep.held_face = held_[l] > 0 ? held_marker(l) : nullptr;
    keep.layout = layout_[l];
    keep.box = layout_[l].owned_box();
    flux_.combine(keep);
    fill(l, q.data());
    SweepArgs<T> a;  // e = A q
    a.in = q.data();
    a.out = e.data();
    a.layout = layout_[l];
    a.box = box_[l];
    a.flux = level_operator(l, 0.0, -1.0, 0.0);
    backend_.sweep(a, KernelId{dims, 0});
    restrict_level(l, e);  // rhs_[c] = R A P (the colour's field)
    g.op = GalerkinOp::Extract;
    g.in = rhs_[c].data();
    flux_.galerkin(g);
  }
  backend_.zero(x_[c]);
  backend_.zero(rhs_[c]);
  backend_.zero(e);
  if (l > 0) backend_.zero(q);
  backend_.synchronize();  // before `scratch` goes
}

template <typename T>
std::vector<T> FluxHierarchy<T>::galerkin_stencil(int level) const {
  std::vector<T> out(static_cast<std::size_t>(stencil_[level].size()));
  if (!out.empty()) backend_.download(out.data(), stencil_[level], stencil_[level].size());
  return out;
}

template void FluxHierarchy<float>::build_galerkin(GalerkinBuild);
template void FluxHierarchy<double>::build_galerkin(GalerkinBuild);
template std::vector<float> FluxHierarchy<float>::galerkin_stencil(int) const;
template std::vector<double> FluxHierarchy<double>::galerkin_stencil(int) const;

}  // namespace fdsolve::multigrid
