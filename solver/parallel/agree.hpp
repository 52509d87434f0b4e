// Failures over several ranks: reported once, with the same exit code on every rank, and never
// a rank left waiting. Set-up steps that every rank runs (reading the case, creating the
// backend, reading a checkpoint) agree at their end; a failure later in the run, where other
// ranks may be waiting in a collective, ends the job (MPI_Abort) after its message.
#pragma once

#include <exception>
#include <type_traits>
#include <utility>

#include "comm.hpp"

namespace fdsolve::parallel {

/// Thrown on the ranks whose set-up went well when another rank's failed: the failing rank
/// reports; these exit silently with `code`.
class PeerFailure : public std::exception {
 public:
  explicit PeerFailure(int code) : code_(code) {}
  int code() const { return code_; }
  const char* what() const noexcept override { return "another rank failed"; }

 private:
  int code_;
};

/// The exit code docs/commands.md gives an error (main's mapping): 2 for bad input, 1 otherwise.
int exit_code_of(const std::exception_ptr& error);

/// Whether the failure being handled was agreed by every rank (no MPI_Abort needed).
bool failure_agreed();
void set_failure_agreed();

/// agree's collective half: when any rank's `code` is not 0, rethrows `error` on the lowest
/// such rank and throws PeerFailure on the others.
void settle(const Comm& comm, const std::exception_ptr& error, int code);

/// Runs `step` on every rank and agrees on its outcome: when it threw on any rank, the lowest
/// failing rank rethrows its exception and the others throw PeerFailure with its exit code.
template <typename F>
decltype(auto) agree(const Comm& comm, F&& step) {
  if (!comm.several()) return std::forward<F>(step)();
  std::exception_ptr error;
  int code = 0;
  using R = decltype(step());
  if constexpr (std::is_void_v<R>) {
    try {
      step();
    } catch (...) {
      error = std::current_exception();
      code = exit_code_of(error);
    }
    settle(comm, error, code);
  } else {
    R result{};
    try {
      result = step();
    } catch (...) {
      error = std::current_exception();
      code = exit_code_of(error);
    }
    settle(comm, error, code);
    return result;
  }
}

}  // namespace fdsolve::parallel
