// The held values of problem.fixed that depend on t (heat only): evaluated on the backend at
// each new time level and written onto the nodes their region holds, as the Dirichlet faces'
// values are (Boundaries::write_dirichlet), so that every scheme sees the held nodes at the
// time of the level they belong to.
#pragma once

#include <vector>

#include "backend.hpp"
#include "case.hpp"
#include "medium.hpp"
#include "parallel/subdomain.hpp"

namespace fdsolve::op {

/// Writes the held values of `m` (at t = 0) onto the nodes it holds among those `sub` owns, in
/// `field` of layout `L` on the backend (its face build: kernels/level_faces.hpp, WriteHeld);
/// every other node keeps its value.
template <typename T>
void write_held_values(const Medium& m, const Subdomain& sub, const Layout& L,
                       Backend<T>& backend, Buffer<T>& field);

template <typename T>
class HeldValues {
 public:
  /// The regions of `c` whose value uses t, over the nodes `sub` owns (`L`: its field layout),
  /// with the held nodes of `m`. Nothing is allocated when no held value uses t. Throws
  /// InputError when such a region is the 255th or later (those share one mark in `m`).
  HeldValues(const Case& c, const Medium& m, Backend<T>& backend, const Layout& L,
             const Subdomain& sub);

  /// Whether some held value depends on t (the steps must then write it at each level).
  bool time_dependent() const { return !regions_.empty(); }
  /// Evaluates the values at t on the backend. Throws NonFiniteInput naming the key, the node
  /// and t where one is NaN or Inf.
  void evaluate(double t);
  /// Writes the values of the last evaluate onto the held nodes of `field`, leaving every other
  /// node as it is.
  void write(Buffer<T>& field);

 private:
  struct Region {
    std::size_t index = 0;  // its place in problem.fixed
    Box box;                // the smallest box of this rank's nodes holding its held nodes
    Buffer<T> marker;       // >= 0 on its held nodes, negative elsewhere (the combine's mask)
    Buffer<T> values;       // its value at the last evaluate, on `box`
  };

  const Case& c_;
  Backend<T>& backend_;
  Layout L_;
  Subdomain sub_;
  std::vector<Region> regions_;
};

}  // namespace fdsolve::op
