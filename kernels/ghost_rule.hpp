// What the halo beyond one physical face holds: the rule shared by the halo fill
// (halo_fill.hpp) and by sweeps that write a face's ghosts themselves (SweepArgs::x_ghosts).
#pragma once

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

}  // namespace fdsolve
