// The flux form's operator and cycles wherever the solve runs: the whole grid's hierarchy on one
// rank; over several, each rank's part of the fine operator and the hierarchy on rank 0 behind
// a gathered preconditioner (gathered_preconditioner.hpp). The steady solve (flux_solve.hpp)
// and the implicit heat step (heat/flux_step.hpp) both build their cycles here.
#pragma once

#include <memory>
#include <vector>

#include "backend.hpp"
#include "case.hpp"
#include "flux_hierarchy.hpp"
#include "parallel/comm.hpp"
#include "parallel/decomposition.hpp"

namespace fdsolve::op {
struct Medium;
}

namespace fdsolve::multigrid {

class FloatFluxCycles;
template <typename T>
class GatheredPreconditioner;

/// The flux form's operator and cycles for a solve over the ranks of `comm`, this rank's part
/// `d`. One rank: the whole grid's hierarchy (FluxHierarchy, or with `float_cycles` in a double
/// solve its float cycles, float_flux.hpp) and its fine operator. Several: that hierarchy on
/// rank 0 behind a GatheredPreconditioner, and every rank's part of the fine faces.
template <typename T>
class FluxCyclesOnRanks {
 public:
  /// The operator alpha I + scale (-div(beta grad)) over `levels` (build_hierarchy of the
  /// case's fine level); float cycles only at (0, 1).
  FluxCyclesOnRanks(const Case& c, std::vector<LevelGeometry> levels, const op::Medium& m,
                    Backend<T>& backend, const parallel::Comm& comm,
                    const parallel::Decomposition& d, double alpha, double scale,
                    bool float_cycles);
  ~FluxCyclesOnRanks();

  /// A new shift (an implicit step whose dt differs): rank 0's coarse levels are rebuilt.
  void set_shift(double alpha, double scale);
  /// The fine operator on this rank's part, at the current shift.
  const FineFlux<T>& fine() const { return fine_; }
  FluxPreconditioner<T>& preconditioner() { return *cycles_; }
  const std::vector<LevelGeometry>& levels() const { return levels_; }
  /// Whether the coarse levels are Galerkin operators (FluxHierarchy::galerkin), on every rank.
  bool galerkin() const { return galerkin_; }

 private:
  void shift_fine(double alpha, double scale);

  std::vector<LevelGeometry> levels_;
  std::unique_ptr<FluxHierarchy<T>> same_;
  std::unique_ptr<FloatFluxCycles> in_float_;
  std::unique_ptr<FineFaces<T>> fine_faces_;
  std::unique_ptr<GatheredPreconditioner<T>> gathered_;
  FluxPreconditioner<T>* cycles_ = nullptr;
  FineFlux<T> fine_;
  bool galerkin_ = false;
};

}  // namespace fdsolve::multigrid
