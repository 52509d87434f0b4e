// `fdsolve run`: validate, pick the backend, check memory, then solve and write the results.
// Nothing is written before every check has passed. A signal's stop is stop_on_signal.hpp's.
#include <spdlog/spdlog.h>

#include <cstdlib>
#include <filesystem>

#include "backend_select.hpp"
#include "case_reader.hpp"
#include "commands.hpp"
#include "cpu/thread_policy.hpp"
#include "exit_codes.hpp"
#include "loop/blocked_steps.hpp"
#include "loop/jacobi.hpp"
#include "loop/medium_output.hpp"
#include "loop/run_checks.hpp"
#include "loop/stability.hpp"
#include "loop/stop_rules.hpp"
#include "parallel/agree.hpp"
#include "parallel/comm.hpp"
#include "parallel/decomposition.hpp"
#include "parallel/halo_exchange.hpp"
#include "parallel/transport.hpp"
#include "problem/field_programs.hpp"
#include "problem/finite_inputs.hpp"
#include "problem/memory_estimate.hpp"
#include "problem/problem_setup.hpp"
#include "loop/run_clock.hpp"
#include "resume_case.hpp"
#include "resume_checks.hpp"
#include "operator/device_medium.hpp"
#include "operator/medium.hpp"
#include "solve.hpp"
#include "stop_on_signal.hpp"
#include "tuning/case_kernel.hpp"

namespace fdsolve {
namespace {

/// A YAML single-quoted scalar, so that any path survives the --set route.
std::string yaml_quote(const std::string& s) {
  std::string q = "'";
  for (char ch : s) q += ch == '\'' ? std::string("''") : std::string(1, ch);
  return q + "'";
}

std::string gib(std::size_t bytes) {
  return fmt::format("{} bytes ({:.2f} GiB)", bytes, static_cast<double>(bytes) / (1 << 30));
}

/// Snapshots of the same case left in the output directory by an earlier run: they stay on
/// disk but are not part of this run's index, which a user comparing directories must know.
void warn_about_earlier_snapshots(const Case& c) {
  namespace fs = std::filesystem;
  std::error_code ec;
  int stale = 0;
  for (fs::directory_iterator it(c.output.directory, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string f = it->path().filename().string();
    if (f.rfind(c.name + "_", 0) == 0 && it->path().extension() == ".h5") ++stale;
  }
  if (stale > 0)
    spdlog::warn(
        "{} already holds {} snapshot file(s) of '{}': those of the iterations this run "
        "writes are replaced, the others stay but are not listed in {}.xmf",
        c.output.directory, stale, c.name, c.name);
}

/// What a resumed run takes up that the log should say: the last step of a finished heat run
/// taken again, and snapshot files of earlier sessions that its index no longer lists.
void describe_resumed_files(const Case& c, const Checkpoint& k) {
  if (before_completed_last_step(c, k.state, read_session_end(c.output.directory)))
    spdlog::info("continuing the run that completed at step {} from the state before its last "
                 "step (t = {}): step {} is taken again as one run to time.end = {} takes it "
                 "(the first run shortened it to land on its own time.end)",
                 k.state.iteration + 1, k.state.time, k.state.iteration + 1, c.time.end);
  const std::vector<std::string> unlisted = unlisted_snapshots(c, k.index);
  if (!unlisted.empty())
    spdlog::info("{} keeps {} snapshot file(s) that the continued run's {}.xmf does not list "
                 "(last states where earlier sessions stopped): {}",
                 c.output.directory, unlisted.size(), c.name, fmt::join(unlisted, ", "));
}

/// Where the loop's host time went over several ranks, for scaling tables: rank 0's figures and
/// the largest over the ranks.
void log_loop_times(const output::ParallelSummary& p) {
  const auto line = [](const output::LoopTimes& t) {
    const double other = t.loop - t.sweep - t.exchange - t.reductions;
    return fmt::format("sweep {:.3f} s, exchange {:.3f} s, reductions {:.3f} s, other {:.3f} s "
                       "of {:.3f} s",
                       t.sweep, t.exchange, t.reductions, other, t.loop);
  };
  spdlog::info("loop time on rank 0: {}", line(p.rank0));
  spdlog::info("loop time, largest over {} ranks: {}", p.ranks, line(p.max));
}

/// Ranks of a node take device node_rank % devices: more ranks than devices share them, which
/// is right for testing but halves each rank's share. Said once, by rank 0, for any node.
void warn_if_sharing_devices(bool cuda, const parallel::Comm& comm) {
  if (!cuda || !comm.several()) return;
  const int devices = cuda_device_count();
  const long long most = comm.max(devices > 0 ? (comm.node_size() + devices - 1) / devices : 1);
  if (most > 1 && comm.root())
    spdlog::warn("up to {} ranks share a GPU (rank r of a node takes device r % {} of its node); "
                 "fine for testing, slower than one rank per GPU",
                 most, devices);
}

/// What a run counts: heat steps, multigrid cycles or Jacobi iterations.
const char* counted(const Case& c) {
  if (c.problem.equation == Equation::Heat) return "steps";
  return method_name(c).rfind("multigrid", 0) == 0 ? "cycles" : "iterations";
}

/// The one line of summary.json's stop_reason for a run that did not converge or complete.
std::string stop_reason(const Case& c, const SolveResult& r, double wall_limit, int signal) {
  switch (r.status) {
    case SolveStatus::MaxIterations:
      return fmt::format("max_iterations = {} reached without converging", c.solve.max_iterations);
    case SolveStatus::Stalled:
      return r.stop_message;
    case SolveStatus::TimeLimit:
      return fmt::format("time limit: {:g} s of wall time reached after {} {}; checkpoint written",
                         wall_limit, r.iterations, counted(c));
    case SolveStatus::Interrupted:
      return fmt::format("interrupted by signal {}; checkpoint written", signal);
    case SolveStatus::Diverged:
      return "diverged";
    default:
      return "";
  }
}

/// The command that continues a stopped run: the case comes from its checkpoint.
std::string resume_command(const Case& c) {
  return "fdsolve run --resume " + c.output.directory;
}

void check_memory(const std::string& what, std::size_t needed, std::size_t free) {
  if (needed > free)
    throw BackendError("out of " + what + " memory: the case needs " + gib(needed) + ", " +
                       gib(free) + " free");
}

template <typename T>
int run_typed(const Case& c, bool cuda, const RunOptions& options, const parallel::Comm& comm) {
  std::unique_ptr<Backend<T>> backend;
  // Held for the run: the face build finds the device copies of its arrays by their addresses.
  std::shared_ptr<const op::Medium> medium;
  parallel::Decomposition d;
  Checkpoint resume;
  std::unique_ptr<output::RunOutput> output;
  std::size_t memory_estimate = 0;
  // Every check every rank makes before the run, agreed: a failure on any rank ends all of
  // them here with one message and one exit code.
  parallel::agree(comm, [&] {
    RunClock::get().mark("case read");
    // NVRTC compiles the formulas while the CUDA context is created.
    if (cuda) {
      const int devices = std::max(cuda_device_count(), 1);
      compile_formulas_ahead(case_formula_programs(c), comm.node_rank() % devices);
    }
    backend = make_backend<T>(cuda, comm.node_rank());  // one GPU per rank of a node
    RunClock::get().mark("backend ready");
    // The medium's formulas run where the fields live: on a GPU, compiled, on the device (a
    // float run evaluates them on the host, in double, as the medium is kept).
    if constexpr (std::is_same_v<T, double>) {
      if (!backend->host_memory() && op::may_need_flux(c)) {
        medium = op::medium_on_backend(c, *backend);
        RunClock::get().mark("medium evaluated");
      }
    }
  });
  // GPU halos device to device (NCCL) where every rank can: a collective, and before the split,
  // since the transport decides multigrid's default gather level (parallel::gather_threshold)
  // as well as the exchange path that the log names.
  if (parallel::connect_transport(*backend, comm, "halo exchange"))
    RunClock::get().mark("transport connected");
  parallel::agree(comm, [&] {
    choose_kernel(c, *backend);  // an unknown tuning.kernel is bad input: fail before writing
    choose_blocked_kernel(c, *backend);  // the same for tuning.blocked_kernel
    // Multigrid's split is aligned for its levels (an error when the grid is too small).
    d = case_decomposition(c, parallel::choose_ranks(c, comm), comm.rank());
    if (c.problem.equation == Equation::Heat && c.time.scheme == TimeScheme::Explicit) {
      const TimePlan plan = heat_time_plan(c);  // a dt above the limit is bad input
      spdlog::info("heat: {} steps of dt {:.6g} (stability limit {:.6g}, {}) to t = {}", plan.steps,
                   plan.dt, plan.limit, describe_stencil(c), c.time.end);
    } else if (c.problem.equation == Equation::Heat) {
      const TimePlan plan = heat_time_plan(c);  // any dt: the limit is for comparison only
      spdlog::info("heat: {} steps of dt {:.6g} = {:.4g} x the explicit stability limit {:.6g} "
                   "({}) to t = {}",
                   plan.steps, plan.dt, plan.dt / plan.limit, plan.limit, describe_stencil(c),
                   c.time.end);
    }
    // The kept copies become the face build's arrays, which the estimate counts.
    memory_estimate = case_memory(c, d.ranks, comm.rank());
    check_memory(backend->name(), memory_estimate,
                 backend->free_memory() + backend->level_faces().kept_bytes());
    if (!backend->host_memory())  // the host's own memory besides the device's
      check_memory("host", required_host_memory(c, d.sub, comm.root()),
                   make_cpu_backend<T>()->free_memory());
    // NaN or Inf inputs are bad input, found before anything is written; formulas are
    // evaluated on the backend (on CUDA: compiled, on the device).
    check_finite_inputs(c, *backend, !comm.several());
    RunClock::get().mark("inputs checked");
    // So are a coefficient that is not finite and > 0 at some node and bad held regions.
    if (op::may_need_flux(c)) (void)op::resolved_medium(c);
    // A resumed run must find its checkpoint valid before anything in the directory changes.
    if (options.resume) {
      resume = read_checkpoint(c, d.sub);
      check_checkpoint_is_latest(c, resume.state);
      check_heat_continuation(c, resume.state);
    }
    if (!options.resume && comm.root()) {
      warn_about_earlier_snapshots(c);
      remove_earlier_summary(c);
    }
    // Only rank 0 writes files; the others keep the same index and history in memory.
    output = std::make_unique<output::RunOutput>(c.output.directory, c.name, grid_meta(c),
                                                 to_yaml(c), comm.root());
    output->set_format({c.output.float_precision, c.output.gzip_level});
    RunClock::get().mark("output directory ready");
  });
  if (options.resume && comm.root()) describe_resumed_files(c, resume);
  output::RunOutput& out = *output;
  // The medium's output fields reach the disk while the operator is built and the solve runs
  // on the device. Not beside CPU sweeps, which use every core: a thread writing beside them
  // slowed a solve more than the write it saved (docs/performance.md, "Media set-up").
  if (!comm.several() && !backend->host_memory()) write_medium_fields_ahead<T>(c, out);
  out.set_time_sink([](double seconds) { RunClock::get().add_output(seconds); });
  warn_if_sharing_devices(cuda, comm);  // a collective: after agree, which every rank passed
  // The sweeps' team: smaller than the policy's limit on a small grid (thread_policy.hpp).
  const int threads =
      backend->host_memory() ? cpu::team_size(update_box(c, d.sub).cells()) : 0;
  spdlog::info("case {}: {}D grid {}, {} on {} ({}){}", c.name, c.grid.dims,
               fmt::join(c.grid.points.begin(), c.grid.points.begin() + c.grid.dims, "x"),
               sizeof(T) == 4 ? "float" : "double", backend->name(), backend->device(),
               threads > 0 ? fmt::format(", sweeps on {} thread{}", threads, threads == 1 ? "" : "s")
                           : std::string());
  const KernelChoice chosen = kernel_choice(c, *backend);
  spdlog::info("sweep kernel {} ({})", chosen.kernel, chosen.reason);
  if (const std::string w = tolerance_warning(c, runs_multigrid(c), coefficient_range(c));
      !w.empty())
    spdlog::warn("{}", w);
  for (const std::string& line : describe_method(c)) {
    if (line.rfind("warning: ", 0) == 0) {
      // The solve warns about coarsening itself; Crank-Nicolson's ringing is said here.
      if (line.find("rings") != std::string::npos) spdlog::warn("{}", line.substr(9));
      continue;
    }
    spdlog::info("{}", line);
  }
  if (comm.several())
    spdlog::info(
        "MPI: {}; halo exchange {}, {}; {}",
        parallel::describe(d), exchange_path(backend->host_memory()),
        c.parallel.overlap ? "overlapped with the interior sweep" : "not overlapped",
        output::parallel_hdf5()
            ? "snapshots and checkpoints written collectively (parallel HDF5)"
            : "snapshots and checkpoints gathered to rank 0 and written serially (serial HDF5: "
              "the slow path)");
  SolveOptions so;
  so.comm = comm;
  so.decomposition = &d;
  so.live_progress = options.live_progress;
  so.resume = options.resume ? &resume : nullptr;
  so.stop = &g_stop;
  so.max_wall_seconds = options.time_limit >= 0 ? options.time_limit : c.solve.max_wall_time;
  // A measurement knob (docs/performance.md): FDSOLVE_CYCLE_CHECKS=every makes an implicit
  // step's host check every cycle, as before the predicted schedule, to time the difference.
  if (const char* checks = std::getenv("FDSOLVE_CYCLE_CHECKS"))
    so.cycle_checks = std::string(checks) == "every"       ? SolveOptions::CycleChecks::EveryCycle
                      : std::string(checks) == "predicted" ? SolveOptions::CycleChecks::Predicted
                                                           : SolveOptions::CycleChecks::Auto;
  StopOnSignal stop_on_signal;
  RunClock::get().mark("solver starting");
  const SolveResult r = solve_case<T>(c, *backend, out, so);
  // Every rank stopped together; the signal number may have reached only some of them.
  const int signal =
      r.status == SolveStatus::Interrupted ? static_cast<int>(comm.max(g_signal)) : 0;

  output::Summary s;
  s.name = c.name;
  s.case_file = c.source_path;
  s.backend = backend->name();
  s.device = backend->device();
  s.threads = threads;
  s.memory_peak_bytes = static_cast<std::int64_t>(backend->peak_allocated());
  s.memory_estimate_bytes = static_cast<std::int64_t>(memory_estimate);
  s.precision = sizeof(T) == 4 ? "float" : "double";
  s.kernel = r.kernel;
  s.kernel_reason = chosen.reason;
  s.method = method_name(c);
  s.criterion = norm_criterion(c);
  s.grid = grid_meta(c);
  s.iterations = r.iterations;
  s.converged = r.status == SolveStatus::Converged;
  s.status = to_string(r.status);
  s.stop_reason = stop_reason(c, r, so.max_wall_seconds, signal);
  s.norm_l2 = r.norm_l2;
  s.norm_linf = r.norm_linf;
  s.first_norm = r.first_norm;
  s.at_rounding_floor = r.at_rounding_floor;
  s.rounding_floor = r.rounding_floor;
  s.wall_seconds = r.seconds;
  s.cells_per_second = r.cells_per_second;
  s.diagnostics = c.solve.diagnostics;
  s.history = out.history();
  if (r.divergence) {
    s.diverged = true;
    s.divergence = *r.divergence;
  }
  s.config_yaml = to_yaml(c);
  if (r.parallel) {
    s.distributed = true;
    s.parallel = *r.parallel;
  }
  if (r.mixed) {
    s.mixed = r.mixed;
    s.method += ", float cycles in a double defect correction";
  }
  if (r.error_estimate) {
    s.estimated = true;
    s.estimate = *r.error_estimate;
  }
  s.timings = RunClock::get().timings();
  out.write_summary(s);

  spdlog::info(
      "{} after {} {}: l2 {:.3e}, linf {:.3e}; {:.3f} s, {:.3g} cells/s; results in {}",
      to_string(r.status), r.iterations, counted(c), r.norm_l2, r.norm_linf,
      r.seconds, r.cells_per_second, c.output.directory);
  if (r.parallel) log_loop_times(*r.parallel);
  spdlog::info("time: {}", describe_timings(s.timings));
  if (!s.history.empty() && s.history.back().diagnosed && !r.divergence) {
    const output::HistoryRow& last = s.history.back();
    spdlog::info(
        "last check (iteration {}): u in [{:.6g}, {:.6g}], mean {:.6g}; |u' - u| p50 "
        "{:.3e}, p90 {:.3e}, p99 {:.3e}, largest at node ({})",
        last.iteration, last.min, last.max, last.mean, last.p50, last.p90, last.p99,
        fmt::join(last.linf_at.begin(), last.linf_at.begin() + c.grid.dims, ", "));
  }
  // Where to look next: the index ParaView opens, and the plot scripts (tools/plot_*.py).
  spdlog::info("open {}/{}.xmf in ParaView; plots: tools/plot_history.py {} and "
               "tools/plot_slice.py {}",
               c.output.directory, c.name, c.output.directory, c.output.directory);
  switch (r.status) {
    case SolveStatus::Converged:
    case SolveStatus::Completed:
      return kExitOk;
    case SolveStatus::Interrupted:
      spdlog::warn(
          "interrupted by signal {} at iteration {}: state saved to {}; continue with `{}`",
          signal, r.iterations, checkpoint_path(c), resume_command(c));
      return 128 + signal;
    case SolveStatus::TimeLimit:
      spdlog::warn(
          "time limit of {:g} s reached after {} {}: state saved to {}; continue with `{}`",
          so.max_wall_seconds, r.iterations, counted(c), checkpoint_path(c), resume_command(c));
      return kExitMaxIterations;
    case SolveStatus::Stalled:
      spdlog::warn("{}", r.stop_message);
      return kExitMaxIterations;
    case SolveStatus::Diverged:
      spdlog::error(
          "{}; last state written to {} (marked diverged), no checkpoint written from it",
          describe_divergence(*r.divergence, c.grid.dims, c.problem.equation == Equation::Heat),
          (std::filesystem::path(c.output.directory) / r.divergence->snapshot).string());
      return kExitDiverged;
    default:
      spdlog::warn("not converged after max_iterations = {}", c.solve.max_iterations);
      return kExitMaxIterations;
  }
}

}  // namespace

int run_command(const RunOptions& options) {
  if (!options.resume_directory.empty()) {
    if (!options.case_path.empty())
      throw InputError("run: give either CASE.yaml --resume or --resume OUTDIR, not both");
    if (!options.output_directory.empty())
      throw InputError("run --resume " + options.resume_directory +
                       ": --output does not apply (the run continues in that directory)");
  } else if (options.case_path.empty()) {
    throw InputError("run: a case file is required (fdsolve run CASE.yaml), or --resume OUTDIR");
  }
  std::vector<std::string> overrides = options.overrides;
  if (!options.backend.empty()) overrides.push_back("backend=" + options.backend);
  if (!options.output_directory.empty())
    overrides.push_back("output.directory=" + yaml_quote(options.output_directory));
  const parallel::Comm comm = parallel::Comm::world();
  const Case c = parallel::agree(comm, [&] {
    Case read = options.resume_directory.empty()
                    ? read_case_file(options.case_path, overrides)
                    : read_resumed_case(options.resume_directory, overrides);
    resolve_method_defaults(read);
    return read;
  });
  cpu::set_thread_policy(cpu::resolve_thread_policy(options.threads));
  compile_formulas_early(c);
  const bool cuda = parallel::agree(comm, [&] { return use_cuda(c.backend); });
  const int code = c.precision == Precision::Float ? run_typed<float>(c, cuda, options, comm)
                                                   : run_typed<double>(c, cuda, options, comm);
  // The run's buffers are freed by now; the process's own exit (the device's context) follows.
  spdlog::debug("run ended: its buffers released");
  return code;
}

}  // namespace fdsolve
