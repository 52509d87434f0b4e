// What the constant-stencil cycles are asked to do and what they choose once from the backend:
// the settings (solve.multigrid and the operator's shift), the per-level plan of kernels, the
// ranks they run on, and the defaults each choice takes from the backend's traits and the
// measured tables (docs/performance.md), with the environment's measurement knobs.
#pragma once

#include <optional>
#include <vector>

#include "backend.hpp"
#include "case.hpp"
#include "parallel/comm.hpp"
#include "parallel/level_split.hpp"

namespace fdsolve::multigrid {

/// The settings of the cycles (solve.multigrid) and the operator's shift.
struct CycleSettings {
  MultigridSpec spec;
  double alpha = 0;  // A = alpha I - beta L
  double beta = 1;
  /// Factor by which the bottom solve reduces every error mode of the coarsest grid. 0.01: a
  /// V-cycle aims at a factor of about 0.1-0.2 per cycle, so the coarse solve adds at most a
  /// few hundredths to it.
  double bottom_reduction = 0.01;
  /// Compute the residual inside the restriction (Backend::restrict_residual) instead of a
  /// residual sweep, a halo fill and the restriction: two array passes fewer on each level.
  bool fuse_residual_restriction = true;
  /// Interpolate each level's solution cubically in full multigrid's ascent instead of linearly:
  /// off by default (measured on an H100: it saves a V-cycle in 2D double, but its 16- and
  /// 64-point kernel costs more than that saves in float and in 3D; docs/performance-history.md).
  bool cubic_fmg = false;
};

/// Whether fusing the residual into the restriction pays on a backend of `traits` in `dims`
/// dimensions (BackendTraits::fused_residual_restriction_2d; `fdsolve bench --multigrid` runs in
/// docs/performance-history.md): in 2D on the GPU; not in 3D, where each coarse node recomputes
/// 27 residuals, nor on the CPU, whose fused loop is scalar.
bool fused_restriction_pays(const BackendTraits& traits, int dims);

/// The bottom levels visited in one backend call (BottomLevelsCall::bottom_levels) by default:
/// every level of at most this many nodes but the fine one. On the GPU a launch on such a level
/// costs more than its work (about 2 us a graph node, against well under one for a pass of one SM
/// over 4096 nodes), while above it one thread block, one SM of the device's 132, takes longer
/// over a pass than the launch it saves: 4096 nodes is 4 nodes per thread of a 1024-thread block.
constexpr index_t kBottomLevelsCells = 4096;

/// Whether the cycles smooth with blocked passes by default on a backend of `traits` in `dims`
/// dimensions: where it names a step kernel built for smoothing passes (BackendTraits::
/// smoothing_pass_kernel; the temporally blocked tiles, built for eight sweeps a pass, do not pay
/// at two: docs/performance-history.md, "Two smoothing sweeps in one pass").
/// FDSOLVE_BLOCKED_SMOOTHING=0 or 1 overrides it (a measurement knob).
bool blocked_smoothing_default(const BackendTraits& traits, int dims);

/// Whether the cycles add the coarse correction inside the first post-smoothing pass where
/// they can (StencilHierarchy::set_fused_correction): yes, unless FDSOLVE_FUSED_CORRECTION=0 (a
/// measurement knob).
bool fused_correction_default();

/// Whether cycles of `spec` smooth by Chebyshev steps (solve.multigrid.smoother; auto: the
/// measured choice, docs/performance.md).
bool uses_chebyshev(const MultigridSpec& spec);

/// The smallest level that smooths with blocked passes (2^21 nodes, about 1449^2). Below it a
/// pass is bound by latency more than bytes: on an H100 in double a two-sweep pass costs 1.64
/// single sweeps at 1025^2 against 1.2 at 2049^2 and 4097^2, and blocking 1025^2's fine level
/// leaves its V-cycle's time unchanged (docs/performance-history.md, "A faster two-sweep pass").
inline constexpr index_t kBlockedSmoothingCells = index_t(1) << 21;

/// The bottom levels' threshold on a backend of `traits`: kBottomLevelsCells where operations
/// are launch-bound (a GPU); 0 (level by level) on the CPU, whose small levels cost no launches
/// (the CPU tests set it).
index_t bottom_levels_cells(const BackendTraits& traits);

/// The cycles' choices per level, made once from the backend's traits and kernels, the level
/// sizes and the settings (StencilHierarchy's constructor; its setters re-plan one choice, which
/// tests and `bench --multigrid` use to compare the paths), and logged at debug level.
struct LevelPlan {
  KernelId sweep;                  // single sweeps, residuals and the probe
  std::optional<KernelId> passes;  // smoothing in blocked passes (SmoothingPass::blocked)
};
struct CyclePlan {
  std::vector<LevelPlan> level;
  bool pair_probe = false;  // the probe is the fine level's first blocked pass (a checked pair)
  /// The coarse correction inside the first post-smoothing pass, on the levels that smooth in
  /// passes and whose next level nests (StencilHierarchy::fuses_correction).
  bool fused_correction = true;
  int bottom_call_first = 0;  // the first level visited in one backend call (levels: none)
  bool bottom_by_cg = false;  // the coarsest level by conjugate gradients, else by sweeps
};

/// The ranks a hierarchy runs on. With one rank (or no split) every level is whole; with
/// several, the levels below split.gather hold each rank's box (the fine fields the caller's,
/// of split.level[0]'s box), exchange their halos before every operation that reads a
/// neighbour, and the coarser levels run whole: on rank 0 alone (gathered and scattered back),
/// or on every rank from an allgathered right-hand side (`coarse_levels`; level_split.hpp).
struct LevelRanks {
  parallel::Comm comm;
  const parallel::LevelSplit* split = nullptr;
  CoarseLevels coarse_levels = CoarseLevels::Auto;
};

/// Whether the gathered levels run on every rank: Redundant and Gather say so; Auto does where
/// `backend`'s halo travels device to device (its exchange is connected), so that the gather is
/// a device collective and a cycle needs no host between its kernels.
template <typename T>
bool redundant_coarse_levels(CoarseLevels choice, Backend<T>& backend) {
  if (choice != CoarseLevels::Auto) return choice == CoarseLevels::Redundant;
  const DeviceExchange<T>* device = backend.device_exchange();
  return device && device->connected() && !backend.host_memory();
}

/// Whether cycles that can be recorded are (Backend::record): yes, unless FDSOLVE_RECORD_CYCLES=0
/// (a test and measurement knob: the launched cycles must give the recorded ones' numbers).
bool record_cycles_default();

/// Thrown out of a cycle abandoned on request (StencilHierarchy::set_interrupt). The fine field is
/// then part-way through the cycle: the caller restores the state the cycle started from.
struct CycleInterrupted {};

}  // namespace fdsolve::multigrid
