// Float cycles preconditioning a double solve on the flux form (solve.multigrid.precision:
// float with a coefficient field or held nodes). The residual r of the double solve is narrowed
// to float, one cycle of a float FluxHierarchy on the backend's float companion solves
// A z = r approximately from z = 0, and z is widened back. u, the residual, the conjugate
// gradient vectors and the fine operator stay double, so the solve converges to the double
// answer; the cycle's passes (the face arrays included) move float's bytes.
#pragma once

#include <functional>
#include <memory>
#include <vector>

#include "flux_hierarchy.hpp"

namespace fdsolve::multigrid {

class FloatFluxCycles final : public FluxPreconditioner<double> {
 public:
  /// The float face arrays of every level of the medium `m` (op::flux_levels<float>) are built
  /// on the float companion; `layout` and `box`: the double fine field's layout and the nodes
  /// its sweeps update.
  FloatFluxCycles(std::vector<LevelGeometry> levels, const op::Medium& m,
                  const MultigridSpec& spec, Backend<double>& backend, const Layout& layout,
                  const Box& box);
  ~FloatFluxCycles() override;

  /// z = widen(M narrow(r)): r's held nodes are ignored, z's are zero. The two backends'
  /// queues are ordered by the host (a wait before and after the float cycle).
  void precondition(const Buffer<double>& r, Buffer<double>& z) override;
  void set_interrupt(std::function<bool()> requested) override {
    cycles_->set_interrupt(std::move(requested));
  }
  const FluxHierarchy<float>& cycles() const { return *cycles_; }
  /// Backend memory of the float hierarchy's fine fields beyond FluxHierarchy's own: the
  /// narrowed residual and the float correction.
  static std::size_t extra_bytes(const Layout& float_fine) {
    return 2 * sizeof(float) * static_cast<std::size_t>(float_fine.size);
  }

 private:
  Backend<double>& backend_;
  MixedPrecision<double>& mixed_;
  std::unique_ptr<Backend<float>> float_backend_;
  std::unique_ptr<FluxHierarchy<float>> cycles_;
  Layout layout_;
  Box box_;
  Buffer<float> r_, z_;  // the float cycle's right-hand side and correction (its fine layout)
};

}  // namespace fdsolve::multigrid
