// What the halo beyond one physical face holds: the rule shared by the halo fill
// (halo_fill.hpp) and by sweeps that write a face's ghosts themselves (SweepArgs::x_ghosts).
#pragma once

#include "host_device.hpp"

namespace fdsolve {

/// None: nothing is read there (Dirichlet faces, whose nodes are never updated) or a
/// neighbouring rank fills it.
enum class GhostRule : int { None = 0, Mirror = 1, Wrap = 2 };

/// One face's rule. Mirror: ghost = (node one inside the face) + offset, with offset = 2 h g for
/// the outward gradient g (second-order Neumann); `offsets`, when not null, gives the offset per
/// face node (see HaloAxis::face_index) and overrides `offset`.
template <typename T>
struct GhostFace {
  GhostRule rule = GhostRule::None;
  T offset = T(0);
  const T* offsets = nullptr;  // backend memory
};

/// The index along the face's axis (of n nodes) of the node a ghost copies: one inside the
/// face for a mirror, the far end for a wrap. The ghost itself is at -1 (side 0) or n (side 1).
/// The halo fill's definition; the vector marches' ghost writes (sweep_common.cuh) spell the
/// same rule out, because calling this there moved their register allocation past a block per
/// SM (ptxas, sm_90), and tests/problems/test_x_ghosts_in_sweep.cpp holds them to the fill's bits.
template <typename I>
FDSOLVE_HOST_DEVICE I ghost_source(GhostRule rule, int side, I n) {
  return rule == GhostRule::Wrap ? (side == 0 ? n - 1 : I(0)) : (side == 0 ? I(1) : n - 2);
}

}  // namespace fdsolve
