// See float_flux.hpp.
#include "float_flux.hpp"

#include "loop/run_clock.hpp"

namespace fdsolve::multigrid {

FloatFluxCycles::FloatFluxCycles(std::vector<LevelGeometry> levels, const op::Medium& m,
                                 const MultigridSpec& spec, Backend<double>& backend,
                                 const Layout& layout, const Box& box)
    : backend_(backend),
      mixed_(require_mixed_precision(backend)),
      float_backend_(mixed_.float_companion()),
      layout_(layout),
      box_(box) {
  auto built = op::flux_levels<float>(levels, m, *float_backend_, !galerkin_levels(levels));
  RunClock::get().mark("face arrays built");
  cycles_ = std::make_unique<FluxHierarchy<float>>(std::move(levels), std::move(built), spec,
                                                   *float_backend_, 0.0, 1.0);
  const index_t n = cycles_->fine_layout().size;
  for (auto* b : {&r_, &z_}) {
    *b = float_backend_->allocate(n);
    float_backend_->zero(*b);  // the nodes outside the box stay zero
  }
  float_backend_->synchronize();
}

FloatFluxCycles::~FloatFluxCycles() = default;

void FloatFluxCycles::precondition(const Buffer<double>& r, Buffer<double>& z) {
  const Layout& float_fine = cycles_->fine_layout();
  mixed_.narrow_difference(r, Buffer<double>{}, layout_, r_.data(), float_fine, box_);
  backend_.synchronize();
  cycles_->precondition(r_, z_);
  float_backend_->synchronize();
  backend_.zero(z);
  mixed_.add_widened(z, layout_, z_.data(), float_fine, box_);
}

}  // namespace fdsolve::multigrid
