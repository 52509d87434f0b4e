// The output field `flux`: the vector -beta grad u at every node, computed on the host from a
// snapshot's u with the operator's own face coefficients, so that it is the same on every
// backend and over any number of ranks (the whole grid's u is in hand when it is computed).
//
// Per axis a at node i, with the face flux q_f = -beta_f (u_(i+1) - u_i) / h_a of the face
// between nodes i and i + e_a (beta_f as the operator has it: Medium::face_beta):
// - inside, and on a periodic axis (wrapped): the mean of the two faces beside the node;
// - on a Dirichlet face: the one interior face;
// - on a Neumann face: the mirror's rule, the mean of the interior face and the ghost face, which
//   is -beta_f times the prescribed normal derivative along the outward normal (zero for an
//   insulated face), beta_f the mirrored face's.
#pragma once

#include <cstddef>
#include <vector>

#include "case.hpp"
#include "medium.hpp"

namespace fdsolve::op {

/// The components of `flux` per node: the grid's dims.
inline int flux_components(const Case& c) { return c.grid.dims; }

/// -beta grad u of the whole grid's dense u (C order, x fastest) at time t (a Neumann gradient
/// may use t), dense with the component fastest: [node][component], in double.
std::vector<double> flux_field(const Case& c, const Medium& m, const double* u, double t);

/// The same from a field of T, returned in T.
template <typename T>
std::vector<T> flux_field_as(const Case& c, const Medium& m, const std::vector<T>& u, double t);

}  // namespace fdsolve::op
