// The solve loop (solver/loop/solve_loop.hpp) driving a scripted iteration: the norms of each
// check are given, so the loop's decisions can be worked out by hand: where the tolerance,
// divergence and the stall rule stop it, a heat run's completion, a signal against the count
// (stop_before_count), blocks of iterations without a check, and the history rows it writes.
#include <doctest/doctest.h>

#include <atomic>
#include <cmath>
#include <filesystem>
#include <limits>
#include <vector>

#include "case_reader.hpp"
#include "loop/solve_loop.hpp"
#include "parallel/decomposition.hpp"
#include "problem/problem_setup.hpp"
#include "test_output_support.hpp"

using namespace fdsolve;
namespace {

using output::test::TempDir;

/// Statistics whose l2 and linf norms are both |norm| (one updated node), u in [0, 1]; a
/// negative `norm` stands for values whose sum overflows (a norm that hides them).
SweepStats stats_of(double norm) {
  SweepStats s;
  s.count = 1;
  s.sum_sq = norm * norm;
  s.max_abs = std::abs(norm);
  s.min = 0;
  s.max = 1;
  s.sum = norm < 0 ? std::numeric_limits<double>::infinity() : 1;
  return s;
}

/// An iteration that changes nothing and reports the scripted norm of each iteration at its
/// check (norms[it - 1] after iteration it); `block_at`: advance_block runs `block` iterations
/// from there; `signal_after`: sets the signal once that iteration has run.
class ScriptedIteration final : public LoopIteration<double> {
 public:
  ScriptedIteration(SolveLoop<double>& loop, Buffer<double>& u, std::vector<double> norms)
      : loop_(loop), u_(u), norms_(std::move(norms)) {}

  int agreed_stop(std::int64_t /*it*/) override { return loop_.rules().request.code(); }
  bool stop_before_count() const override { return stop_first; }
  std::int64_t advance_block(std::int64_t it) override { return it == block_at ? block : 0; }
  Advance advance(std::int64_t it) override {
    advanced.push_back(it + 1);
    if (signal && it + 1 == signal_after) signal->store(true);
    return Advance::checked(1, stats_of(norms_.at(static_cast<std::size_t>(it))));
  }
  double time_after(std::int64_t it) const override { return 0.5 * static_cast<double>(it); }
  const Buffer<double>& previous() const override { return u_; }
  std::string check_detail(std::int64_t, const output::HistoryRow&, const Diagnostics*) override {
    return {};
  }
  const Diagnostics& divergence_diagnostics(const Diagnostics*) override { return diag_; }

  bool stop_first = false;
  std::int64_t block_at = -1, block = 0;
  std::atomic<bool>* signal = nullptr;
  std::int64_t signal_after = -1;
  std::vector<std::int64_t> advanced;  // the iterations advance ran

 private:
  SolveLoop<double>& loop_;
  Buffer<double>& u_;
  std::vector<double> norms_;
  Diagnostics diag_;
};

struct Run {
  SolveResult result;
  std::vector<output::HistoryRow> rows;
  std::vector<std::int64_t> advanced;
};

/// Runs the loop over `norms` with `plan` (its cells set here) on a 9x9 case of `solve` keys.
template <typename Setup>
Run run_loop(const std::string& solve, LoopPlan plan, std::vector<double> norms, Setup setup,
             std::atomic<bool>* signal = nullptr) {
  TempDir dir;
  const Case c = parse_case("grid: {points: [9, 9]}\nsolve: {" + solve +
                                "}\noutput: {directory: '" + dir.path().string() + "'}\n",
                            "loop.yaml");
  auto backend = make_cpu_backend<double>();
  output::RunOutput out(c.output.directory, c.name, grid_meta(c), to_yaml(c));
  const parallel::Decomposition d = parallel::decompose(c, {1, 1, 1}, 0);
  const Layout L = field_layout(c, sizeof(double), d.sub);
  Buffer<double> u = backend->allocate(L.size);
  backend->zero(u);
  SolveOptions options;
  options.stop = signal;
  plan.updated_cells = 49;
  SolveResult r;
  SolveLoop<double> loop(c, *backend, out, options, L, d, u, 0, 0.0, r, plan);
  ScriptedIteration iteration(loop, u, std::move(norms));
  iteration.signal = signal;
  setup(iteration);
  Run run;
  run.result = loop.run(iteration);
  run.rows = out.history();
  run.advanced = iteration.advanced;
  return run;
}

LoopPlan steady(std::int64_t last) {
  LoopPlan p;
  p.last = last;
  return p;
}

const auto nothing = [](ScriptedIteration&) {};

}  // namespace

TEST_CASE("solve loop: converges at the first check at or below tolerance x the first norm") {
  // First norm 2: target max(0, 1e-3 x 2) = 2e-3; 2e-3 itself converges.
  const Run run = run_loop("tolerance: 1e-3, check_every: 1", steady(10),
                           {2.0, 0.5, 0.01, 2e-3, 1e-4}, nothing);
  CHECK(run.result.status == SolveStatus::Converged);
  CHECK(run.result.iterations == 4);
  CHECK(run.result.first_norm == 2.0);
  CHECK(run.result.norm_l2 == doctest::Approx(2e-3));
  REQUIRE(run.rows.size() == 4);
  CHECK(std::isnan(run.rows[0].factor));  // no row before the first
  CHECK(run.rows[1].factor == doctest::Approx(0.25));
  CHECK(run.rows[2].factor == doctest::Approx(0.02));
  CHECK(run.rows[3].time == 2.0);  // time_after(4)
  CHECK(run.advanced == std::vector<std::int64_t>{1, 2, 3, 4});
}

TEST_CASE("solve loop: divergence is decided before the tolerance") {
  // A NaN norm is below no target but diverges; a norm above 1e6 x the first diverges too.
  const Run nan = run_loop("tolerance: 1e-3", steady(10),
                           {1.0, 0.5, std::numeric_limits<double>::quiet_NaN(), 0.1}, nothing);
  CHECK(nan.result.status == SolveStatus::Diverged);
  CHECK(nan.result.iterations == 3);
  REQUIRE(nan.result.divergence);
  CHECK(nan.result.divergence->iteration == 3);
  CHECK(nan.result.divergence->time == 1.5);
  const Run big =
      run_loop("tolerance: 1e-3, divergence_factor: 100", steady(10), {1.0, 100.0, 100.5}, nothing);
  CHECK(big.result.status == SolveStatus::Diverged);
  CHECK(big.result.iterations == 3);  // 100 is at the limit, 100.5 above it
  REQUIRE(big.result.divergence);
  CHECK(big.result.divergence->limit == 100.0);
  // A norm below the target whose values overflow: diverged, not converged.
  const Run hidden = run_loop("tolerance: 1e-3", steady(10), {1.0, -1e-9, 1e-9}, nothing);
  CHECK(hidden.result.status == SolveStatus::Diverged);
  CHECK(hidden.result.iterations == 2);
}

TEST_CASE("solve loop: a heat run takes every step to its last and completes") {
  LoopPlan heat = steady(4);
  heat.heat = true;
  const Run run = run_loop("tolerance: 1e-3", heat, {1.0, 1e-9, 1e-9, 1e-9}, nothing);
  CHECK(run.result.status == SolveStatus::Completed);
  CHECK(run.result.iterations == 4);
  CHECK(run.result.time == 2.0);
  CHECK(run.rows.size() == 4);
  const Run steady_run = run_loop("tolerance: 1e-3", steady(4), {1.0, 0.5, 0.4, 0.3}, nothing);
  CHECK(steady_run.result.status == SolveStatus::MaxIterations);
  CHECK(steady_run.result.iterations == 4);
}

TEST_CASE("solve loop: five cycles in a row above factor 0.9 stall the cycles") {
  LoopPlan plan = steady(20);
  plan.cycle_stall = true;
  // Factors: iteration 2 is 0.5 (progress), 3 to 7 are 0.95: the fifth such, at 7, stalls.
  std::vector<double> norms{1.0, 0.5};
  for (int i = 0; i < 10; ++i) norms.push_back(norms.back() * 0.95);
  const Run run = run_loop("tolerance: 1e-12", plan, norms, nothing);
  CHECK(run.result.status == SolveStatus::Stalled);
  CHECK(run.result.iterations == 7);
  CHECK(run.result.stop_message.find("stalled at cycle 7") != std::string::npos);
}

TEST_CASE("solve loop: cycles that stop falling at the rounding floor converge there") {
  // 9x9 with spacing 1: |A| = 8, u in [0, 1]: the floor eps x 8 x 1 = 1.8e-15. The norms
  // fall to 2e-15 (within a factor 10 of it, far below a tenth of the first norm 1) and stall.
  LoopPlan plan = steady(20);
  plan.cycle_stall = true;
  std::vector<double> norms{1.0, 1e-5, 1e-10};
  for (int i = 0; i < 10; ++i) norms.push_back(2e-15);
  const Run run = run_loop("tolerance: 1e-20", plan, norms, nothing);
  CHECK(run.result.status == SolveStatus::Converged);
  CHECK(run.result.iterations == 9);  // falling to 2e-15 at 4, then five without progress
  CHECK(run.result.at_rounding_floor);
  REQUIRE(run.result.rounding_floor.has_value());
  CHECK(run.result.rounding_floor->residual_linf == 2e-15);
  CHECK(run.result.rounding_floor->floor ==
        doctest::Approx(8 * std::numeric_limits<double>::epsilon()));
  CHECK(run.result.stop_message.empty());
  // The same stall far above the floor stays a stall.
  const Run far = run_loop("tolerance: 1e-20", plan, {1.0, 1e-5, 1e-6, 1e-6, 1e-6, 1e-6, 1e-6,
                                                      1e-6, 1e-6},
                           nothing);
  CHECK(far.result.status == SolveStatus::Stalled);
  CHECK_FALSE(far.result.at_rounding_floor);
  CHECK(far.result.stop_message.find("far above rounding") != std::string::npos);
}

TEST_CASE(
    "solve loop: a signal stops at the next iteration boundary; at the last iteration "
    "the count wins unless the iteration looks at the stop first") {
  std::atomic<bool> signal{false};
  const Run mid = run_loop(
      "tolerance: 1e-12", steady(10), {1.0, 0.9, 0.8, 0.7},
      [](ScriptedIteration& i) { i.signal_after = 2; }, &signal);
  CHECK(mid.result.status == SolveStatus::Interrupted);
  CHECK(mid.result.iterations == 2);
  CHECK(mid.advanced == std::vector<std::int64_t>{1, 2});

  signal = false;
  const Run counted = run_loop(
      "tolerance: 1e-12", steady(2), {1.0, 0.9}, [](ScriptedIteration& i) { i.signal_after = 2; },
      &signal);
  CHECK(counted.result.status == SolveStatus::MaxIterations);
  CHECK(counted.result.iterations == 2);

  signal = false;
  const Run first = run_loop(
      "tolerance: 1e-12", steady(2), {1.0, 0.9},
      [](ScriptedIteration& i) {
        i.signal_after = 2;
        i.stop_first = true;
      },
      &signal);
  CHECK(first.result.status == SolveStatus::Interrupted);
  CHECK(first.result.iterations == 2);
}

TEST_CASE("solve loop: a block of iterations runs without a check or a row") {
  // Iteration 1 alone, 2 to 4 as a block from 1, then 5 alone: rows at 1 and 5 only.
  const Run run =
      run_loop("tolerance: 1e-12", steady(5), {1.0, 0.0, 0.0, 0.0, 0.5}, [](ScriptedIteration& i) {
        i.block_at = 1;
        i.block = 3;
      });
  CHECK(run.result.status == SolveStatus::MaxIterations);
  CHECK(run.result.iterations == 5);
  CHECK(run.advanced == std::vector<std::int64_t>{1, 5});
  REQUIRE(run.rows.size() == 2);
  CHECK(run.rows[1].iteration == 5);
  CHECK(run.rows[1].factor == doctest::Approx(0.5));
}
