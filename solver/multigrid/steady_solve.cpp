// See steady_solve.hpp.
#include "steady_solve.hpp"

#include <spdlog/spdlog.h>

#include "loop/run_clock.hpp"
#include "loop/start_state.hpp"
#include "problem/field_programs.hpp"
#include "problem/problem_setup.hpp"

namespace fdsolve::multigrid {

template <typename T>
SolveResult solve_steady(const Case& c, Backend<T>& backend, output::RunOutput& out,
                         const SolveOptions& options, SteadyOperator<T>& op) {
  const parallel::Decomposition& d = op.part();
  const Subdomain& sub = d.sub;
  const Layout L = field_layout(c, sizeof(T), sub);
  const Box box = update_box(c, sub);

  SolveResult r;
  r.kernel = op.kernel();
  auto [cur, next, done, earlier_seconds, first_norm] =
      start_state(c, backend, L, sub, options.resume, out, r.kernel);
  r.first_norm = first_norm;
  RunClock::get().mark("initial state ready");
  if (options.resume) spdlog::info("resuming from {} {}", op.iteration_name(), done);

  Boundaries<T> boundaries(c, backend, L, sub);
  HaloExchange<T> halo(L, backend, options.comm, d);
  if (halo.active()) spdlog::info("halo exchange: {}", halo.path());
  // The right-hand side g = rhs_scale f: a field when f varies (evaluated on the backend), else
  // the number f_constant that the cycles scale themselves.
  Buffer<T> f;
  if (has_source_field(c)) {
    f = backend.allocate(L.size);
    load_source(c, backend, L, sub, op.rhs_scale(), 0.0, f);
  }
  const double f_constant =
      c.problem.equation == Equation::Poisson && c.problem.source.is_constant()
          ? c.problem.source.constant
          : 0.0;
  RunClock::get().mark("source ready");
  const SteadyFields<T> fields{cur,  next, done, earlier_seconds, boundaries, halo, d, L,
                               box, f.size() ? f.data() : nullptr, f_constant};
  return op.solve(fields, r);
}

template SolveResult solve_steady<float>(const Case&, Backend<float>&, output::RunOutput&,
                                         const SolveOptions&, SteadyOperator<float>&);
template SolveResult solve_steady<double>(const Case&, Backend<double>&, output::RunOutput&,
                                          const SolveOptions&, SteadyOperator<double>&);

}  // namespace fdsolve::multigrid
