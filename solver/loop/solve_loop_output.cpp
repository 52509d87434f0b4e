// What the solve loop (solve_loop.hpp) writes at its marks, and its end: snapshots and probe
// samples, the balance of a check's row, checkpoints, and after the last iteration the status,
// the result's figures, the last checkpoint, the final snapshot and the writer's drain.
#include "solve_loop.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <future>
#include <optional>
#include <utility>
#include <vector>

#include "cpu/thread_policy.hpp"
#include "end_checkpoint.hpp"
#include "loop_support.hpp"
#include "run_clock.hpp"

namespace fdsolve {

template <typename T>
bool SolveLoop<T>::snapshot_due(std::int64_t it) const {
  if (plan_.initial_snapshot)
    return std::binary_search(plan_.output_steps.begin(), plan_.output_steps.end(), it);
  return c_.output.every > 0 && it % c_.output.every == 0;
}

template <typename T>
void SolveLoop<T>::sample_probes(std::int64_t it, double time) {
  if (!probes_ || last_probed_ == it) return;  // a check and a snapshot of one iteration: once
  last_probed_ = it;
  std::vector<double> values = probes_->sample(cur_);
  out_.add_probe_row(output::ProbeRow{it, time, std::move(values)});
}

template <typename T>
T* SolveLoop<T>::balance_host() {
  // Pages touched on all threads, not zeroed on one: the download writes every element.
  if (balance_host_.size() != static_cast<std::size_t>(L_.size))
    balance_host_ = op::touched<T>(L_.size);
  return balance_host_.data();
}

template <typename T>
const T* SolveLoop<T>::balance_input() {
  if (balance_halo_) balance_halo_->exchange(cur_);
  if (backend_.host_memory()) return cur_.data();
  T* u = balance_host();
  backend_.download(u, cur_, L_.size);
  return u;
}

template <typename T>
std::vector<double> SolveLoop<T>::measure_balance(const T* u, double time, std::int64_t iteration,
                                                  std::chrono::steady_clock::time_point since) {
  std::vector<double> b = Balance::merge(options_.comm, balance_->measure(u, L_, time));
  spdlog::debug("check {}: balance measured in {:.1f} ms", iteration, 1e3 * seconds_since(since));
  return b;
}

template <typename T>
void SolveLoop<T>::add_balance(output::HistoryRow& row, double time) {
  if (!balance_) return;
  const auto t0 = std::chrono::steady_clock::now();
  row.balance = measure_balance(balance_input(), time, row.iteration, t0);
  row.balance_faces = balance_->faces();
}

template <typename T>
std::future<std::vector<double>> SolveLoop<T>::start_final_balance(double time) {
  const auto t0 = std::chrono::steady_clock::now();
  if (options_.comm.several()) {
    // Ranks exchange u's halo and merge their shares through MPI, which this thread alone calls.
    std::promise<std::vector<double>> now;
    now.set_value(measure_balance(balance_input(), time, it_, t0));
    return now.get_future();
  }
  // One rank: u comes to the host on the transfer queue, beside the final snapshot's reads on
  // the sweeps' queue, and is measured on all threads while that snapshot waits on the disk.
  if (!backend_.host_memory()) backend_.transfers().after_sweeps();
  return std::async(std::launch::async, [this, time, t0] {
    cpu::adopt_thread_policy();
    const T* u = cur_.data();
    if (!backend_.host_memory()) {
      T* host = balance_host();
      TransferQueue<T>& queue = backend_.transfers();
      queue.download(host, cur_, L_.size);
      queue.wait();
      u = host;
    }
    return measure_balance(u, time, it_, t0);
  });
}

template <typename T>
void SolveLoop<T>::write_due_output(LoopIteration<T>& iteration) {
  if (snapshot_due(it_)) {
    writer_.snapshot(cur_, iteration.previous(), it_, iteration.time_after(it_), {},
                     it_ >= plan_.last);
    sample_probes(it_, iteration.time_after(it_));
    writer_.flush_history();
    writer_.flush_probes();
    last_snapshot_ = it_;
  }
  // A heat run's last step keeps the checkpoint of the state before it (end_checkpoint.hpp).
  if (c_.checkpoint.every > 0 && it_ % c_.checkpoint.every == 0 &&
      !(plan_.heat && it_ == plan_.last))
    checkpoint(iteration);
}

template <typename T>
void SolveLoop<T>::checkpoint(LoopIteration<T>& iteration) {
  writer_.checkpoint(cur_, state_now(iteration), iteration.checkpoint_fields());
}

template <typename T>
void SolveLoop<T>::finish(LoopIteration<T>& iteration) {
  if (abandoned_) {
    r_.status = rules_.request.signalled() ? SolveStatus::Interrupted : SolveStatus::TimeLimit;
    spdlog::info(
        "cycle {} abandoned part-way on the {}: its start restored, the checkpoint "
        "holds cycle {}",
        it_ + 1, r_.status == SolveStatus::Interrupted ? "signal" : "wall-time limit", it_);
  }
  if (plan_.heat && it_ == plan_.last && r_.status == SolveStatus::MaxIterations)
    r_.status = SolveStatus::Completed;
  iteration.before_end(it_, r_.status, abandoned_);
  backend_.synchronize();
  progress_.finish();
  const double session = seconds();
  RunClock::get().loop_ended();
  // The final state's balance (summary.json's last_check), on every rank alike, where the run
  // has ended for good: a run that may resume continues with the rows an uninterrupted run
  // has (the last cycle's diagnostics follow the same rule). After the loop's clock: it is
  // a measurement of the answer, not part of the solve.
  const bool resumable = r_.status == SolveStatus::Interrupted ||
                         r_.status == SolveStatus::TimeLimit ||
                         r_.status == SolveStatus::MaxIterations;
  std::future<std::vector<double>> final_balance;
  if (balance_ && !abandoned_ && !resumable && !out_.history().empty() &&
      out_.history().back().iteration == it_ && out_.history().back().balance.empty())
    final_balance = start_final_balance(iteration.time_after(it_));
  // The balance joins the last row before anything stores the history (a checkpoint,
  // history.csv); until then it is measured beside the final snapshot's write.
  const auto settle_balance = [&] {
    if (!final_balance.valid()) return;
    output::HistoryRow row = out_.history().back();
    row.balance = final_balance.get();
    row.balance_faces = balance_->faces();
    out_.replace_last_history(row);
  };
  iteration.report(it_ - done_);
  r_.iterations = it_;
  r_.time = iteration.time_after(it_);
  r_.seconds = earlier_seconds_ + session;
  r_.cells_per_second = session > 0 ? static_cast<double>(plan_.updated_cells) *
                                          static_cast<double>(it_ - done_) / session
                                    : 0;
  if (std::optional<output::ParallelSummary> p = iteration.parallel_summary(session))
    r_.parallel = std::move(p);
  if (rules_.discretization && rules_.discretization->has_discretization())
    r_.error_estimate = output::ErrorEstimate{
        rules_.discretization->discretization(), rules_.discretization->algebraic(),
        c_.solve.norm == NormKind::L2 ? "l2" : "linf", r_.coarse_seconds};
  // A sub-solve (final_state) hands its state over and writes nothing.
  if (r_.status == SolveStatus::Interrupted || r_.status == SolveStatus::TimeLimit) {
    settle_balance();
    checkpoint(iteration);
  } else if (checkpoints_steady_end(c_, r_.status) && !options_.final_state &&
             writer_.last_checkpoint() != it_) {
    settle_balance();
    checkpoint(iteration);
  }
  const Buffer<T>& before = iteration.previous();
  // The final state is a snapshot's, sampled like the others (a sub-solve writes nothing).
  if (!options_.final_state) sample_probes(it_, r_.time);
  if (r_.divergence) {
    // The last state, marked: /status = diverged and /divergence, the log's description.
    writer_.final_snapshot(
        cur_, before, it_, r_.time,
        {{"status", "diverged"},
         {"divergence", describe_divergence(*r_.divergence, c_.grid.dims, plan_.heat)}});
    r_.divergence->snapshot = out_.snapshot_file(it_);
  } else if (last_snapshot_ != it_ && !options_.final_state) {
    writer_.final_snapshot(cur_, before, it_, r_.time);
  }
  settle_balance();
  writer_.flush_history();
  writer_.flush_probes();
  writer_.finish();
  if (options_.final_state) options_.final_state(&cur_, L_);
}

template bool SolveLoop<float>::snapshot_due(std::int64_t) const;
template void SolveLoop<float>::sample_probes(std::int64_t, double);
template void SolveLoop<float>::add_balance(output::HistoryRow&, double);
template const float* SolveLoop<float>::balance_input();
template float* SolveLoop<float>::balance_host();
template std::vector<double> SolveLoop<float>::measure_balance(const float*, double, std::int64_t,
                                                         std::chrono::steady_clock::time_point);
template std::future<std::vector<double>> SolveLoop<float>::start_final_balance(double);
template void SolveLoop<float>::write_due_output(LoopIteration<float>&);
template void SolveLoop<float>::checkpoint(LoopIteration<float>&);
template void SolveLoop<float>::finish(LoopIteration<float>&);
template bool SolveLoop<double>::snapshot_due(std::int64_t) const;
template void SolveLoop<double>::sample_probes(std::int64_t, double);
template void SolveLoop<double>::add_balance(output::HistoryRow&, double);
template const double* SolveLoop<double>::balance_input();
template double* SolveLoop<double>::balance_host();
template std::vector<double> SolveLoop<double>::measure_balance(const double*, double, std::int64_t,
                                                         std::chrono::steady_clock::time_point);
template std::future<std::vector<double>> SolveLoop<double>::start_final_balance(double);
template void SolveLoop<double>::write_due_output(LoopIteration<double>&);
template void SolveLoop<double>::checkpoint(LoopIteration<double>&);
template void SolveLoop<double>::finish(LoopIteration<double>&);

}  // namespace fdsolve
