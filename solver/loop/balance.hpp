// The balance of a check (docs/numerics.md "Integrals and fluxes"): the integral of c u by the
// scheme's own quadrature (the heat content; c = 1 but for heat's problem.capacity), and the
// outward flux through each face and each held region, as the discrete operator has it. They
// obey the scheme's conservation statement exactly: the outward fluxes sum to the integral of f
// less the weighted residual of the free nodes, so that a steady solve's fluxes sum to the
// source's integral and an insulated heat run's integral rises by dt x the integral of q each
// step, both to rounding.
//
// Measured on the host from u (with its halo toward other ranks filled), at checks only. Over
// ranks each rank measures its own nodes and the partials are added in rank order.
#pragma once

#include <array>
#include <memory>
#include <string>
#include <vector>

#include "case.hpp"
#include "layout.hpp"
#include "operator/medium.hpp"
#include "parallel/comm.hpp"
#include "parallel/subdomain.hpp"

namespace fdsolve {

/// Whether the checks of `c` measure the balance: laplace, poisson and heat on the 5- and
/// 7-point stencils (with a constant coefficient, a coefficient field or held nodes). The 19-
/// and 27-point stencils couple edge and corner neighbours, whose fluxes cross no single face
/// of a node's cell, and custom weights state no conservation law: their checks leave it out.
bool measures_balance(const Case& c);

class Balance {
 public:
  /// The balance of the nodes `sub` owns, with the coefficient and held regions of `medium`
  /// (the whole grid's).
  Balance(const Case& c, const Subdomain& sub, std::shared_ptr<const op::Medium> medium);

  /// 2 dims: the faces' flux columns (x_min first).
  int faces() const { return 2 * dims_; }
  /// integral, a flux per face, a flux per held region.
  std::size_t columns() const { return 1 + static_cast<std::size_t>(faces()) + regions_; }

  /// This rank's share of the balance of `u` (its field in layout `L`, the halo of faces
  /// shared with other ranks filled) at time `t`: integral, face fluxes, region fluxes.
  template <typename T>
  std::vector<double> measure(const T* u, const Layout& L, double t);

  /// The whole grid's balance: the ranks' shares added in rank order (every rank gets it).
  static std::vector<double> merge(const parallel::Comm& comm, const std::vector<double>& mine);

 private:
  /// A value on a box of this rank's nodes (the source near the held and Dirichlet nodes, a
  /// Neumann face's gradient), evaluated again at each check's time where it depends on t.
  struct BoxValues {
    const Value* value = nullptr;
    Box box;
    std::vector<double> at;  // dense over box, x fastest
    double time = -1;
    double operator()(index_t i, index_t j, index_t k) const {
      const index_t nx = box.extent(0), ny = box.extent(1);
      return at[static_cast<std::size_t>(((k - box.lo[2]) * ny + (j - box.lo[1])) * nx +
                                         (i - box.lo[0]))];
    }
  };
  void refresh(BoxValues& v, double t);
  /// The coefficient of the face between global node `at` and its neighbour `step` (-1 or 1)
  /// along `axis` (wrapped on a periodic axis), as the operator's faces have it.
  double face_beta(const index_t* at, int axis, int step) const;

  const Case& c_;
  Subdomain sub_;
  std::shared_ptr<const op::Medium> medium_;
  int dims_ = 2;
  std::size_t regions_ = 0;
  std::array<double, 3> h_{1, 1, 1};
  double volume_ = 1;  // of one node's whole cell: the product of the spacings
  bool source_ = false;
  /// The source on the Dirichlet faces of this rank and on the box around its held nodes.
  std::vector<BoxValues> source_boxes_;
  /// The gradient of each Neumann face and the ambient of each Robin face this rank owns
  /// (index: face; empty box where none).
  std::array<BoxValues, 6> gradient_;
};

}  // namespace fdsolve
