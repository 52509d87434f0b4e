// The CUDA backend: a non-default stream for the sweeps and a high-priority one for halo
// transfers beside them (stream_transfers.cuh), the variant tables, and checked sweeps with fused
// stats reduced in a fixed order by the last block (their buffers in stats_slots.cu). The class is
// declared here; its set-up and memory are defined in cuda_backend.cu, its sweeps (the variant
// tables, single, checked and blocked sweeps, the pending stats) in cuda_backend_sweeps.cu. The
// device queries and the copy yardstick are in cuda_device.cu, the recorded graphs in
// graph_replay.cu, the checked allocations in device_memory.cu, the variable-coefficient operator
// (sweeps with args.flux active, combine, dot) in flux.cu.
#pragma once

#include <functional>
#include <memory>
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
#include "level_faces.cuh"
#include "node_difference.cuh"
#include "precision_convert.cuh"
#include "queue_clock.cuh"
#include "stats_slots.cuh"
#include "sweep_launch.cuh"
#include "transfer.cuh"
#include "stream_transfers.cuh"
#include "variants.cuh"

namespace fdsolve {
namespace cuda {

template <typename T>
class CudaBackend final : public Backend<T>,
                         public FluxOperations<T>,
                         public MixedPrecision<T>,
                         public BottomLevelsCall<T> {
 public:
  explicit CudaBackend(int device);
  ~CudaBackend() override;

  std::string name() const override { return "cuda"; }
  BackendTraits traits() const override;
  std::string device() const override { return describe_device(props_); }

  DeviceIdentity identity() const override { return {props_.name, driver_version_text()}; }

  Buffer<T> allocate(index_t n) override {
    void* p = counted_device_malloc(static_cast<std::size_t>(n) * sizeof(T));
    return Buffer<T>(static_cast<T*>(p), n, &free_counted_device<T>);
  }
  std::size_t peak_allocated() const override { return counted_device_peak(); }
  void upload(Buffer<T>& dst, const T* src, index_t n) override;
  void download(T* dst, const Buffer<T>& src, index_t n) override;
  std::size_t free_memory() const override;

  std::vector<std::string> kernels(int dims) const override;
  std::string default_kernel(int dims) const override { return default_sweep_variant(dims); }

  // A variable-coefficient sweep (args.flux active) runs flux.cu's kernels whatever `kernel`
  // names; its statistics count the nodes that are not held.
  void sweep(const SweepArgs<T>& args, KernelId kernel) override;

  SweepStats sweep_with_stats(const SweepArgs<T>& args, KernelId kernel) override;

  void enqueue_sweep_with_stats(const SweepArgs<T>& args, KernelId kernel) override;
  SweepStats sweep_pair_with_stats(const SweepArgs<T>& args, KernelId kernel) override;
  void enqueue_sweep_pair_with_stats(const SweepArgs<T>& args, KernelId kernel) override;
  bool steps_take_two_weights(KernelId kernel) const override {
    return kernel.index >= 0 && step_variant(kernel).two_weights;
  }
  bool pairs_with_stats(KernelId kernel) const override {
    return step_variant(kernel).launch_checked != nullptr;
  }
  std::vector<SweepStats> collect_stats() override;

  std::vector<std::string> step_kernels(int dims) const override;
  std::string default_step_kernel(int dims) const override {
    return dims == 2 ? kDefaultSteps2d : kDefaultSteps3d;
  }

  /// Passes of at most max_steps sweeps each, alternating between the two buffers; an odd
  /// number of passes (one more when needed) ends in args.out.
  void sweep_steps(const SweepArgs<T>& args, int steps, KernelId kernel) override;

  /// One pass where the variant has the corrected form (march2): the correction is added as
  /// the pass reads u.
  void correct_and_sweep_steps(const TransferArgs<T>& t, const SweepArgs<T>& args, int steps,
                               KernelId kernel) override;

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
                               Buffer<T>& out) override;
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
  LevelFaceBuilder& level_faces() override { return *faces_; }
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
  void galerkin_product(const GalerkinProductArgs<T>& args) override {
    launch_galerkin_product(args, stream_);
  }
  void zero(Buffer<T>& field) override {
    FDSOLVE_CUDA_CHECK(cudaMemsetAsync(field.data(), 0, bytes(field.size()), stream_));
  }
  void copy(Buffer<T>& dst, const Buffer<T>& src) override;
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
                       const Box& updated) override;
  NodeDifference shared_node_difference(const SharedNodesArgs<T>& args) override {
    return node_difference_.run(args, stream_);
  }

  std::unique_ptr<QueueClock> queue_clock() override { return make_queue_clock(stream_); }

  std::unique_ptr<Replay> record(std::function<void()> enqueue) override {
    return record_graph(stream_, enqueue);
  }

  double copy_bandwidth(std::size_t nbytes) override;

 private:
  // Temporally blocked defaults (docs/performance.md, "Temporal blocking").
  static constexpr const char* kDefaultSteps2d = "tb128x64";
  static constexpr const char* kDefaultSteps3d = "tb3d16";

  // Checked sweeps that may be pending at once (enqueue_sweep_with_stats): a rank's interior and
  // its six rim slabs, with room to spare.
  static constexpr int kStatsSlots = 8;

  static std::size_t bytes(index_t n) { return static_cast<std::size_t>(n) * sizeof(T); }

  template <typename U>
  U* device_alloc(std::size_t count) {
    return static_cast<U*>(device_malloc(count * sizeof(U)));
  }

  const std::vector<Variant<T>>& table(int dims) const { return table_[dims == 2 ? 0 : 1]; }

  const Variant<T>& variant(const SweepArgs<T>& args, KernelId kernel) const;

  /// The x ghosts a sweep launched with `a` did not write: a fill of the swept rows after it.
  void fill_x_ghosts_after(const SweepArgs<T>& args, const DevArgs<T>& a) {
    if (args.writes_x_ghosts() && !a.xg.any) launch_fill_halo(x_ghost_fill(args), stream_);
  }

  /// The host stats slot of the next enqueued checked sweep (collect_stats frees them all).
  int free_stats_slot() const;

  const StepVariant<T>& step_variant(KernelId kernel) const;
  /// Throws where `args` gives a second sweep's weights that `v` cannot take in `steps` sweeps.
  void require_two_weights(const StepVariant<T>& v, const SweepArgs<T>& args, int steps) const;

  /// Enqueues a checked pair of sweeps (its first sweep's total in host stats slot `slot`).
  void enqueue_pair_stats(const SweepArgs<T>& args, KernelId kernel, int slot);

  /// Enqueues a checked sweep whose total lands in host stats slot `slot`.
  void enqueue_stats(const SweepArgs<T>& args, KernelId kernel, int slot);

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
  std::unique_ptr<LevelFaceBuilder> faces_;            // the flux operator's face build
};

extern template class CudaBackend<float>;
extern template class CudaBackend<double>;

}  // namespace cuda
}  // namespace fdsolve
