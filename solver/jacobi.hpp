// The Jacobi loop: sweep, swap, check every check_every iterations, snapshot, stop at
// convergence, divergence or max_iterations.
#pragma once

#include <cstdint>
#include <string>

#include "backend.hpp"
#include "case.hpp"
#include "run_output.hpp"

namespace fdsolve {

enum class SolveStatus { Converged, MaxIterations, Diverged };

const char* to_string(SolveStatus s);

struct SolveResult {
  SolveStatus status = SolveStatus::MaxIterations;
  std::int64_t iterations = 0;
  double first_norm = 0;  // chosen norm of iteration 1
  double norm_l2 = 0;     // of the last check
  double norm_linf = 0;
  double seconds = 0;           // wall time of the loop, snapshots included
  double cells_per_second = 0;  // updated nodes per second
  std::string kernel;
};

struct SolveOptions {
  bool live_progress = false;  // draw a progress line on stderr
};

/// Solves `c` on `backend`, writing snapshots and history through `out`.
template <typename T>
SolveResult solve_jacobi(const Case& c, Backend<T>& backend, output::RunOutput& out,
                         const SolveOptions& options);

/// Bytes of backend memory the case needs (both buffers, plus the source field if any).
std::size_t required_memory(const Case& c);

/// The kernel variant the case runs with on `backend`: tuning.kernel or the default.
/// Throws InputError naming tuning.kernel when the backend has no such variant.
template <typename T>
KernelId choose_kernel(const Case& c, const Backend<T>& backend);

}  // namespace fdsolve
