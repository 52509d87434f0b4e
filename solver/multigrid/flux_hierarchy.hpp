// The flux-form hierarchy (kernels/flux_operator.hpp: a coefficient on every face, held nodes)
// with the cycle driver's operations (cycle_driver.hpp): V or W cycles on the correction
// equation A z = r, weighted-Jacobi smoothing with each node's own diagonal,
// flux-continuous interpolation by axes and its transpose (kernels/flux_transfer.hpp; linear
// interpolation and full weighting between levels that do not nest), corrections added only
// where nodes are not held, Galerkin coarse operators R A P formed row by row on the backend
// (flux_galerkin.cpp; the averaged face coefficients of op::flux_levels where the levels do not
// nest), and an exact solve of the coarsest grid (a few dozen unknowns) on the host. One cycle
// from z = 0 is a fixed linear map, symmetric in the volume-weighted inner product, so that it
// can precondition conjugate gradients (flux_solve.hpp).
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "backend.hpp"
#include "cycle_driver.hpp"
#include "hierarchy.hpp"
#include "operator/flux_levels.hpp"

namespace fdsolve::multigrid {

/// The face form of alpha I + scale (-div(beta grad)) on grid `g` over the face arrays `face`
/// (held nodes: a negative +x face), with the update `keep u + (step + relax / D) r`
/// (flux_operator.hpp). The 19/27-point couplings and Galerkin stencils are the caller's to add.
template <typename T>
FluxOperator<T> face_operator(const LevelGeometry& g, const std::array<const T*, 3>& face,
                              double alpha, double scale, double keep, double step,
                              double relax) {
  FluxOperator<T> op;
  for (int a = 0; a < 3; ++a) {
    op.face[a] = face[a];
    op.c[a] = a < g.dims ? scale / (g.spacing[a] * g.spacing[a]) : 0.0;
  }
  op.alpha = alpha;
  op.keep = keep;
  op.step = step;
  op.relax = relax;
  return op;
}

/// The fine level's operator as the solve's residuals and conjugate gradients apply it: the
/// face arrays on the backend (held nodes: a negative +x face) and the 19/27-point couplings.
template <typename T>
struct FineFlux {
  LevelGeometry geometry;
  std::array<const T*, 3> face{nullptr, nullptr, nullptr};
  index_t held = 0;                             // held nodes
  std::array<double, 3> neighbour{0, 0, 0};     // op::neighbour_couplings
  double alpha = 0, scale = 1;
  /// The operator's diagonal term on the backend (FluxOperator::diagonal), else null: heat's
  /// capacity where it varies (op::FluxLevel::capacity; the operator is then C + scale A, alpha
  /// 0) plus scale times the Robin faces' op::FluxLevel::diagonal.
  const T* diagonal = nullptr;

  FluxOperator<T> op(double keep, double step, double relax) const {
    FluxOperator<T> o = face_operator<T>(geometry, face, alpha, scale, keep, step, relax);
    o.neighbour = neighbour;
    o.diagonal = diagonal;
    return o;
  }
  /// The array whose negative entries mark the held nodes, or null where none is held.
  const T* held_marker() const { return held > 0 ? face[0] : nullptr; }
};

/// out = base + scale * robin over the owned nodes of L (FluxOperator::diagonal at the
/// operator's scale; base: heat's capacity where it varies, or null for 0, so that without a
/// capacity scale 1 copies the bits).
template <typename T>
void scale_diagonal(FluxOperations<T>& flux, Backend<T>& backend, const Buffer<T>& robin,
                    Buffer<T>& out, double scale, const Layout& L,
                    const Buffer<T>* base = nullptr) {
  if (base && base->size())
    backend.copy(out, *base);
  else
    backend.zero(out);
  LinearCombinationArgs<T> c;
  c.y = out.data();
  c.x = robin.data();
  c.a = scale;
  c.b = 1.0;
  c.layout = L;
  c.box = L.owned_box();
  flux.combine(c);
}

/// The fine level's face arrays uploaded on their own: the solve's operator where the cycles
/// run in another precision.
template <typename T>
class FineFaces {
 public:
  FineFaces(const LevelGeometry& g, op::FluxLevel<T> built, Backend<T>& backend)
      : backend_(backend) {
    fine_.geometry = g;
    fine_.held = built.held_count;
    fine_.neighbour = op::neighbour_couplings(g, 1.0);
    for (int a = 0; a < 3; ++a) {
      face_[a] = std::move(built.face[a]);
      fine_.face[a] = face_[a].data();
    }
    layout_ = built.layout;
    capacity_ = std::move(built.capacity);
    robin_ = std::move(built.diagonal);
    if (robin_.size()) diagonal_ = backend.allocate(layout_.size);
    fine_.diagonal = scaled_diagonal(1.0);
  }
  const FineFlux<T>& fine() const { return fine_; }
  /// The diagonal term at `scale` (FineFlux::diagonal): the capacity plus scale times the Robin
  /// faces' term, either alone, or null without both.
  const T* scaled_diagonal(double scale) {
    if (robin_.size() == 0) return capacity_.size() ? capacity_.data() : nullptr;
    scale_diagonal(require_flux_operations(backend_), backend_, robin_, diagonal_, scale,
                   layout_, &capacity_);
    return diagonal_.data();
  }

 private:
  Backend<T>& backend_;
  std::array<Buffer<T>, 3> face_;
  Buffer<T> capacity_, robin_, diagonal_;
  Layout layout_;
  FineFlux<T> fine_;
};

/// What conjugate gradients and the stationary iteration ask of a preconditioner on the flux
/// form: z = M r, one cycle from z = 0 (r's held nodes ignored, z's left zero).
template <typename T>
class FluxPreconditioner {
 public:
  virtual ~FluxPreconditioner() = default;
  virtual void precondition(const Buffer<T>& r, Buffer<T>& z) = 0;
  /// Makes every cycle call `requested` before each sweep; once it returns true the cycle
  /// throws CycleInterrupted (stencil_hierarchy.hpp).
  virtual void set_interrupt(std::function<bool()> requested) = 0;
};

/// The axes along which `coarse` halves its finer level, in order; empty where it does not nest
/// (an axis neither halves nor is kept) or keeps every axis.
std::vector<int> halving_axes(const LevelGeometry& coarse);

/// Whether FluxHierarchy forms Galerkin operators on `levels`: every coarse level nests and halves
/// an axis, and every periodic axis of a coarse level has a multiple of 3 nodes (where probing's
/// colours, which repeat every 3 nodes, fit; the product keeps the rule).
bool galerkin_levels(const std::vector<LevelGeometry>& levels);

/// How FluxHierarchy forms its Galerkin coarse operators: row by row (galerkin_product.hpp), or
/// by probing with the cycle's own transfers and operator (galerkin.hpp), the reference.
enum class GalerkinBuild { product, probing };

template <typename T>
class FluxHierarchy : private LevelHierarchy, public FluxPreconditioner<T> {
 public:
  /// `built`: the arrays of every level (op::flux_levels in `backend`), kept here. The operator is
  /// alpha I + scale (-div(beta grad)): (0, 1) for Poisson, (1, theta dt) for implicit heat;
  /// with a capacity that varies (op::FluxLevel::capacity) C + scale (-div(beta grad)), alpha 0.
  FluxHierarchy(std::vector<LevelGeometry> levels, std::vector<op::FluxLevel<T>> built,
                const MultigridSpec& spec, Backend<T>& backend, double alpha, double scale);
  ~FluxHierarchy();

  /// Changes the shift (an implicit step whose dt differs); the coarsest grid is refactored.
  void set_shift(double alpha, double scale);

  /// z = M r: one cycle on A z = r from z = 0 (fine layout; r's held nodes are ignored, z's
  /// are left zero).
  void precondition(const Buffer<T>& r, Buffer<T>& z) override;

  const std::vector<LevelGeometry>& levels() const { return levels_; }
  /// Whether the coarse levels hold Galerkin operators R A P (every level nested, periodic
  /// coarse axes a multiple of 3 nodes) rather than averaged faces.
  bool galerkin() const { return galerkin_; }
  /// Forms the Galerkin levels' operators again (galerkin() only), `how`; the constructor and
  /// set_shift form them row by row.
  void build_galerkin(GalerkinBuild how = GalerkinBuild::product);
  /// Level `level`'s Galerkin stencil arrays (3^dims arrays of its layout) on the host.
  std::vector<T> galerkin_stencil(int level) const;
  /// The layout of level `level`'s fields.
  const Layout& layout(int level) const { return layout_[static_cast<std::size_t>(level)]; }
  /// The relaxation weight of the fine smoother.
  double omega() const { return omega_[0]; }

  /// Makes every cycle call `requested` before each sweep; once it returns true the cycle
  /// throws CycleInterrupted (stencil_hierarchy.hpp).
  void set_interrupt(std::function<bool()> requested) override {
    interrupt_ = std::move(requested);
  }
  /// The fine level's field layout.
  const Layout& fine_layout() const { return layout_[0]; }
  /// The fine level's operator at the current shift (its faces stay this hierarchy's).
  FineFlux<T> fine() const {
    FineFlux<T> f;
    f.geometry = levels_[0];
    for (int a = 0; a < 3; ++a) f.face[a] = face_[0][a].data();
    f.held = held_[0];
    f.neighbour = fine_neighbour_;
    f.alpha = alpha_;
    f.scale = scale_;
    f.diagonal = level_diagonal(0);
    return f;
  }

 private:
  // The cycle driver's operations (cycle_driver.hpp) on level's correction x(level) and
  // right-hand side rhs(level).
  int coarsest() const override { return static_cast<int>(levels_.size()) - 1; }
  void zero(int level) override { backend_.zero(x(level)); }
  void smooth(int level, int sweeps, bool zeroed) override;
  /// The residual into next_[level], restricted to the next level's right-hand side.
  void restrict_residual(int level) override;
  void restrict_rhs(int level) override { restrict_level(level, rhs_[level]); }
  void correct_and_smooth(int level, int sweeps) override;
  /// The interpolated correction added to x(level) where nodes are not held (by the last axis's
  /// pass; between levels that do not nest into next_[level], then added).
  void interpolate(int level, bool high_order) override;
  void solve_coarsest() override { solve_exactly(rhs(coarsest()), x(coarsest())); }
  void solve_alone(int /*done*/) override { solve_coarsest(); }

  Buffer<T>& x(int level) { return level == 0 ? *fine_x_ : x_[level]; }
  const Buffer<T>& rhs(int level) const { return level == 0 ? *fine_rhs_ : rhs_[level]; }
  FluxOperator<T> level_operator(int level, double keep, double step, double relax) const;
  void fill(int level, const T* x);
  /// out = the update of `op` on level's in (halo filled first) with level's right-hand side.
  void sweep(int level, Buffer<T>& in, Buffer<T>& out, const FluxOperator<T>& op);
  void solve_exactly(const Buffer<T>& rhs, Buffer<T>& x);
  void factor_coarsest();

  std::vector<LevelGeometry> levels_;
  MultigridSpec spec_;
  Backend<T>& backend_;
  FluxOperations<T>& flux_;
  double alpha_ = 0, scale_ = 1;
  std::array<double, 3> fine_neighbour_{0, 0, 0};  // op::neighbour_couplings at scale_
  std::vector<Layout> layout_;
  std::vector<Box> box_;
  std::vector<double> omega_;
  std::vector<index_t> held_;
  std::vector<std::array<Buffer<T>, 3>> face_;
  /// Per level: heat's capacity where it varies (op::FluxLevel::capacity, capacity_), the Robin
  /// faces' op::FluxLevel::diagonal (robin_), and with Robin faces capacity_ + scale_ * robin_
  /// (diagonal_); empty buffers where absent. level_diagonal gives FluxOperator::diagonal of the
  /// fine and averaged levels (a Galerkin level's stencil holds R (C + scale robin) P already).
  /// host_capacity_, host_robin_: the coarsest level's, for its factorisation.
  std::vector<Buffer<T>> capacity_, robin_, diagonal_;
  std::vector<T> host_capacity_, host_robin_;
  const T* level_diagonal(std::size_t l) const {
    if (diagonal_[l].size()) return diagonal_[l].data();
    return capacity_[l].size() ? capacity_[l].data() : nullptr;
  }
  std::vector<HaloFillArgs<T>> rules_;
  std::vector<Buffer<T>> x_, next_, rhs_;  // level 0: next_ only (x and rhs are the caller's)
  /// The transfers from level l to l + 1 by axes (flux_transfer.hpp), where every axis halves
  /// or is kept: the halving axes in order, and the grids between (grid[0] the coarse level,
  /// grid.back() the fine one) with buffers for those in between. Empty: linear transfers.
  struct AxisPlan {
    std::vector<int> axes;
    std::vector<Layout> grid;
    std::vector<Buffer<T>> buffer;  // index s for grid[s], 0 < s < axes.size()
  };
  std::vector<AxisPlan> plan_;
  bool galerkin_ = false;
  std::vector<Buffer<T>> stencil_;  // level l >= 1: 3^dims arrays of layout_[l] (Galerkin)
  std::vector<Buffer<T>> held_copy_;  // level l >= 1 with held nodes: the +x faces as uploaded
  void galerkin_product(int level);  // the rows of level + 1
  /// The arguments of galerkin.hpp's steps on Galerkin level `level`, the operation unset.
  GalerkinArgs<T> galerkin_args(int level);
  void probe_galerkin(int level);
  /// The array whose negative entries mark the held nodes of `level`.
  const T* held_marker(int level) const;
  void restrict_level(int level, const Buffer<T>& residual);
  /// e = P x(level + 1) by axes; with `add_where` (the level's held marker, or null for none)
  /// e += P x(level + 1) on the level's updated nodes that are not held instead.
  void prolong_level(int level, Buffer<T>& e, std::optional<const T*> add_where = std::nullopt);
  AxisTransferArgs<T> axis_args(int level, int step, bool restrict) const;
  // The coarsest grid's dense factorisation (LU with partial pivoting) over its unknowns.
  std::array<std::vector<T>, 3> host_face_;  // the coarsest level's faces (host)
  std::vector<index_t> unknown_;             // layout index of each unknown
  std::vector<double> lu_;
  std::vector<int> pivot_;
  std::vector<T> host_rhs_, host_x_;
  std::function<bool()> interrupt_;
  Buffer<T>* fine_x_ = nullptr;  // z and r of precondition()
  const Buffer<T>* fine_rhs_ = nullptr;
};

}  // namespace fdsolve::multigrid
