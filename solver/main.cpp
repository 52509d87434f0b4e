// fdsolve's command line: parses arguments, runs one sub-command, and reports any error once
// with its exit code (docs/commands.md). Under mpirun only rank 0 logs; a failure that the
// ranks did not agree on (parallel/agree.hpp) ends the job with MPI_Abort so that no rank
// waits forever.
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <utility>

#include "backend.hpp"
#include "bench/bench.hpp"
#include "case_reader.hpp"
#include "commands/commands.hpp"
#include "commands/wait_policy.hpp"
#include "compare.hpp"
#include "exit_codes.hpp"
#include "formula_cache_use.hpp"
#include "loop/run_clock.hpp"
#include "multigrid/multigrid_bench.hpp"
#include "parallel/agree.hpp"
#include "parallel/comm.hpp"
#include "tuning/kernel_choice.hpp"

namespace {

/// Rank 0 logs as asked; the other ranks are silent but for their own failures (fail below).
void setup_logging(bool quiet, const std::string& level, int rank) {
  auto logger = spdlog::stderr_color_mt("fdsolve");
  spdlog::set_default_logger(logger);
  spdlog::set_pattern("[%H:%M:%S] %^%l%$: %v");
  spdlog::set_level(rank > 0 ? spdlog::level::off
                    : quiet  ? spdlog::level::err
                             : spdlog::level::from_str(level));
}

/// Reports a failure of this rank and returns its exit code, or ends every rank with it when
/// the others did not take part in agreeing on it (they may be waiting for this one).
int fail(const fdsolve::parallel::Comm& comm, int code, const std::string& message) {
  if (comm.several()) {
    spdlog::set_level(spdlog::level::err);
    spdlog::error("rank {}: {}", comm.rank(), message);
    if (!fdsolve::parallel::failure_agreed()) {
      spdlog::default_logger()->flush();
      comm.abort(code);
    }
    return code;
  }
  spdlog::error("{}", message);
  return code;
}

/// Where the formulas NVRTC compiles are kept between runs: $FDSOLVE_FORMULA_CACHE where it is
/// set ("off", "0" or empty: nowhere), else formulas/ in the tuning cache's directory.
std::filesystem::path formula_cache_directory() {
  if (const char* set = std::getenv("FDSOLVE_FORMULA_CACHE")) {
    const std::string value(set);
    return value.empty() || value == "off" || value == "0" ? std::filesystem::path()
                                                           : std::filesystem::path(value);
  }
  const std::filesystem::path directory = fdsolve::tune_cache_directory();
  return directory.empty() ? directory : directory / "formulas";
}

}  // namespace

int main(int argc, char** argv) {
  using namespace fdsolve;
  RunClock::get().start_process();  // summary.json's timings count from here
  default_spin_count(argv);  // before any OpenMP thread exists (wait_policy.hpp)
  parallel::MpiSession mpi(argc, argv);
  const parallel::Comm comm = parallel::Comm::world();
  CLI::App app{"fdsolve: finite-difference Laplace/Poisson solver for CUDA GPUs and CPUs"};
  app.set_version_flag("--version", [] { return version_text(); });
  app.require_subcommand(1);
  app.fallthrough();  // --quiet and --log-level may follow the sub-command (fdsolve run X --quiet)
  bool quiet = false;
  std::string log_level = "info";
  app.add_flag("--quiet,-q", quiet, "Errors only");
  app.add_option("--log-level", log_level, "trace, debug, info, warn, error")
      ->check(CLI::IsMember({"trace", "debug", "info", "warn", "error"}));

  RunOptions run;
  auto* run_cmd = app.add_subcommand("run", "Run a case");
  run_cmd->add_option("case", run.case_path, "Case file (YAML); not with --resume OUTDIR");
  run_cmd->add_option("--set", run.overrides, "Override a key: KEY=VALUE (YAML value)");
  run_cmd->add_option("--backend", run.backend, "auto, cuda or cpu")
      ->check(CLI::IsMember({"auto", "cuda", "cpu"}));
  run_cmd->add_option("--output", run.output_directory, "Output directory");
  run_cmd->add_option("--threads", run.threads,
                      "CPU threads (default: the cores this process may use, or OMP_NUM_THREADS)")
      ->check(CLI::Range(1, 4096));
  run_cmd->add_option("--time-limit", run.time_limit,
                      "Stop after this many seconds of wall time with a checkpoint (exit 3); "
                      "0: no limit (overrides solve.max_wall_time)")
      ->check(CLI::NonNegativeNumber);
  auto* resume_opt =
      run_cmd
          ->add_option("--resume", run.resume_directory,
                       "Continue from <output>/checkpoint.h5 (written by checkpoint.every, an "
                       "interrupt or a time limit): CASE.yaml --resume, or --resume OUTDIR, "
                       "which takes the case (and its --set overrides) from the checkpoint")
          ->expected(0, 1);

  std::string check_path;
  std::vector<std::string> check_sets;
  auto* check_cmd = app.add_subcommand("check", "Validate a case and print it resolved");
  check_cmd->add_option("case", check_path, "Case file (YAML)")->required();
  check_cmd->add_option("--set", check_sets, "Override a key: KEY=VALUE (YAML value)");
  bool check_full = false;
  check_cmd->add_flag("--full", check_full,
                      "Evaluate expressions at every node (default: at samples on a large grid)");
  std::string check_backend;
  check_cmd->add_option("--backend", check_backend, "auto, cuda or cpu (as for run)")
      ->check(CLI::IsMember({"auto", "cuda", "cpu"}));

  BenchOptions bench;
  auto* bench_cmd = app.add_subcommand("bench", "Measure kernel throughput");
  bench_cmd->add_option("--backend", bench.backend, "cuda or cpu (default: both)")
      ->check(CLI::IsMember({"cuda", "cpu"}));
  bench_cmd->add_option("--dims", bench.dims, "2 or 3 (default: both)")
      ->check(CLI::IsMember({2, 3}));
  bench_cmd->add_option("--size", bench.size, "Nodes per axis")->check(CLI::Range(3, 1 << 20));
  bench_cmd->add_option("--precision", bench.precision, "float or double (default: both)")
      ->check(CLI::IsMember({"float", "double"}));
  bench_cmd->add_option("--kernel", bench.kernel, "One kernel variant");
  bench_cmd->add_option("--iterations", bench.iterations, "Sweeps per row")
      ->check(CLI::Range(1, 1 << 20));
  bench_cmd->add_option("--norm-every", bench.norm_every, "Sweeps between norms; 0 = none")
      ->check(CLI::Range(0, 1 << 20));
  bench_cmd->add_option("--points", bench.points, "3D stencil: 7, 19 or 27 (default 27)")
      ->check(CLI::IsMember({7, 19, 27}));
  bench_cmd->add_option("--steps", bench.steps,
                        "Sweeps per blocked call in the temporal-blocking rows (default 8)")
      ->check(CLI::Range(1, 1024));
  bench_cmd->add_option("--json", bench.json_path, "Write the rows as JSON");
  auto* multigrid_flag = bench_cmd->add_flag("--multigrid", bench.multigrid,
                      "Multigrid rows: a V-cycle and a full solve, in work units");
  bench_cmd->add_option("--threads", bench.threads, "CPU threads (default: as for run)")
      ->check(CLI::Range(1, 4096));
  auto* sizes_flag =
      bench_cmd->add_flag("--sizes", bench.sizes,
                          "The size ladder: per size the chosen default and the best variant, "
                          "us/sweep of recorded blocks of sweeps");
  auto* io_flag = bench_cmd->add_flag(
      "--io", bench.io,
      "Snapshot write speed beside a dd-style write (8 MiB writes + fdatasync) in --dir: a "
      "4097x2049 double field unless --size/--dims/--precision say otherwise; --iterations: "
      "repeats (default 5)");
  io_flag->excludes(multigrid_flag)->excludes(sizes_flag);
  bench_cmd->add_option("--dir", bench.dir,
                        "Directory --io writes (and removes) its files in (default: the current "
                        "directory, under which a run's out/<name> goes by default)")
      ->needs(io_flag);

  TuneOptions tune;
  auto* tune_cmd = app.add_subcommand(
      "tune", "Measure the kernel variants over a ladder of sizes and cache the winners");
  tune_cmd->add_option("--backend", tune.backend, "cuda or cpu (default: cuda when present)")
      ->check(CLI::IsMember({"cuda", "cpu"}));
  tune_cmd->add_option("--dims", tune.dims, "2 or 3 (default: both)")->check(CLI::IsMember({2, 3}));
  tune_cmd->add_option("--precision", tune.precision, "float or double (default: both)")
      ->check(CLI::IsMember({"float", "double"}));
  tune_cmd->add_flag("--quick", tune.quick, "The two smallest sizes only, fewer sweeps");

  std::string cmp_a, cmp_b;
  double rtol = 1e-12, atol = 0;
  auto* cmp_cmd = app.add_subcommand("compare", "Compare two snapshots or output directories");
  cmp_cmd->add_option("a", cmp_a, "Snapshot file or output directory")->required();
  cmp_cmd->add_option("b", cmp_b, "Snapshot file or output directory")->required();
  cmp_cmd->add_option("--rtol", rtol, "Relative tolerance")->check(CLI::NonNegativeNumber);
  cmp_cmd->add_option("--atol", atol, "Absolute tolerance")->check(CLI::NonNegativeNumber);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // Usage errors are the same on every rank: rank 0 says so.
    const int code = comm.root() ? app.exit(e) : e.get_exit_code();
    return code == 0 ? kExitOk : kExitBadInput;
  }
  setup_logging(quiet, log_level, comm.rank());
  use_formula_cache(formula_cache_directory());

  try {
    if (*run_cmd) {
      run.resume = resume_opt->count() > 0;
      // `run --resume CASE.yaml` (the flag before the case file) is the CASE.yaml --resume form.
      std::error_code ec;
      if (run.case_path.empty() && !run.resume_directory.empty() &&
          std::filesystem::is_regular_file(run.resume_directory, ec))
        run.case_path = std::exchange(run.resume_directory, std::string());
      run.live_progress = !quiet && comm.root() && isatty(STDERR_FILENO);
      return run_command(run);
    }
    if (*check_cmd) {
      if (!check_backend.empty()) check_sets.push_back("backend=" + check_backend);  // as run
      return check_command(check_path, check_sets, std::cout, check_full);
    }
    if (*bench_cmd) {
      if (bench.io)
        run_io_bench(bench, std::cout);
      else if (bench.multigrid)
        multigrid::run_multigrid_bench(bench, std::cout);
      else if (bench.sizes)
        run_size_bench(bench, std::cout);
      else
        run_bench(bench, std::cout);
      return kExitOk;
    }
    if (*tune_cmd) return tune_command(tune, std::cout);
    if (*cmp_cmd) {
      try {
        return compare_command(cmp_a, cmp_b, rtol, atol, std::cout);
      } catch (const std::exception& e) {
        return fail(comm, kExitBadInput,
                    e.what());  // compare exits 2 on error, 1 on difference
      }
    }
  } catch (const parallel::PeerFailure& e) {
    return e.code();  // another rank failed in the same step and reports it
  } catch (const InputError& e) {
    return fail(comm, kExitBadInput, e.what());
  } catch (const std::invalid_argument& e) {
    return fail(comm, kExitBadInput, e.what());
  } catch (const std::exception& e) {
    return fail(comm, kExitRuntime, e.what());
  }
  return kExitOk;
}
