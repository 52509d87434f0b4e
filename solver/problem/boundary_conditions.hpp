// The physical boundaries during a run: ghost rules for Neumann and periodic faces (filled
// into the halo before every sweep), and Dirichlet values and Neumann gradients that depend on
// t, re-evaluated as a heat run advances.
#pragma once

#include <array>
#include <vector>

#include "backend.hpp"
#include "case.hpp"
#include "parallel/subdomain.hpp"

namespace fdsolve {

template <typename T>
class HaloExchange;

template <typename T>
class Boundaries {
 public:
  /// Sets up the ghost rules of `c` for fields of layout `L` on `backend`; per-node gradient
  /// offsets live in backend memory.
  Boundaries(const Case& c, Backend<T>& backend, const Layout& L);
  /// The same for the nodes `sub` owns: faces between ranks get no rule (the halo exchange
  /// fills them), values and gradients are evaluated at global coordinates.
  Boundaries(const Case& c, Backend<T>& backend, const Layout& L, const Subdomain& sub);

  /// Before the sweep that takes `cur` (at time t) to `next` (at t_next): fills the ghosts of
  /// `cur` with the gradients at t and, when Dirichlet values change in time, writes their
  /// values at t_next onto `next`'s boundary nodes.
  void before_sweep(Buffer<T>& cur, Buffer<T>& next, double t, double t_next);
  /// The same, exchanging the faces shared with other ranks through `halo`, axis by axis
  /// between the physical faces' ghosts: each axis's exchange and ghost rules then see the
  /// earlier axes' halo complete, so edge and corner ghosts (19/27 points) match one rank's.
  void before_sweep(Buffer<T>& cur, Buffer<T>& next, double t, double t_next,
                    HaloExchange<T>& halo);

  // The pieces of before_sweep (one rank), for loops that sweep many times per time step
  // (implicit heat: every multigrid sweep of a step sees the boundary data of its new level,
  // evaluated once per step, and fills only ghosts, which a CUDA graph can capture).
  /// Makes the ghost fills use the Neumann gradients at t (host evaluation and upload, only
  /// when a gradient depends on t and t changed). Not to be called while recording.
  void gradients_at(double t);
  /// Enqueues filling the ghosts of `field` with the gradients of the last gradients_at.
  void fill_ghosts(Buffer<T>& field);
  /// The same over several ranks: the faces shared with other ranks exchanged through `halo`,
  /// axis by axis between the physical ghosts (as before_sweep).
  void fill_ghosts(Buffer<T>& field, HaloExchange<T>& halo);
  /// Writes the Dirichlet values at t onto `field`'s boundary nodes when they depend on t.
  void write_dirichlet(Buffer<T>& field, double t);

  /// Lets the sweeps write the x faces' ghosts themselves (SweepArgs::x_ghosts) instead of the
  /// fill's x pass, whose one scattered sector per row costs about a third of a 3D sweep: fills
  /// the whole halo of `a` and `b` once (rows the sweeps never update, such as Dirichlet faces',
  /// keep those ghosts) and returns the x faces for the sweeps' arguments; later fills leave
  /// the x faces out. Where the ghosts would not stay the same it changes nothing and returns
  /// faces without a rule: no rule on x, a value or gradient that depends on t, a face shared with
  /// another rank, fewer than 3 nodes along x.
  std::array<GhostFace<T>, 2> sweeps_write_x_ghosts(Buffer<T>& a, Buffer<T>& b);

  /// The ghost rules of the physical faces (the halo exchange refills the edge ghosts beside
  /// another rank's halo with them); their field is set at each use.
  const HaloFillArgs<T>& ghost_rules() const { return fill_; }
  /// Whether any face rule fills the halo (Neumann or periodic faces).
  bool fills_halo() const { return fill_.any(); }
  /// Whether some Dirichlet value or Neumann gradient depends on t.
  bool time_dependent() const { return dirichlet_in_time_ || gradient_in_time_; }

 private:
  void set_gradients(double t);
  void fill_ghosts(Buffer<T>& cur, double t, HaloExchange<T>* halo);
  /// fill_ without the x faces once the sweeps write them.
  HaloFillArgs<T> fills() const;

  const Case& c_;
  Backend<T>& backend_;
  Layout L_;
  Subdomain sub_;
  HaloFillArgs<T> fill_;
  std::array<Buffer<T>, 6> offsets_;  // per-node 2 h g of faces whose gradient varies
  bool dirichlet_in_time_ = false;
  bool gradient_in_time_ = false;
  double gradient_time_ = 0;  // t of the offsets now in offsets_
  bool sweeps_write_x_ = false;
};

}  // namespace fdsolve
