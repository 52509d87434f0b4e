// What an implicit heat step asks of its operator: the part of a step that differs between the
// constant stencil (stencil_step.cpp, over multigrid::StencilHierarchy) and the flux form
// (flux_step.cpp, over multigrid::FluxCyclesOnRanks and FluxIteration). The step's protocol
// over it (the scheme and its shift, the source term over t and t', the boundary values at t',
// the cycles to the step's tolerance, the extrapolated start) is ImplicitStep's
// (implicit_step.hpp), written once; a new operator form implements this interface.
//
// Both solve, per step from t to t' = t + dt with theta 1 (backward Euler) or 1/2
// (Crank-Nicolson),
//   (C + theta dt A) u' = (C - (1 - theta) dt A) u + dt (theta q(t') + (1 - theta) q(t))
// with C the identity or heat's capacity where it varies (a capacity that is a number c divides
// the equation: dt / c in place of dt).
#pragma once

#include <cstdint>
#include <vector>

#include "backend.hpp"
#include "parallel/comm.hpp"
#include "parallel/halo_exchange.hpp"
#include "parallel/subdomain.hpp"
#include "problem/boundary_conditions.hpp"
#include "run_output.hpp"

namespace fdsolve::heat {

/// A step's scheme as set_step hands it to the operator side.
struct StepScheme {
  double dt = 0;
  double step = 0;  // dt / c, c a capacity that is a number (1: dt)
  bool backward_euler = false;
  double beta = 0;  // the shift theta step k (k: StepOperator::coefficient)
};

/// The loop's fields on this rank and what fills their ghosts; they outlive the stepper.
template <typename T>
struct StepFields {
  Buffer<T>& cur;   // u
  Buffer<T>& next;  // its second buffer
  Boundaries<T>& boundaries;
  HaloExchange<T>& halo;
  parallel::Comm comm;
  Subdomain sub;  // this rank's part of the grid, its layout and updated nodes
  Layout layout;
  Box box;
  /// Fills the ghosts of x with the gradients of the last Boundaries::gradients_at and the
  /// faces from the other ranks.
  void fill_ghosts(Buffer<T>& x) const { boundaries.fill_ghosts(x, halo); }
  /// A sweep of u into `out` with the source field `source`, over this rank's updated nodes
  /// (the operator's weights or flux form still to set).
  SweepArgs<T> sweep_of_u(Buffer<T>& out, const T* source) const {
    SweepArgs<T> a;
    a.in = cur.data();
    a.out = out.data();
    a.source_field = source;
    a.layout = layout;
    a.box = box;
    return a;
  }
};

template <typename T>
class StepOperator {
 public:
  virtual ~StepOperator() = default;

  // The shifted operator and the right-hand side.

  /// The number the shift multiplies in: the constant stencil's k (its weights are L's); 1 for
  /// the flux form, whose faces carry k.
  virtual double coefficient() const = 0;
  /// Shifts the cycles' operator by `beta` (called when it changes).
  virtual void set_shift(double beta) = 0;
  /// The factor of the right-hand side g = rhs_scale f that the cycles read, at the shift.
  virtual double rhs_scale() const = 0;
  /// Prepares the right-hand side's sweep for steps of `s` (after set_shift).
  virtual void set_rhs(const StepScheme& s) = 0;
  /// Whether the source term reaches build_rhs as a field; where not, set_rhs folds the
  /// source (a number) into the sweep.
  virtual bool source_field() const = 0;
  /// Builds g from u, whose ghosts hold the gradients at t, and `source` (the source term
  /// rhs_scale dt (theta q(t') + (1 - theta) q(t)); null: none).
  virtual void build_rhs(const T* source) = 0;
  /// Writes the held values that follow t at `t_next` into u and its second buffer.
  virtual void hold_at(double /*t_next*/) {}
  /// The array whose negative entries mark the held nodes, or null where none is held.
  virtual const T* held_marker() const { return nullptr; }

  // The cycles of a step.

  /// This rank's statistics of the residual of u (leaves u unchanged and begins the next
  /// cycle); residual_scale() times its norms are the residual's.
  virtual SweepStats probe() = 0;
  virtual double residual_scale() const { return 1.0; }
  /// How many cycles may run before the host reads their probes (0: each probe waits):
  /// enqueue_probe queues one, collect_probes returns those queued, in order, at one wait.
  virtual int max_unchecked() const { return 0; }
  virtual void enqueue_probe() {}
  virtual std::vector<SweepStats> collect_probes() { return {}; }
  /// The step's cycles begin from a residual of `norm` (the old u's, or the start guess's).
  virtual void start_cycles(double /*norm*/) {}
  /// Completes the cycle after `done` of the step (a probe began it).
  virtual void cycle(std::int64_t done) = 0;
  /// Whether cycle number `cycles` of the step, which left the residual at `norm` (above the
  /// step's target) from `before`, shows that more cycles would not reduce it.
  virtual bool stalled(std::int64_t cycles, double norm, double before) = 0;

  // Timings over several ranks.

  /// Times the cycles' operations per level from now on, where the cycles can; whether they do.
  virtual bool time_levels() { return false; }
  /// The seconds per level so far (time_levels), or null.
  virtual const std::vector<output::LevelSeconds>* level_seconds() const { return nullptr; }
};

}  // namespace fdsolve::heat
