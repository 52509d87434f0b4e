// See flux_on_ranks.hpp.
#include "flux_on_ranks.hpp"

#include <stdexcept>

#include "float_flux.hpp"
#include "gathered_preconditioner.hpp"
#include "loop/run_clock.hpp"
#include "operator/flux_levels.hpp"
#include "problem/problem_setup.hpp"

namespace fdsolve::multigrid {

template <typename T>
FluxCyclesOnRanks<T>::FluxCyclesOnRanks(const Case& c, std::vector<LevelGeometry> levels,
                                        const op::Medium& m, Backend<T>& backend,
                                        const parallel::Comm& comm,
                                        const parallel::Decomposition& d, double alpha,
                                        double scale, bool float_cycles)
    : levels_(std::move(levels)) {
  const Subdomain whole = Subdomain::whole(c);
  const Layout whole_layout = field_layout(c, sizeof(T), whole);
  // Rank 0 builds the whole grid's hierarchy, as one rank does; the cycles in T, or in float
  // inside the double solve (float_flux.hpp).
  if (comm.root()) {
    if constexpr (std::is_same_v<T, double>) {
      if (float_cycles) {
        in_float_ = std::make_unique<FloatFluxCycles>(levels_, m, c.solve.multigrid, backend,
                                                      whole_layout, update_box(c, whole));
        cycles_ = in_float_.get();
        galerkin_ = in_float_->cycles().galerkin();
      }
    }
    if (!cycles_) {
      auto built = op::flux_levels<T>(levels_, m, backend, !galerkin_levels(levels_));
      RunClock::get().mark("face arrays built");
      same_ = std::make_unique<FluxHierarchy<T>>(levels_, std::move(built), c.solve.multigrid,
                                                 backend, alpha, scale);
      cycles_ = same_.get();
      galerkin_ = same_->galerkin();
    }
  }
  // The fine operator of the solve: the hierarchy's own on one rank in T; else this rank's
  // part of the fine faces in T, uploaded on their own.
  if (same_ && !comm.several()) {
    fine_ = same_->fine();
  } else {
    fine_faces_ = std::make_unique<FineFaces<T>>(levels_[0],
                                                 op::fine_flux_level<T>(levels_[0], m, d.sub, backend),
                                                 backend);
    fine_ = fine_faces_->fine();
    shift_fine(alpha, scale);
  }
  if (comm.several()) {
    gathered_ = std::make_unique<GatheredPreconditioner<T>>(
        backend, comm, d, field_layout(c, sizeof(T), d.sub), whole_layout, cycles_);
    cycles_ = gathered_.get();
  }
  if (comm.several()) galerkin_ = comm.max(galerkin_ ? 1 : 0) == 1;  // rank 0's
}

template <typename T>
FluxCyclesOnRanks<T>::~FluxCyclesOnRanks() = default;

template <typename T>
void FluxCyclesOnRanks<T>::set_shift(double alpha, double scale) {
  if (in_float_) throw std::logic_error("float cycles of the flux form have no shift");
  if (same_) same_->set_shift(alpha, scale);
  if (!fine_faces_) {
    fine_ = same_->fine();
    return;
  }
  shift_fine(alpha, scale);
}

template <typename T>
void FluxCyclesOnRanks<T>::shift_fine(double alpha, double scale) {
  fine_.alpha = alpha;
  fine_.scale = scale;
  fine_.neighbour = op::neighbour_couplings(levels_[0], scale);
  fine_.diagonal = fine_faces_->scaled_diagonal(scale);
}

template class FluxCyclesOnRanks<float>;
template class FluxCyclesOnRanks<double>;

}  // namespace fdsolve::multigrid
