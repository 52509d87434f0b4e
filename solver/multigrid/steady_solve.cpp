// See steady_solve.hpp.
#include "steady_solve.hpp"

#include <spdlog/spdlog.h>

#include "loop/run_clock.hpp"
#include "loop/start_state.hpp"
#include "problem/field_programs.hpp"
#include "problem/problem_setup.hpp"

namespace fdsolve::multigrid {

template <typename T>
SolveResult solve_steady(const problem::Problem& p, Backend<T>& backend, output::RunOutput& out,
                         const SolveOptions& options) {
  const Case& c = p.c;
  const std::unique_ptr<SteadyOperator<T>> op = p.flux()
                                                    ? flux_steady<T>(p, backend, out, options)
                                                    : stencil_steady<T>(p, backend, out, options);
  const parallel::Decomposition& d = p.decomposition;
  const Subdomain& sub = d.sub;
  const Layout& L = p.layout;

  SolveResult r;
  r.kernel = op->kernel();
  auto [cur, next, done, earlier_seconds, first_norm] =
      start_state(c, backend, L, sub, options.resume, out, r.kernel);
  r.first_norm = first_norm;
  RunClock::get().mark("initial state ready");
  if (options.resume) spdlog::info("resuming from {} {}", op->iteration_name(), done);

  Boundaries<T> boundaries(c, backend, L, sub);
  HaloExchange<T> halo(L, backend, options.comm, d);
  if (halo.active()) spdlog::info("halo exchange: {}", halo.path());
  // The right-hand side g = rhs_scale f: a field when f varies (evaluated on the backend), else
  // the number that the cycles scale themselves.
  Buffer<T> f;
  if (p.source_field) {
    f = backend.allocate(L.size);
    load_source(c, backend, L, sub, op->rhs_scale(), 0.0, f);
  }
  RunClock::get().mark("source ready");
  const SteadyFields<T> fields{{cur, next, done, earlier_seconds, L, d, p.box, p.updated_cells},
                               boundaries,
                               halo,
                               f.size() ? f.data() : nullptr,
                               p.source_constant};
  return op->solve(fields, r);
}

template SolveResult solve_steady<float>(const problem::Problem&, Backend<float>&,
                                         output::RunOutput&, const SolveOptions&);
template SolveResult solve_steady<double>(const problem::Problem&, Backend<double>&,
                                          output::RunOutput&, const SolveOptions&);

}  // namespace fdsolve::multigrid
