// Small pieces the solve loop and its iterations (Jacobi and explicit heat, multigrid, implicit
// heat) share.
#pragma once

#include <algorithm>
#include <chrono>
#include <vector>

#include "case.hpp"
#include "elapsed.hpp"
#include "layout.hpp"
#include "parallel/subdomain.hpp"

namespace fdsolve {

/// Whether a loop keeps the state before its last iteration: for the check diagnostics (which
/// compare the two), for the `update` output field and for the algebraic-error estimate of
/// solve.tolerance: discretization.
inline bool needs_previous_state(const Case& c) {
  return c.solve.diagnostics || c.solve.tolerance_discretization ||
         std::find(c.output.fields.begin(), c.output.fields.end(), "update") != c.output.fields.end();
}

/// Puts a rank's nodes of a checkpoint (read_checkpoint with its Subdomain: the owned box, x
/// fastest) into a field of layout L, whose owned extents are that box's.
template <typename T>
void place_owned(const std::vector<double>& owned, const Layout& L, std::vector<T>& field) {
  for (index_t k = 0; k < L.n[2]; ++k)
    for (index_t j = 0; j < L.n[1]; ++j)
      for (index_t i = 0; i < L.n[0]; ++i)
        field[L.at(i, j, k)] = static_cast<T>(owned[(k * L.n[1] + j) * L.n[0] + i]);
}

}  // namespace fdsolve
