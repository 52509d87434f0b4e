// Robin faces (boundary type robin, -beta du/dn = h (u - ambient)) on the fine grid: the
// right-hand side of their ghost rule. With the mirrored ghost a boundary node's row gains
// scale (2 h / h_a) u_b on its diagonal (op::FluxLevel::diagonal) and scale (2 h / h_a) ambient
// on its right-hand side, added here to the source field (docs/numerics.md, "Robin faces").
#pragma once

#include <vector>

#include "backend.hpp"
#include "case.hpp"
#include "parallel/subdomain.hpp"

namespace fdsolve {

/// Whether the case has a face of type robin.
bool has_robin_faces(const Case& c);
/// Whether a Robin face's ambient uses t (re-evaluated at each step's time).
bool robin_ambient_uses_time(const Case& c);

/// Per node of layout L (the nodes `sub` owns) the sum over the physical Robin faces it lies on
/// of scale (2 h / h_a) ambient(x, t), in face order; 0 elsewhere and on Dirichlet faces. Throws
/// NonFiniteInput naming the ambient's key where it is not finite.
template <typename T>
std::vector<T> robin_source_values(const Case& c, const Layout& L, const Subdomain& sub,
                                   double scale, double t);

/// out += robin_source_values on the backend (a case without Robin faces: nothing).
template <typename T>
void add_robin_source(const Case& c, Backend<T>& backend, const Layout& L, const Subdomain& sub,
                      double scale, double t, Buffer<T>& out);

}  // namespace fdsolve
