// The state every solve loop (Jacobi and explicit heat, multigrid, implicit heat) starts from:
// the case's initial field, or the state of a checkpoint (`run --resume`).
#pragma once

#include <spdlog/spdlog.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "backend.hpp"
#include "loop/checkpoint.hpp"
#include "loop/loop_support.hpp"
#include "operator/held_values.hpp"
#include "operator/medium.hpp"
#include "problem/field_programs.hpp"
#include "problem/problem_setup.hpp"
#include "run_output.hpp"

namespace fdsolve {

/// The two buffers of a loop and what a checkpoint carries over.
template <typename T>
struct StartState {
  Buffer<T> cur, next;
  std::int64_t done = 0;       // iterations (steps, cycles) before this session
  double earlier_seconds = 0;  // wall time before this session
  double first_norm = 0;       // the norm the tolerance is relative to (0: not yet known)
};

/// Allocates both buffers of layout L and fills them with the initial field (the Dirichlet
/// nodes must hold in both). With `resume` (read_checkpoint for this rank's Subdomain: any
/// rank count can resume), `cur` gets the checkpoint's nodes, `out` its snapshot index and
/// history, and a state computed on another backend or variant than `kernel` is resumed with
/// a warning that the result will not be bit-identical.
template <typename T>
StartState<T> start_state(const Case& c, Backend<T>& backend, const Layout& L,
                          const Subdomain& sub, const Checkpoint* resume, output::RunOutput& out,
                          const std::string& kernel) {
  StartState<T> s;
  s.cur = backend.allocate(L.size);
  s.next = backend.allocate(L.size);
  // A fresh start from formulas and numbers is evaluated where the field lives: no host copy
  // of the grid (on CUDA, no host evaluation and no upload).
  // The held values come from the medium the run resolved already (no second evaluation),
  // written on the backend.
  const auto write_held = [&](Buffer<T>& field) {
    if (!c.problem.fixed.empty())
      op::write_held_values(*op::resolved_medium(c), sub, L, backend, field);
  };
  if (!resume && load_initial_on_backend(c, backend, L, sub, s.next)) {
    write_held(s.next);
    backend.copy(s.cur, s.next);
    return s;
  }
  std::vector<T> initial = initial_field<T>(c, L, sub);
  backend.upload(s.next, initial.data(), L.size);
  write_held(s.next);
  if (resume) {
    if (resume->u.size() != static_cast<std::size_t>(L.owned_cells()))
      throw std::logic_error("the checkpoint was read for another rank's nodes");
    place_owned(resume->u, L, initial);
    s.done = resume->state.iteration;
    s.first_norm = resume->state.first_norm;
    s.earlier_seconds = resume->state.wall_seconds;
    out.restore(resume->index, resume->history);
    if (resume->state.backend != backend.name() || resume->state.kernel != kernel)
      spdlog::warn(
          "resuming a state computed on {} ({}) with {} ({}): the result will not be "
          "bit-identical to an uninterrupted run",
          resume->state.backend, resume->state.kernel, backend.name(), kernel);
  }
  if (resume)
    backend.upload(s.cur, initial.data(), L.size);
  else
    backend.copy(s.cur, s.next);
  return s;
}

/// Whether the case's initial field is 0 wherever a sweep updates it, so that its residual is
/// that of the boundary and held data alone.
inline bool starts_from_zero(const Case& c) {
  return c.initial.is_constant() && c.initial.constant == 0;
}

/// The field of the boundary and held data alone: the initial field of `c` with `initial: 0`.
/// Its residual is the right-hand side a warm start (an `initial` near the answer) does not
/// shrink, which a steady solve's relative tolerance is measured against.
template <typename T>
Buffer<T> data_field(const Case& c, Backend<T>& backend, const Layout& L, const Subdomain& sub) {
  Case zero = c;
  zero.initial = Value{};
  Buffer<T> out = backend.allocate(L.size);
  if (!load_initial_on_backend(zero, backend, L, sub, out)) {
    std::vector<T> initial = initial_field<T>(zero, L, sub);
    backend.upload(out, initial.data(), L.size);
  }
  if (!c.problem.fixed.empty())
    op::write_held_values(*op::resolved_medium(c), sub, L, backend, out);
  return out;
}

}  // namespace fdsolve
