// The variable-coefficient operator on every level of a multigrid hierarchy (or on the fine
// grid alone, for Jacobi and heat steps), as the face arrays the flux sweep reads
// (kernels/flux_operator.hpp), built in the backend's memory by its face build
// (kernels/level_faces.hpp says which faces each level has): on a GPU the medium's node values
// go up once and every level's faces, held markers and per-node terms are formed there.
//
// Robin faces: each level's boundary nodes carry the face term 2 h / h_a on the diagonal
// (FluxLevel::diagonal), re-discretised at the level's own spacing as the faces are, so that a
// coarse level approximates the fine operator (mirror ghost u_g = u_in - 2 h_a (h / beta_f)
// (u_b - ambient): c_a beta_f (u_b - u_g) = c_a beta_f (u_b - u_in) + scale (2 h / h_a) (u_b -
// ambient), beta_f cancels).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "backend.hpp"
#include "host_array.hpp"
#include "medium.hpp"
#include "multigrid/hierarchy.hpp"
#include "parallel/subdomain.hpp"

namespace fdsolve::op {

/// A level's operator arrays in the backend's memory.
template <typename T>
struct FluxLevel {
  Layout layout;                        // the level's field layout for T
  std::array<Buffer<T>, 3> face;        // per axis, `layout`; held nodes: negative +x face
  index_t held_count = 0;               // held nodes the level owns
  /// Robin faces: per node of `layout`, the sum over the Robin faces it lies on of 2 h / h_a
  /// (0 elsewhere and on Dirichlet faces), the operator's diagonal term at scale 1
  /// (FluxOperator::diagonal); empty without a Robin face.
  Buffer<T> diagonal;
  /// Heat's capacity at the level's nodes (`layout`, 0 in the halo) where it varies: the
  /// implicit step's diagonal C of C + theta dt A; coarse levels take the value of the fine node
  /// under them, as the coefficient's node values. Empty otherwise. With Robin faces as well the
  /// operator's diagonal (FluxOperator::diagonal) is capacity + scale * diagonal.
  Buffer<T> capacity;
};

/// The face arrays of every level of `levels` (fine first) for the medium `m` of the fine
/// grid, built in `backend`'s memory. `averaged_faces` false: the nested coarse levels' faces
/// come from their node values, as those of levels that do not nest, instead of averaging the
/// finer level's (for Galerkin levels, whose operator and faces the hierarchy forms itself and
/// which read only the held marks of these).
template <typename T>
std::vector<FluxLevel<T>> flux_levels(const std::vector<multigrid::LevelGeometry>& levels,
                                      const Medium& m, Backend<T>& backend,
                                      bool averaged_faces = true);

/// The fine level alone on the nodes `sub` owns (a rank's box; its layout for T): what the
/// Jacobi and explicit heat sweeps read. Faces toward a neighbouring rank's nodes come from the
/// whole grid's coefficient, so every rank computes the same face values.
template <typename T>
FluxLevel<T> fine_flux_level(const multigrid::LevelGeometry& fine, const Medium& m,
                             const Subdomain& sub, Backend<T>& backend);

/// fine_flux_level's per-node terms alone, without its faces: the capacity (where it varies) and
/// the Robin faces' diagonal, on the nodes `sub` owns.
template <typename T>
FluxLevel<T> fine_diagonal_terms(const multigrid::LevelGeometry& fine, const Medium& m,
                                 const Subdomain& sub, Backend<T>& backend);

/// 1 / c_i (heat's capacity) at the nodes `sub` owns, in its layout `L` (0 elsewhere): the
/// explicit step's factor per node (FluxOperator::step_scale).
template <typename T>
HostArray<T> inverse_capacity(const Medium& m, const Layout& L, const Subdomain& sub);

/// The neighbour-class couplings (FluxOperator::neighbour) of the operator
/// scale (-div(beta grad)) on grid `g`: the 19- or 27-point Laplacian's weight of each face,
/// edge and corner neighbour, beta read from the faces; zeros for 5 and 7 points (the face
/// form).
std::array<double, 3> neighbour_couplings(const multigrid::LevelGeometry& g, double scale);

/// The largest sum over a node's faces of beta_f / h_a^2 plus its Robin term 2 h / h_a on the
/// fine grid (held nodes out): the explicit heat step's stability limit is c / that, c the
/// capacity's number.
double largest_flux_diagonal(const multigrid::LevelGeometry& fine, const Medium& m);

/// The smallest c_i / D_i over the fine grid's nodes that a step updates (held nodes and those
/// on Dirichlet faces out), D_i the sum over node i's faces of beta_f / h_a^2 plus its Robin
/// term 2 h / h_a, and c_i its capacity: the explicit heat step's stability limit with a capacity that varies.
double smallest_capacity_over_diagonal(const multigrid::LevelGeometry& fine, const Medium& m);

}  // namespace fdsolve::op
