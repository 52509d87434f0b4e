// The flux form's preconditioner over several ranks: each application gathers the residual of
// every rank's part onto rank 0, which runs the whole grid's cycle (FluxHierarchy or its float
// cycles, exactly as one rank does), and scatters the correction back. The fine operator, the
// residuals, the CG vectors and their inner products stay split (flux_solve.hpp), and the
// preconditioner sees the same residual at every node as on one rank, so the iterates are
// bit-identical to one rank's.
//
// What it costs: rank 0 holds the whole hierarchy, and every iteration moves the fine residual
// and correction through it; the other ranks wait for the cycle. The ranks share the fine
// level's work and memory, not the cycle's (docs/parallel.md).
#pragma once

#include <memory>
#include <vector>

#include "backend.hpp"
#include "flux_hierarchy.hpp"
#include "parallel/comm.hpp"
#include "parallel/decomposition.hpp"

namespace fdsolve::multigrid {

template <typename T>
class GatheredPreconditioner final : public FluxPreconditioner<T> {
 public:
  /// `part`: this rank's fine layout and `d` its decomposition; `whole`: the whole grid's fine
  /// layout, where rank 0's `cycles` (null on the other ranks) read r and write z.
  GatheredPreconditioner(Backend<T>& backend, const parallel::Comm& comm,
                         const parallel::Decomposition& d, const Layout& part, const Layout& whole,
                         FluxPreconditioner<T>* cycles);

  void precondition(const Buffer<T>& r, Buffer<T>& z) override;
  /// A cycle cut short on rank 0 alone would leave the others waiting for its correction: the
  /// loop stops between iterations, agreed over the ranks, instead.
  void set_interrupt(std::function<bool()> /*requested*/) override {}

 private:
  Backend<T>& backend_;
  parallel::Comm comm_;
  parallel::Decomposition d_;
  Layout part_, whole_;
  FluxPreconditioner<T>* cycles_;
  Buffer<T> packed_;             // this rank's owned nodes, dense
  Buffer<T> whole_r_, whole_z_;  // rank 0: the whole grid's r and z
  Buffer<T> whole_packed_;       // rank 0: the whole grid's owned nodes, dense
  std::vector<T> mine_, all_;
};

}  // namespace fdsolve::multigrid
