// The solve section: the method of a steady solve (Jacobi or multigrid), its multigrid settings,
// what the norms measure and when it stops; for heat, the keys of the implicit schemes' per-step
// multigrid solve. Read after the time section, whose scheme decides what applies to heat.
#include "case_keys.hpp"
#include "number_text.hpp"
#include "parse_sections.hpp"
#include "yaml_values.hpp"

namespace fdsolve {

namespace {
// More sweeps per level than this are no smoother a multigrid cycle would use; the bound also
// keeps the count inside an int.
constexpr std::int64_t kMaxSmoothingSweeps = 1000;

const char* const kCustomHasNoHierarchy =
    "multigrid re-discretises the Laplacian on coarser grids and a custom stencil has no such "
    "operator";

double read_at_least_zero(const Field& field) {
  const double value = read_number(field);
  if (value < 0) field.fail("must be at least 0, got " + format_number(value));
  return value;
}

int read_smoothing(const Field& field) {
  const std::int64_t sweeps = read_integer(field, 1);
  if (sweeps > kMaxSmoothingSweeps) {
    field.fail("must be at most " + std::to_string(kMaxSmoothingSweeps) + ", got " +
               std::to_string(sweeps));
  }
  return static_cast<int>(sweeps);
}

void parse_multigrid(const Field& field, Case& c) {
  const FieldMap mg(field, case_keys::section("solve.multigrid"), c.locations);
  MultigridSpec& m = c.solve.multigrid;
  if (const auto f = mg.get("cycle")) {
    m.cycle = read_choice(*f, {"v", "w"}) == 0 ? CycleKind::V : CycleKind::W;
  }
  if (const auto f = mg.get("smoother"))
    m.smoother = static_cast<Smoother>(read_choice(*f, {"auto", "jacobi", "chebyshev"}));
  if (const auto f = mg.get("pre_smooth")) m.pre_smooth = read_smoothing(*f);
  if (const auto f = mg.get("post_smooth")) m.post_smooth = read_smoothing(*f);
  if (const auto f = mg.get("fmg")) m.fmg = read_choice(*f, {"true", "false"}) == 0;
  if (const auto f = mg.get("precision")) {
    m.float_cycles = read_choice(*f, {"same", "float"}) == 1;
    if (m.float_cycles && c.problem.equation == Equation::Heat)
      f->fail("float applies to the steady solves (laplace, poisson); an implicit heat step's "
              "cycles run in the case's precision");
  }
}

// Heat runs to time.end. With the explicit scheme each step is one stencil update: the
// stopping keys of a steady solve, the method and multigrid do not apply. The implicit schemes
// solve each step by multigrid, whose settings and per-step stopping keys (max_iterations
// counts cycles per step) do. The stagnation warning and the criterion are for steady solves.
void check_heat_keys(const FieldMap& solve, const Case& c) {
  const bool implicit = c.time.scheme != TimeScheme::Explicit;
  for (const char* key :
       {"max_iterations", "tolerance", "absolute_tolerance", "stagnation_checks"}) {
    const bool allowed = implicit && std::string(key) != "stagnation_checks";
    if (const auto f = solve.get(key); f && !allowed) {
      f->fail("does not apply to equation heat, which runs to time.end");
    }
  }
  for (const char* key : {"method", "multigrid", "krylov"}) {
    if (const auto f = solve.get(key); f && !implicit) {
      f->fail(
          "does not apply to equation heat with time.scheme explicit (the implicit and "
          "crank-nicolson schemes solve each step by multigrid)");
    }
  }
  if (const auto f = solve.get("criterion")) {
    f->fail("does not apply to equation heat (it applies to laplace, poisson and custom)");
  }
}

void parse_method(const FieldMap& solve, Case& c) {
  SolveSpec& s = c.solve;
  const Equation eq = c.problem.equation;
  if (const auto f = solve.get("method")) {
    const SolveMethod methods[] = {SolveMethod::Auto, SolveMethod::Jacobi, SolveMethod::Multigrid};
    s.method = methods[read_choice(*f, {"auto", "jacobi", "multigrid"})];
    if (eq == Equation::Custom && s.method == SolveMethod::Multigrid) {
      f->fail(std::string(kCustomHasNoHierarchy) + "; use method: jacobi");
    }
    if (eq == Equation::Heat && s.method == SolveMethod::Jacobi) {
      f->fail(std::string("equation heat with time.scheme ") + time_scheme_name(c.time.scheme) +
              " solves each step by multigrid; use method: auto or multigrid");
    }
  }
  if (const auto f = solve.get("multigrid")) {
    if (eq == Equation::Custom) {
      f->fail(std::string("does not apply to equation custom: ") + kCustomHasNoHierarchy +
              " (custom cases are solved by Jacobi)");
    }
    if (s.method == SolveMethod::Jacobi) {
      f->fail("applies to method multigrid or auto only, not jacobi");
    }
    parse_multigrid(*f, c);
  }
  // CG preconditioned by a multigrid cycle: where multigrid runs, as for solve.multigrid.
  if (const auto f = solve.get("krylov")) {
    if (eq == Equation::Custom) {
      f->fail(std::string("does not apply to equation custom: ") + kCustomHasNoHierarchy +
              " (custom cases are solved by Jacobi)");
    }
    if (s.method == SolveMethod::Jacobi) {
      f->fail("applies to method multigrid or auto only, not jacobi");
    }
    const KrylovChoice choices[] = {KrylovChoice::Auto, KrylovChoice::None, KrylovChoice::Cg};
    s.krylov = choices[read_choice(*f, {"auto", "none", "cg"})];
  }
  if (const auto f = solve.get("criterion")) {
    const Criterion criteria[] = {Criterion::Auto, Criterion::Update, Criterion::Residual};
    s.criterion = criteria[read_choice(*f, {"auto", "update", "residual"})];
    if (eq == Equation::Custom && s.criterion == Criterion::Residual) {
      f->fail(
          "residual does not apply to equation custom: a custom stencil defines no residual "
          "f - A u (use criterion: update)");
    }
  }
}
}  // namespace

void parse_solve(const FieldMap& root, Case& c) {
  const FieldMap solve(root.get_or_empty("solve"), case_keys::section("solve"), c.locations);
  if (c.problem.equation == Equation::Heat) check_heat_keys(solve, c);
  // An implicit heat step starts from a guess close to its answer (the extrapolation of the
  // last steps): plain cycles. A full multigrid start does about two cycles' work, and on a
  // GPU, where the coarse levels cost launches rather than bytes, several times that
  // (docs/performance-history.md, "Implicit heat steps at GPU speed").
  if (c.problem.equation == Equation::Heat && c.time.scheme != TimeScheme::Explicit)
    c.solve.multigrid.fmg = false;
  parse_method(solve, c);
  SolveSpec& s = c.solve;
  if (const auto f = solve.get("max_iterations")) s.max_iterations = read_integer(*f, 1);
  if (const auto f = solve.get("tolerance")) {
    if (f->value.IsScalar() && f->value.Scalar() == "discretization") {
      if (c.problem.equation == Equation::Heat)
        f->fail("discretization applies to the steady solves by multigrid (laplace, poisson); "
                "an implicit heat step takes a number");
      s.tolerance_discretization = true;
      s.tolerance = 0;
    } else {
      // A misspelt word gets the word's name; anything else the number's usual message.
      if (f->value.IsScalar() && f->value.Scalar().starts_with("discr") &&
          !parse_number_text(f->value.Scalar()))
        f->fail("expected a number or discretization, got '" + f->value.Scalar() +
                "'; did you mean 'discretization'?");
      s.tolerance = read_at_least_zero(*f);
    }
  }
  if (const auto f = solve.get("absolute_tolerance")) s.absolute_tolerance = read_at_least_zero(*f);
  if (const auto f = solve.get("norm")) {
    s.norm = read_choice(*f, {"l2", "linf"}) == 0 ? NormKind::L2 : NormKind::Linf;
  }
  if (const auto f = solve.get("check_every")) s.check_every = read_integer(*f, 1);
  if (const auto f = solve.get("divergence_factor")) {
    s.divergence_factor = read_number(*f);
    if (!(s.divergence_factor > 1)) {
      f->fail("must be greater than 1, got " + format_number(s.divergence_factor));
    }
  }
  if (const auto f = solve.get("diagnostics"))
    s.diagnostics = read_choice(*f, {"true", "false"}) == 0;
  if (const auto f = solve.get("stagnation_checks")) s.stagnation_checks = read_integer(*f, 0);
  if (const auto f = solve.get("max_wall_time")) s.max_wall_time = read_at_least_zero(*f);
}

}  // namespace fdsolve
