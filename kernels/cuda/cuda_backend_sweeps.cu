// CudaBackend's sweeps (see cuda_backend.cuh): the variant tables by name, single sweeps,
// checked sweeps and pairs with their stats slots (enqueued, then collected in slot order), and
// the temporally blocked passes.
#include "cuda_backend.cuh"

#include <string>
#include <vector>

#include "step_passes.hpp"

namespace fdsolve {
namespace cuda {

template <typename T>
std::vector<std::string> CudaBackend<T>::kernels(int dims) const {
  std::vector<std::string> names;
  for (const auto& v : table(dims)) names.emplace_back(v.name);
  return names;
}

template <typename T>
void CudaBackend<T>::sweep(const SweepArgs<T>& args, KernelId kernel) {
  if (args.box.empty()) return;
  if (args.flux.active()) {
    flux_->sweep(args, stream_);
    if (args.writes_x_ghosts()) launch_fill_halo(x_ghost_fill(args), stream_);
    return;
  }
  const Variant<T>& v = variant(args, kernel);
  const DevArgs<T> a = device_args(args, v, false);
  v.launch(a, v.grid(a, props_.multiProcessorCount, false), nullptr, stream_);
  fill_x_ghosts_after(args, a);
}

template <typename T>
SweepStats CudaBackend<T>::sweep_with_stats(const SweepArgs<T>& args, KernelId kernel) {
  if (args.box.empty()) return SweepStats{};
  enqueue_stats(args, kernel, 0);
  FDSOLVE_CUDA_CHECK(cudaStreamSynchronize(stream_));
  return args.flux.active() ? flux_->stats(0) : stats_of(stats_->host(0), args.box.cells());
}

template <typename T>
void CudaBackend<T>::enqueue_sweep_with_stats(const SweepArgs<T>& args, KernelId kernel) {
  const int slot = free_stats_slot();
  if (!args.box.empty()) enqueue_stats(args, kernel, slot);
  pending_.push_back({args.box.cells(), args.flux.active()});
}

template <typename T>
SweepStats CudaBackend<T>::sweep_pair_with_stats(const SweepArgs<T>& args, KernelId kernel) {
  if (args.box.empty()) return SweepStats{};
  enqueue_pair_stats(args, kernel, 0);
  FDSOLVE_CUDA_CHECK(cudaStreamSynchronize(stream_));
  return stats_of(stats_->host(0), args.box.cells());
}

template <typename T>
void CudaBackend<T>::enqueue_sweep_pair_with_stats(const SweepArgs<T>& args, KernelId kernel) {
  const int slot = free_stats_slot();
  if (!args.box.empty()) enqueue_pair_stats(args, kernel, slot);
  pending_.push_back({args.box.cells(), false});
}

template <typename T>
std::vector<SweepStats> CudaBackend<T>::collect_stats() {
  FDSOLVE_CUDA_CHECK(cudaStreamSynchronize(stream_));
  std::vector<SweepStats> all;
  for (std::size_t slot = 0; slot < pending_.size(); ++slot) {
    const PendingStats& p = pending_[slot];
    const int s = static_cast<int>(slot);
    all.push_back(p.cells == 0 ? SweepStats{}
                  : p.flux     ? flux_->stats(s)
                               : stats_of(stats_->host(s), p.cells));
  }
  pending_.clear();
  return all;
}

template <typename T>
std::vector<std::string> CudaBackend<T>::step_kernels(int dims) const {
  std::vector<std::string> names;
  for (const auto& v : steps_[dims == 2 ? 0 : 1]) names.emplace_back(v.name);
  return names;
}

template <typename T>
void CudaBackend<T>::sweep_steps(const SweepArgs<T>& args, int steps, KernelId kernel) {
  if (args.flux.active())
    throw BackendError("the variable-coefficient sweep runs single sweeps only");
  if (args.box.empty() || steps <= 0) return;
  if (kernel.dims != args.layout.dims)
    throw BackendError("kernel id does not match a " + std::to_string(args.layout.dims) +
                       "D blocked CUDA kernel");
  const StepVariant<T>& v = step_variant(kernel);
  require_two_weights(v, args, steps);
  DevArgs<T> a = device_args(args);
  const T* first = a.in;
  T* second = a.out;
  const std::vector<int> passes = step_passes(steps, v.max_steps);
  for (std::size_t p = 0; p < passes.size(); ++p) {
    a.in = p % 2 == 0 ? first : second;
    a.out = p % 2 == 0 ? second : const_cast<T*>(first);
    v.launch(a, passes[p], props_.multiProcessorCount, stream_);
  }
}

template <typename T>
void CudaBackend<T>::correct_and_sweep_steps(const TransferArgs<T>& t, const SweepArgs<T>& args,
                                             int steps, KernelId kernel) {
  const StepVariant<T>* v = kernel.dims == 2 ? &step_variant(kernel) : nullptr;
  if (!v || !v->launch_corrected || steps < 1 || steps > v->max_steps || args.flux.active() ||
      args.writes_x_ghosts() || args.layout.dims != 2 || !t.ratio.halves(2) || t.to != args.in ||
      t.box.lo != args.box.lo || t.box.hi != args.box.hi)
    return Backend<T>::correct_and_sweep_steps(t, args, steps, kernel);
  if (args.box.empty()) return;
  require_two_weights(*v, args, steps);
  v->launch_corrected(device_args(args), steps, CoarseCorrection<T>{t.from, strides_of(t.coarse)},
                      props_.multiProcessorCount, stream_);
}

template <typename T>
const Variant<T>& CudaBackend<T>::variant(const SweepArgs<T>& args, KernelId kernel) const {
  const auto& t = table(args.layout.dims);
  if (kernel.dims != args.layout.dims || kernel.index < 0 ||
      kernel.index >= static_cast<int>(t.size()))
    throw BackendError("kernel id does not match a " + std::to_string(args.layout.dims) +
                       "D CUDA kernel");
  return t[kernel.index];
}

template <typename T>
int CudaBackend<T>::free_stats_slot() const {
  const int slot = static_cast<int>(pending_.size());
  if (slot >= kStatsSlots)
    throw BackendError("more than " + std::to_string(kStatsSlots) +
                       " checked sweeps pending at once");
  return slot;
}

template <typename T>
void CudaBackend<T>::require_two_weights(const StepVariant<T>& v, const SweepArgs<T>& args,
                                         int steps) const {
  if (!args.second_weights) return;
  if (!v.two_weights)
    throw BackendError(std::string("the blocked CUDA kernel ") + v.name +
                       " runs every sweep of a pass with one set of weights");
  if (steps > 2) throw BackendError("a pass of two weights runs at most two sweeps");
}

template <typename T>
const StepVariant<T>& CudaBackend<T>::step_variant(KernelId kernel) const {
  const auto& t = steps_[kernel.dims == 2 ? 0 : 1];
  if (kernel.index < 0 || kernel.index >= static_cast<int>(t.size()))
    throw BackendError("kernel id does not match a blocked CUDA kernel");
  return t[kernel.index];
}

template <typename T>
void CudaBackend<T>::enqueue_pair_stats(const SweepArgs<T>& args, KernelId kernel, int slot) {
  const StepVariant<T>& v = step_variant(kernel);
  if (kernel.dims != args.layout.dims || !v.launch_checked || args.flux.active() ||
      args.writes_x_ghosts())
    throw BackendError(std::string("the blocked CUDA kernel ") + v.name +
                       " has no checked pair for these arguments");
  require_two_weights(v, args, 2);
  const DevArgs<T> a = device_args(args);
  const int sms = props_.multiProcessorCount;
  stats_->finish(
      v.blocks(a, sms), slot, [&](StatsSink sink) { v.launch_checked(a, 2, sms, sink, stream_); },
      stream_);
}

template <typename T>
void CudaBackend<T>::enqueue_stats(const SweepArgs<T>& args, KernelId kernel, int slot) {
  if (args.flux.active()) {
    flux_->sweep_with_stats(args, slot, stream_);
    if (args.writes_x_ghosts()) launch_fill_halo(x_ghost_fill(args), stream_);
    return;
  }
  const Variant<T>& v = variant(args, kernel);
  const DevArgs<T> a = device_args(args, v, true);
  const dim3 grid = v.grid(a, props_.multiProcessorCount, true);
  stats_->finish(
      static_cast<long long>(grid.x) * grid.y * grid.z, slot,
      [&](StatsSink sink) { v.launch(a, grid, sink, stream_); }, stream_);
  fill_x_ghosts_after(args, a);
}

template std::vector<std::string> CudaBackend<float>::kernels(int) const;
template void CudaBackend<float>::sweep(const SweepArgs<float>&, KernelId);
template SweepStats CudaBackend<float>::sweep_with_stats(const SweepArgs<float>&, KernelId);
template void CudaBackend<float>::enqueue_sweep_with_stats(const SweepArgs<float>&, KernelId);
template SweepStats CudaBackend<float>::sweep_pair_with_stats(const SweepArgs<float>&, KernelId);
template void CudaBackend<float>::enqueue_sweep_pair_with_stats(const SweepArgs<float>&, KernelId);
template std::vector<SweepStats> CudaBackend<float>::collect_stats();
template std::vector<std::string> CudaBackend<float>::step_kernels(int) const;
template void CudaBackend<float>::sweep_steps(const SweepArgs<float>&, int, KernelId);
template void CudaBackend<float>::require_two_weights(const StepVariant<float>&, const SweepArgs<float>&, int) const;
template void CudaBackend<float>::correct_and_sweep_steps(const TransferArgs<float>&,
                                                          const SweepArgs<float>&, int, KernelId);
template const Variant<float>& CudaBackend<float>::variant(const SweepArgs<float>&, KernelId) const;
template int CudaBackend<float>::free_stats_slot() const;
template const StepVariant<float>& CudaBackend<float>::step_variant(KernelId) const;
template void CudaBackend<float>::enqueue_pair_stats(const SweepArgs<float>&, KernelId, int);
template void CudaBackend<float>::enqueue_stats(const SweepArgs<float>&, KernelId, int);
template std::vector<std::string> CudaBackend<double>::kernels(int) const;
template void CudaBackend<double>::sweep(const SweepArgs<double>&, KernelId);
template SweepStats CudaBackend<double>::sweep_with_stats(const SweepArgs<double>&, KernelId);
template void CudaBackend<double>::enqueue_sweep_with_stats(const SweepArgs<double>&, KernelId);
template SweepStats CudaBackend<double>::sweep_pair_with_stats(const SweepArgs<double>&, KernelId);
template void CudaBackend<double>::enqueue_sweep_pair_with_stats(const SweepArgs<double>&,
                                                                 KernelId);
template std::vector<SweepStats> CudaBackend<double>::collect_stats();
template std::vector<std::string> CudaBackend<double>::step_kernels(int) const;
template void CudaBackend<double>::sweep_steps(const SweepArgs<double>&, int, KernelId);
template void CudaBackend<double>::require_two_weights(const StepVariant<double>&, const SweepArgs<double>&, int) const;
template void CudaBackend<double>::correct_and_sweep_steps(const TransferArgs<double>&,
                                                           const SweepArgs<double>&, int, KernelId);
template const Variant<double>& CudaBackend<double>::variant(const SweepArgs<double>&,
                                                             KernelId) const;
template int CudaBackend<double>::free_stats_slot() const;
template const StepVariant<double>& CudaBackend<double>::step_variant(KernelId) const;
template void CudaBackend<double>::enqueue_pair_stats(const SweepArgs<double>&, KernelId, int);
template void CudaBackend<double>::enqueue_stats(const SweepArgs<double>&, KernelId, int);

}  // namespace cuda
}  // namespace fdsolve
