// The CPU (OpenMP) sweeps: the reference the CUDA kernels are tested against.
#pragma once

#include "../halo_fill.hpp"
#include "../stencil.hpp"
#include "../bottom_cg.hpp"
#include "../bottom_levels.hpp"
#include "../exact_sum.hpp"
#include "../transfer.hpp"
#include "../flux_transfer.hpp"
#include "../galerkin.hpp"
#include "../galerkin_product.hpp"
#include "../node_difference.hpp"

namespace fdsolve::cpu {

/// One sweep of `args`; when `stats` is not null it receives the stats of the update,
/// reduced row by row in a fixed order so that the result does not depend on thread count.
template <typename T>
void sweep(const SweepArgs<T>& args, SweepStats* stats);

/// The 19- and 27-point sweep that marches blocks of rows through z, computing each input
/// plane's in-plane sums once for the three output planes they feed (stencil3d_cpu.cpp).
template <typename T>
void sweep_3d_march(const SweepArgs<T>& args, SweepStats* stats);

/// Fills the halo beyond the faces that have a ghost rule (halo_fill_cpu.cpp).
template <typename T>
void fill_halo(const HaloFillArgs<T>& args);

/// Copies dense `values` onto the nodes of `box` of `field`.
template <typename T>
void write_box(T* field, const Layout& layout, const Box& box, const T* values);

/// Multigrid's restriction and prolongation (transfer_cpu.cpp).
template <typename T>
void restrict_to_coarse(const TransferArgs<T>& args);
template <typename T>
void prolong_add(const TransferArgs<T>& args);
template <typename T>
void restrict_residual(const ResidualRestrictArgs<T>& args);
template <typename T>
void prolong_cubic_add(const TransferArgs<T>& args);
/// Multigrid's bottom solve by conjugate gradients (bottom_cg_cpu.cpp); returns its iterations.
template <typename T>
int bottom_solve(const BottomSolveArgs<T>& args);
/// Multigrid's coarsest levels visited in one call (bottom_levels_cpu.cpp).
template <typename T>
void bottom_levels(const BottomLevelsArgs<T>& args);
/// Sets `n` values to `value`.
template <typename T>
void fill_value(T* dst, index_t n, T value);
/// Copies the nodes of `box` (halo allowed) of `field` into dense `packed`, and back
/// (halo_pack_cpu.cpp).
template <typename T>
void pack_box(const T* field, const Layout& layout, const Box& box, T* packed);
template <typename T>
void unpack_box(T* field, const Layout& layout, const Box& box, const T* packed);

/// The variable-coefficient sweep (args.flux active; flux_cpu.cpp), statistics as sweep's
/// over the nodes that are not held.
template <typename T>
void flux_sweep(const SweepArgs<T>& args, SweepStats* stats);
/// y = a x + b y on the box's nodes that are not held, and the volume-weighted inner product's
/// exactly summed terms (flux_operator.hpp, exact_sum.hpp).
template <typename T>
void combine(const LinearCombinationArgs<T>& args);
template <typename T>
DotPartial dot_terms(const DotArgs<T>& args, int scale);
/// One step of building a Galerkin coarse operator (galerkin.hpp), over every owned node.
template <typename T>
void galerkin(const GalerkinArgs<T>& args);
/// The coarse rows of R A P (galerkin_product.hpp), over args.box.
template <typename T>
void galerkin_product(const GalerkinProductArgs<T>& args);
/// One axis of the variable-coefficient transfers (flux_transfer.hpp).
template <typename T>
void transfer_axis(const AxisTransferArgs<T>& args);

/// STREAM-style copy of `n` values, used as the CPU bandwidth yardstick.
template <typename T>
void copy(T* dst, const T* src, index_t n);

/// Richardson's shared-node differences (node_difference.hpp), rows in parallel.
template <typename T>
NodeDifference shared_node_difference(const SharedNodesArgs<T>& args);

}  // namespace fdsolve::cpu
