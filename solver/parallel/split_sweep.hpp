// One sweep of a rank's box with its halo exchange: the loop's sweep step, the same call on one
// rank and on many. Over several ranks the box is split into its interior (the nodes that read
// no exchanged halo) and the rim slabs along the exchanged faces; with overlap the faces travel
// while the interior is swept, and the rim is swept once they have arrived:
//   start exchange -> sweep interior -> finish exchange -> sweep rim
// (NVIDIA's mpi_overlap Jacobi sample overlaps the same way, its boundary work on a
// high-priority stream). Without overlap the exchange completes before the same pieces are
// swept, so the two modes give bit-identical fields and norms.
#pragma once

#include <vector>

#include "backend.hpp"
#include "halo_exchange.hpp"

namespace fdsolve {

/// The interior of `box` (shrunk by one node on each face of `layout` whose halo another rank
/// fills; it may be empty) followed by the rim slabs, disjoint and covering `box`, in a fixed
/// order: interior, then per axis x, y, z the low and the high slab (empty slabs left out).
std::vector<Box> split_box(const Box& box, const Layout& layout, const std::array<bool, 6>& exchanged);

/// Host seconds of the sweep steps of a run, by what the host was doing.
struct SweepTimes {
  double sweep = 0;     // enqueuing sweeps and waiting for their results (and, on a GPU, for
                        // earlier sweeps before the faces could be packed)
  double exchange = 0;  // the halo exchange (packing, staging copies, MPI, unpacking)
};

template <typename T>
class SplitSweep {
 public:
  /// Sweeps of `box` with `kernel`; `overlap` is ignored when `halo` exchanges nothing.
  SplitSweep(Backend<T>& backend, HaloExchange<T>& halo, KernelId kernel, const Box& box,
             bool overlap);

  /// Exchanges the halo of `field` (the sweep's input, args.in) and sweeps `box` (args.box is
  /// replaced); may return before the sweep finishes, like Backend::sweep.
  void sweep(Buffer<T>& field, SweepArgs<T> args);
  /// The same returning the statistics of the update, the pieces' merged in their fixed order.
  SweepStats sweep_with_stats(Buffer<T>& field, SweepArgs<T> args);

  /// Whether the faces travel during the interior sweep.
  bool overlapped() const { return overlap_; }
  SweepTimes times() const;

 private:
  template <typename SweepPiece>
  void run(Buffer<T>& field, SweepArgs<T>& args, SweepPiece&& sweep_piece);

  Backend<T>& backend_;
  HaloExchange<T>& halo_;
  KernelId kernel_;
  std::vector<Box> pieces_;  // interior first, then the rim slabs
  bool overlap_ = false;
  double sweep_seconds_ = 0;
};

}  // namespace fdsolve
