// The CUDA backend: a non-default stream for the sweeps and a high-priority one for halo
// transfers beside them (stream_transfers.cuh), the variant tables, and checked sweeps with fused
// stats reduced in a fixed order by the last block (their buffers in stats_slots.cu). The device
// queries and the copy yardstick are in cuda_device.cu, the recorded graphs in graph_replay.cu,
// the checked allocations in device_memory.cu, the variable-coefficient operator (sweeps with
// args.flux active, combine, dot) in flux.cu.
#include <algorithm>
#include <string>
#include <vector>

#include "cuda_check.cuh"
#include "cuda_device.cuh"
#include "device_memory.cuh"
#include "diagnostics.cuh"
#include "field_kernels.cuh"
#include "flux.cuh"
#include "graph_replay.cuh"
#include "halo_fill.cuh"
#include "node_difference.cuh"
#include "precision_convert.cuh"
#include "queue_clock.cuh"
#include "stats_slots.cuh"
#include "step_passes.hpp"
#include "sweep_launch.cuh"
#include "transfer.cuh"
#include "stream_transfers.cuh"
#include "variants.cuh"
#if FDSOLVE_HAVE_NCCL
#include "nccl_exchange.hpp"
#endif

namespace fdsolve {

namespace cuda {
namespace {

// Temporally blocked defaults (docs/performance.md, "Temporal blocking").
constexpr const char* kDefaultSteps2d = "tb128x64";
constexpr const char* kDefaultSteps3d = "tb3d16";

// Checked sweeps that may be pending at once (enqueue_sweep_with_stats): a rank's interior and
// its six rim slabs, with room to spare.
constexpr int kStatsSlots = 8;

template <typename T>
class CudaBackend final : public Backend<T>,
                         public FluxOperations<T>,
                         public MixedPrecision<T>,
                         public BottomLevelsCall<T> {
 public:
  explicit CudaBackend(int device) : device_(device) {
    FDSOLVE_CUDA_CHECK(cudaSetDevice(device));
    FDSOLVE_CUDA_CHECK(cudaGetDeviceProperties(&props_, device));
    FDSOLVE_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
    transfers_ = std::make_unique<StreamTransfers<T>>(stream_);
#if FDSOLVE_HAVE_NCCL
    exchange_ = make_nccl_exchange<T>(device, props_.uuid, transfers_->stream());
#endif
    stats_ = std::make_unique<StatsSlots>(kStatsSlots, stream_);  // one per pending sweep
    // Allocated here, not at first use: a flux sweep may be first enqueued inside record().
    flux_ = std::make_unique<FluxWorkspace>(props_.multiProcessorCount, kStatsSlots);
    add_sweep_variants<T>(table_);
    add_tblock2d_variants<T>(steps_[0]);
    add_march2d_variants<T>(steps_[0]);
    add_tblock3d_variants<T>(steps_[1]);
  }
  ~CudaBackend() override {
    cudaStreamSynchronize(stream_);  // a destructor must not throw
    exchange_.reset();  // its messages are on the transfer stream: ended before it
    transfers_.reset();
    cudaStreamDestroy(stream_);
  }

  std::string name() const override { return "cuda"; }
  BackendTraits traits() const override {
    BackendTraits t;
    t.launch_bound = true;
    t.fused_residual_restriction_2d = true;
    t.smoothing_pass_kernel[2] = "march2";  // two sweeps a pass by row marching (2D only)
    return t;
  }
  std::string device() const override { return describe_device(props_); }

  DeviceIdentity identity() const override { return {props_.name, driver_version_text()}; }

  Buffer<T> allocate(index_t n) override {
    return Buffer<T>(device_alloc<T>(static_cast<std::size_t>(n)), n, &free_device<T>);
  }
  void upload(Buffer<T>& dst, const T* src, index_t n) override {
    FDSOLVE_CUDA_CHECK(cudaMemcpyAsync(dst.data(), src, bytes(n), cudaMemcpyHostToDevice, stream_));
    FDSOLVE_CUDA_CHECK(cudaStreamSynchronize(stream_));
  }
  void download(T* dst, const Buffer<T>& src, index_t n) override {
    FDSOLVE_CUDA_CHECK(cudaMemcpyAsync(dst, src.data(), bytes(n), cudaMemcpyDeviceToHost, stream_));
    FDSOLVE_CUDA_CHECK(cudaStreamSynchronize(stream_));
  }
  std::size_t free_memory() const override {
    std::size_t free = 0, total = 0;
    FDSOLVE_CUDA_CHECK(cudaMemGetInfo(&free, &total));
    return free;
  }

  std::vector<std::string> kernels(int dims) const override {
    std::vector<std::string> names;
    for (const auto& v : table(dims)) names.emplace_back(v.name);
    return names;
  }
  std::string default_kernel(int dims) const override { return default_sweep_variant(dims); }

  // A variable-coefficient sweep (args.flux active) runs flux.cu's kernels whatever `kernel`
  // names; its statistics count the nodes that are not held.
  void sweep(const SweepArgs<T>& args, KernelId kernel) override {
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

  SweepStats sweep_with_stats(const SweepArgs<T>& args, KernelId kernel) override {
    if (args.box.empty()) return SweepStats{};
    enqueue_stats(args, kernel, 0);
    FDSOLVE_CUDA_CHECK(cudaStreamSynchronize(stream_));
    return args.flux.active() ? flux_->stats(0) : stats_of(stats_->host(0), args.box.cells());
  }

  void enqueue_sweep_with_stats(const SweepArgs<T>& args, KernelId kernel) override {
    const int slot = free_stats_slot();
    if (!args.box.empty()) enqueue_stats(args, kernel, slot);
    pending_.push_back({args.box.cells(), args.flux.active()});
  }
  SweepStats sweep_pair_with_stats(const SweepArgs<T>& args, KernelId kernel) override {
    if (args.box.empty()) return SweepStats{};
    enqueue_pair_stats(args, kernel, 0);
    FDSOLVE_CUDA_CHECK(cudaStreamSynchronize(stream_));
    return stats_of(stats_->host(0), args.box.cells());
  }
  void enqueue_sweep_pair_with_stats(const SweepArgs<T>& args, KernelId kernel) override {
    const int slot = free_stats_slot();
    if (!args.box.empty()) enqueue_pair_stats(args, kernel, slot);
    pending_.push_back({args.box.cells(), false});
  }
  bool pairs_with_stats(KernelId kernel) const override {
    return step_variant(kernel).launch_checked != nullptr;
  }
  std::vector<SweepStats> collect_stats() override {
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

  std::vector<std::string> step_kernels(int dims) const override {
    std::vector<std::string> names;
    for (const auto& v : steps_[dims == 2 ? 0 : 1]) names.emplace_back(v.name);
    return names;
  }
  std::string default_step_kernel(int dims) const override {
    return dims == 2 ? kDefaultSteps2d : kDefaultSteps3d;
  }

  /// Passes of at most max_steps sweeps each, alternating between the two buffers; an odd
  /// number of passes (one more when needed) ends in args.out.
  void sweep_steps(const SweepArgs<T>& args, int steps, KernelId kernel) override {
    if (args.flux.active())
      throw BackendError("the variable-coefficient sweep runs single sweeps only");
    if (args.box.empty() || steps <= 0) return;
    if (kernel.dims != args.layout.dims)
      throw BackendError("kernel id does not match a " + std::to_string(args.layout.dims) +
                         "D blocked CUDA kernel");
    const StepVariant<T>& v = step_variant(kernel);
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

  /// One pass where the variant has the corrected form (march2): the correction is added as
  /// the pass reads u.
  void correct_and_sweep_steps(const TransferArgs<T>& t, const SweepArgs<T>& args, int steps,
                               KernelId kernel) override {
    const StepVariant<T>* v = kernel.dims == 2 ? &step_variant(kernel) : nullptr;
    if (!v || !v->launch_corrected || steps < 1 || steps > v->max_steps || args.flux.active() ||
        args.writes_x_ghosts() || args.layout.dims != 2 || !t.ratio.halves(2) || t.to != args.in ||
        t.box.lo != args.box.lo || t.box.hi != args.box.hi)
      return Backend<T>::correct_and_sweep_steps(t, args, steps, kernel);
    if (args.box.empty()) return;
    v->launch_corrected(device_args(args), steps, CoarseCorrection<T>{t.from, strides_of(t.coarse)},
                        props_.multiProcessorCount, stream_);
  }

  void synchronize() override { FDSOLVE_CUDA_CHECK(cudaStreamSynchronize(stream_)); }

  TransferQueue<T>& transfers() override { return *transfers_; }

  void fill_halo(const HaloFillArgs<T>& args) override { launch_fill_halo(args, stream_); }
  void pack_box(const Buffer<T>& field, const Layout& layout, const Box& box,
                Buffer<T>& packed) override {
    cuda::pack_box(field.data(), layout, box, packed.data(), stream_);
  }
  void unpack_box(Buffer<T>& field, const Layout& layout, const Box& box,
                  const Buffer<T>& packed) override {
    cuda::unpack_box(field.data(), layout, box, packed.data(), stream_);
  }
  bool host_memory() const override { return false; }
  NonFiniteNode evaluate_field(const FieldProgram& program, const FieldEvalArgs& args,
                               Buffer<T>& out) override {
    if (!fields_) fields_ = std::make_unique<FieldKernels>(device_, props_);  // at first use
    return fields_->evaluate(program, args, out.data(), stream_);
  }
  void write_box(Buffer<T>& field, const Layout& layout, const Box& box, const T* values) override {
    cuda::write_box(field.data(), layout, box, values, stream_);
  }

  void restrict_to_coarse(const TransferArgs<T>& args) override { launch_restrict(args, stream_); }
  void prolong_add(const TransferArgs<T>& args) override { launch_prolong_add(args, stream_); }
  void prolong_cubic_add(const TransferArgs<T>& args) override {
    launch_prolong_cubic_add(args, stream_);
  }
  void bottom_solve(const BottomSolveArgs<T>& args) override { launch_bottom_solve(args, stream_); }
  FluxOperations<T>* flux_operations() override { return this; }
  MixedPrecision<T>* mixed_precision() override { return this; }
  BottomLevelsCall<T>* bottom_levels_call() override { return this; }
  DeviceExchange<T>* device_exchange() override { return exchange_.get(); }
  void bottom_levels(const BottomLevelsArgs<T>& args) override {
    launch_bottom_levels(args, stream_);
  }
  void restrict_residual(const ResidualRestrictArgs<T>& args) override {
    launch_restrict_residual(args, stream_);
  }
  void combine(const LinearCombinationArgs<T>& args) override { flux_->combine(args, stream_); }
  DotPartial dot_terms(const DotArgs<T>& args, int scale) override {
    return flux_->dot_terms(args, scale, stream_);
  }
  void transfer_axis(const AxisTransferArgs<T>& args) override {
    launch_transfer_axis(args, stream_);
  }
  void galerkin(const GalerkinArgs<T>& args) override { launch_galerkin(args, stream_); }
  void zero(Buffer<T>& field) override {
    FDSOLVE_CUDA_CHECK(cudaMemsetAsync(field.data(), 0, bytes(field.size()), stream_));
  }
  void copy(Buffer<T>& dst, const Buffer<T>& src) override {
    FDSOLVE_CUDA_CHECK(cudaMemcpyAsync(dst.data(), src.data(),
                                       bytes(std::min(dst.size(), src.size())),
                                       cudaMemcpyDeviceToDevice, stream_));
  }
  std::unique_ptr<Backend<float>> float_companion() const override {
    return std::make_unique<CudaBackend<float>>(device_);
  }
  void narrow_difference(const Buffer<T>& a, const Buffer<T>& b, const Layout& from, float* out,
                         const Layout& to, const Box& box) override {
    launch_narrow_difference(a.data(), b.data(), from, out, to, box, stream_);
  }
  void add_widened(Buffer<T>& u, const Layout& to, const float* e, const Layout& from,
                   const Box& box) override {
    launch_add_widened(u.data(), to, e, from, box, stream_);
  }

  Diagnostics diagnose(const T* prev, const T* cur, const Layout& layout,
                       const Box& updated) override {
    if (!diagnostics_)
      diagnostics_ = std::make_unique<DiagnosticsWorkspace>(props_.multiProcessorCount);
    return diagnostics_->diagnose(prev, cur, layout, updated, stream_);
  }
  NodeDifference shared_node_difference(const SharedNodesArgs<T>& args) override {
    return node_difference_.run(args, stream_);
  }

  std::unique_ptr<QueueClock> queue_clock() override { return make_queue_clock(stream_); }

  std::unique_ptr<Replay> record(std::function<void()> enqueue) override {
    return record_graph(stream_, enqueue);
  }

  double copy_bandwidth(std::size_t nbytes) override {
    char* a = device_alloc<char>(nbytes);
    Buffer<char> hold_a(a, 0, &free_device<char>);
    char* b = device_alloc<char>(nbytes);
    Buffer<char> hold_b(b, 0, &free_device<char>);
    return device_copy_bandwidth(a, b, nbytes, stream_);
  }

 private:
  static std::size_t bytes(index_t n) { return static_cast<std::size_t>(n) * sizeof(T); }

  template <typename U>
  U* device_alloc(std::size_t count) {
    return static_cast<U*>(device_malloc(count * sizeof(U)));
  }

  const std::vector<Variant<T>>& table(int dims) const { return table_[dims == 2 ? 0 : 1]; }

  const Variant<T>& variant(const SweepArgs<T>& args, KernelId kernel) const {
    const auto& t = table(args.layout.dims);
    if (kernel.dims != args.layout.dims || kernel.index < 0 ||
        kernel.index >= static_cast<int>(t.size()))
      throw BackendError("kernel id does not match a " + std::to_string(args.layout.dims) +
                         "D CUDA kernel");
    return t[kernel.index];
  }

  /// The x ghosts a sweep launched with `a` did not write: a fill of the swept rows after it.
  void fill_x_ghosts_after(const SweepArgs<T>& args, const DevArgs<T>& a) {
    if (args.writes_x_ghosts() && !a.xg.any) launch_fill_halo(x_ghost_fill(args), stream_);
  }

  /// The host stats slot of the next enqueued checked sweep (collect_stats frees them all).
  int free_stats_slot() const {
    const int slot = static_cast<int>(pending_.size());
    if (slot >= kStatsSlots)
      throw BackendError("more than " + std::to_string(kStatsSlots) +
                         " checked sweeps pending at once");
    return slot;
  }

  const StepVariant<T>& step_variant(KernelId kernel) const {
    const auto& t = steps_[kernel.dims == 2 ? 0 : 1];
    if (kernel.index < 0 || kernel.index >= static_cast<int>(t.size()))
      throw BackendError("kernel id does not match a blocked CUDA kernel");
    return t[kernel.index];
  }

  /// Enqueues a checked pair of sweeps (its first sweep's total in host stats slot `slot`).
  void enqueue_pair_stats(const SweepArgs<T>& args, KernelId kernel, int slot) {
    const StepVariant<T>& v = step_variant(kernel);
    if (kernel.dims != args.layout.dims || !v.launch_checked || args.flux.active() ||
        args.writes_x_ghosts())
      throw BackendError(std::string("the blocked CUDA kernel ") + v.name +
                         " has no checked pair for these arguments");
    const DevArgs<T> a = device_args(args);
    const int sms = props_.multiProcessorCount;
    stats_->finish(
        v.blocks(a, sms), slot, [&](StatsSink sink) { v.launch_checked(a, 2, sms, sink, stream_); },
        stream_);
  }

  /// Enqueues a checked sweep whose total lands in host stats slot `slot`.
  void enqueue_stats(const SweepArgs<T>& args, KernelId kernel, int slot) {
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

  int device_;
  cudaDeviceProp props_{};
  cudaStream_t stream_ = nullptr;
  std::unique_ptr<StreamTransfers<T>> transfers_;  // halo packing and copies beside the sweeps
  std::unique_ptr<DeviceExchange<T>> exchange_;    // NCCL where built in, else none
  struct PendingStats {
    index_t cells;  // nodes of the box
    bool flux;      // a variable-coefficient sweep: its total is in flux_'s slot
  };
  std::vector<PendingStats> pending_;  // each enqueued checked sweep, by slot
  std::unique_ptr<StatsSlots> stats_;  // where checked sweeps' totals land
  std::vector<Variant<T>> table_[2];
  std::vector<StepVariant<T>> steps_[2];
  std::unique_ptr<DiagnosticsWorkspace> diagnostics_;  // made by the first diagnose
  cuda::NodeDifferenceWorkspace node_difference_;      // shared_node_difference's row partials
  std::unique_ptr<FluxWorkspace> flux_;                // the variable-coefficient operator
  std::unique_ptr<FieldKernels> fields_;               // formulas compiled at run time
};

}  // namespace
}  // namespace cuda

template <typename T>
std::unique_ptr<Backend<T>> make_cuda_backend(int device) {
  const int count = cuda_device_count();
  if (count == 0) throw BackendError("CUDA backend unavailable: " + cuda_unavailable_reason());
  if (device < 0 || device >= count)
    throw BackendError("CUDA device " + std::to_string(device) + " does not exist (" +
                       std::to_string(count) + " found)");
  return std::make_unique<cuda::CudaBackend<T>>(device);
}

template std::unique_ptr<Backend<float>> make_cuda_backend<float>(int);
template std::unique_ptr<Backend<double>> make_cuda_backend<double>(int);

}  // namespace fdsolve
