// Bad values of the solve-method, time-scheme and parallel keys: each must fail with one located
// line "file:line:col: key.path: reason". Lines and columns were counted by hand from the text.
#include "bad_input.hpp"

using fdsolve::testing::BadInput;

namespace {

const std::string grid2 = "grid: {points: [5, 5]}\n";
const std::string grid3 = "grid: {points: [5, 5, 5]}\n";
const std::string heat = "problem: {equation: heat}\n";
const std::string custom5 =
    "problem: {equation: custom}\nstencil: {points: 5, weights: {center: 0, x: 0.25, y: 0.25}}\n";

const std::vector<BadInput> kBadMethodInputs = {
    // solve.method, solve.multigrid, solve.criterion
    {"unknown method",
     grid2 + "solve: {method: multigird}\n",
     {},
     "case.yaml:2:17: solve.method: unknown value 'multigird' (expected auto, jacobi, multigrid); "
     "did you mean 'multigrid'?"},
    {"multigrid with a custom stencil",
     grid2 + custom5 + "solve: {method: multigrid}\n",
     {},
     "case.yaml:4:17: solve.method: multigrid re-discretises the Laplacian on coarser grids and "
     "a custom stencil has no such operator; use method: jacobi"},
    {"multigrid with a custom stencil, from --set",
     grid2 + custom5,
     {"solve.method=multigrid"},
     "--set solve.method=multigrid: solve.method: multigrid re-discretises the Laplacian on "
     "coarser grids and a custom stencil has no such operator; use method: jacobi"},
    {"multigrid settings with a custom stencil",
     grid2 + custom5 + "solve:\n  multigrid: {cycle: w}\n",
     {},
     "case.yaml:5:14: solve.multigrid: does not apply to equation custom: multigrid "
     "re-discretises the Laplacian on coarser grids and a custom stencil has no such operator "
     "(custom cases are solved by Jacobi)"},
    {"multigrid settings with method jacobi",
     grid2 + "solve:\n  method: jacobi\n  multigrid: {pre_smooth: 3}\n",
     {},
     "case.yaml:4:14: solve.multigrid: applies to method multigrid or auto only, not jacobi"},
    {"multigrid settings with method jacobi from --set",
     grid2 + "solve:\n  multigrid: {fmg: false}\n",
     {"solve.method=jacobi"},
     "case.yaml:3:14: solve.multigrid: applies to method multigrid or auto only, not jacobi"},
    {"residual criterion with a custom stencil",
     grid2 + custom5 + "solve: {criterion: residual}\n",
     {},
     "case.yaml:4:20: solve.criterion: residual does not apply to equation custom: a custom "
     "stencil defines no residual f - A u (use criterion: update)"},
    {"unknown criterion",
     grid2 + "solve: {criterion: norm}\n",
     {},
     "case.yaml:2:20: solve.criterion: unknown value 'norm' (expected auto, update, residual)"},
    {"unknown cycle",
     grid2 + "solve: {multigrid: {cycle: f}}\n",
     {},
     "case.yaml:2:28: solve.multigrid.cycle: unknown value 'f' (expected v, w)"},
    {"zero pre-smoothing sweeps",
     grid2 + "solve: {multigrid: {pre_smooth: 0}}\n",
     {},
     "case.yaml:2:33: solve.multigrid.pre_smooth: must be at least 1, got 0"},
    {"negative post-smoothing sweeps, from --set",
     grid2,
     {"solve.multigrid.post_smooth=-2"},
     "--set solve.multigrid.post_smooth=-2: solve.multigrid.post_smooth: must be at least 1, "
     "got -2"},
    {"absurd smoothing sweeps",
     grid2 + "solve: {multigrid: {post_smooth: 100000}}\n",
     {},
     "case.yaml:2:34: solve.multigrid.post_smooth: must be at most 1000, got 100000"},
    {"fmg not a boolean",
     grid2 + "solve: {multigrid: {fmg: 1}}\n",
     {},
     "case.yaml:2:26: solve.multigrid.fmg: unknown value '1' (expected true, false)"},
    {"misspelled multigrid key",
     grid2 + "solve: {multigrid: {pre_smoth: 1}}\n",
     {},
     "case.yaml:2:21: solve.multigrid.pre_smoth: unknown key 'pre_smoth' (did you mean "
     "'pre_smooth'?)"},
    {"multigrid not a map",
     grid2 + "solve: {multigrid: v}\n",
     {},
     "case.yaml:2:20: solve.multigrid: expected a map of keys, got a single value"},
    {"method for explicit heat",
     grid2 + heat + "solve: {method: multigrid}\n",
     {},
     "case.yaml:3:17: solve.method: does not apply to equation heat with time.scheme explicit "
     "(the implicit and crank-nicolson schemes solve each step by multigrid)"},
    {"multigrid settings for explicit heat",
     grid2 + heat + "time: {scheme: explicit}\nsolve: {multigrid: {cycle: w}}\n",
     {},
     "case.yaml:4:20: solve.multigrid: does not apply to equation heat with time.scheme explicit "
     "(the implicit and crank-nicolson schemes solve each step by multigrid)"},
    {"float cycles for implicit heat",
     grid2 + heat + "time: {scheme: implicit, dt: 0.1}\nsolve: {multigrid: {precision: float}}\n",
     {},
     "case.yaml:4:32: solve.multigrid.precision: float applies to the steady solves (laplace, "
     "poisson); an implicit heat step's cycles run in the case's precision"},
    {"unknown cycle precision",
     grid2 + "solve: {multigrid: {precision: half}}\n",
     {},
     "case.yaml:2:32: solve.multigrid.precision: unknown value 'half' (expected same, float)"},
    {"criterion for heat",
     grid2 + heat + "solve: {criterion: update}\n",
     {},
     "case.yaml:3:20: solve.criterion: does not apply to equation heat (it applies to laplace, "
     "poisson and custom)"},
    {"criterion for implicit heat",
     grid2 + heat + "time: {scheme: implicit, dt: 0.1}\nsolve: {criterion: residual}\n",
     {},
     "case.yaml:4:20: solve.criterion: does not apply to equation heat (it applies to laplace, "
     "poisson and custom)"},
    {"jacobi for implicit heat",
     grid2 + heat + "time: {scheme: crank-nicolson, dt: 0.1}\nsolve: {method: jacobi}\n",
     {},
     "case.yaml:4:17: solve.method: equation heat with time.scheme crank-nicolson solves each "
     "step by multigrid; use method: auto or multigrid"},
    {"stagnation_checks for implicit heat",
     grid2 + heat + "time: {scheme: implicit, dt: 0.1}\nsolve: {stagnation_checks: 5}\n",
     {},
     "case.yaml:4:28: solve.stagnation_checks: does not apply to equation heat, which runs to "
     "time.end"},
    // time.scheme
    {"misspelled time scheme",
     grid2 + heat + "time: {scheme: crank_nicolson, dt: 0.1}\n",
     {},
     "case.yaml:3:16: time.scheme: unknown value 'crank_nicolson' (expected explicit, implicit, "
     "crank-nicolson); did you mean 'crank-nicolson'?"},
    {"crank-nicolson for poisson",
     grid2 + "problem: {equation: poisson}\ntime: {scheme: crank-nicolson, dt: 0.1}\n",
     {},
     "case.yaml:3:7: time: only applies to equation heat, not poisson"},
    {"dt auto with an implicit scheme",
     grid2 + heat + "time: {scheme: implicit, dt: auto}\n",
     {},
     "case.yaml:3:30: time.dt: expected a number for time.scheme implicit, got auto (dt: auto "
     "applies to the explicit scheme only)"},
    {"dt defaulted with an implicit scheme",
     grid2 + heat + "time:\n  scheme: crank-nicolson\n",
     {},
     "case.yaml:4:3: time.dt: required for time.scheme crank-nicolson: a number greater than 0 "
     "(dt: auto applies to the explicit scheme only)"},
    {"dt defaulted with an implicit scheme from --set",
     grid2 + heat,
     {"time.scheme=implicit"},
     "--set time.scheme=implicit: time.dt: required for time.scheme implicit: a number greater "
     "than 0 (dt: auto applies to the explicit scheme only)"},
    {"zero dt with an implicit scheme",
     grid2 + heat + "time: {scheme: implicit, dt: 0}\n",
     {},
     "case.yaml:3:30: time.dt: must be greater than 0, got 0"},
    {"negative dt with crank-nicolson",
     grid2 + heat + "time: {scheme: crank-nicolson, dt: -0.5}\n",
     {},
     "case.yaml:3:36: time.dt: must be greater than 0, got -0.5"},
    {"safety with an implicit scheme",
     grid2 + heat + "time: {scheme: implicit, dt: 0.1, safety: 0.5}\n",
     {},
     "case.yaml:3:43: time.safety: does not apply to time.scheme implicit (it scales the "
     "explicit stability limit for dt: auto)"},
    // parallel.ranks
    {"ranks of the wrong length",
     grid3 + "parallel: {ranks: [2, 2]}\n",
     {},
     "case.yaml:2:19: parallel.ranks: expected 3 entries, one per axis of grid.points, got 2"},
    {"zero ranks on an axis",
     grid2 + "parallel: {ranks: [2, 0]}\n",
     {},
     "case.yaml:2:23: parallel.ranks[1]: must be at least 1, got 0"},
    {"more ranks than nodes on an axis",
     grid2 + "parallel: {ranks: [6, 1]}\n",
     {},
     "case.yaml:2:20: parallel.ranks[0]: must be at most grid.points[0] = 5 (each rank needs at "
     "least one node of the axis), got 6"},
    {"ranks neither auto nor a list",
     grid2 + "parallel: {ranks: atuo}\n",
     {},
     "case.yaml:2:19: parallel.ranks: expected auto or a list of 2 integers, one per axis of "
     "grid.points, got 'atuo'"},
    {"fractional ranks, from --set",
     grid2,
     {"parallel.ranks=[1.5, 2]"},
     "--set parallel.ranks=[1.5, 2]: parallel.ranks[0]: expected an integer, got '1.5'"},
    {"unknown key in parallel",
     grid2 + "parallel: {rank: auto}\n",
     {},
     "case.yaml:2:12: parallel.rank: unknown key 'rank' (did you mean 'ranks'?)"},
    // parallel.gather_below
    {"negative gather threshold",
     grid2 + "parallel: {gather_below: -1}\n",
     {},
     "case.yaml:2:26: parallel.gather_below: must be at least 0, got -1"},
    {"fractional gather threshold, from --set",
     grid2,
     {"parallel.gather_below=2.5"},
     "--set parallel.gather_below=2.5: parallel.gather_below: expected an integer, got '2.5'"},
    // parallel.overlap
    {"overlap neither true nor false",
     grid2 + "parallel: {overlap: yes}\n",
     {},
     "case.yaml:2:21: parallel.overlap: unknown value 'yes' (expected true, false)"},
    {"overlap as a number, from --set",
     grid2,
     {"parallel.overlap=0"},
     "--set parallel.overlap=0: parallel.overlap: unknown value '0' (expected true, false)"},
    {"misspelt overlap",
     grid2 + "parallel: {overlapp: false}\n",
     {},
     "case.yaml:2:12: parallel.overlapp: unknown key 'overlapp' (did you mean 'overlap'?)"},
};

}  // namespace

TEST_CASE("input: bad solve method, time scheme and parallel keys fail with one located line") {
  REQUIRE(kBadMethodInputs.size() >= 30);
  fdsolve::testing::check_bad_inputs(kBadMethodInputs);
}
