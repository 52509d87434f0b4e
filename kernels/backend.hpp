// The interface every compute backend implements: memory, kernel variants, sweeps. The solver
// talks only to this; the CPU (OpenMP) and CUDA implementations live in kernels/cpu and
// kernels/cuda, and a stub stands in for CUDA when it is not built.
#pragma once

#include <array>
#include <cstddef>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "backend_capabilities.hpp"
#include "backend_traits.hpp"
#include "bottom_cg.hpp"
#include "diagnostics.hpp"
#include "field_expression.hpp"
#include "flux_transfer.hpp"
#include "galerkin.hpp"
#include "halo_fill.hpp"
#include "node_difference.hpp"
#include "queue_clock.hpp"
#include "smoothing_pass.hpp"
#include "transfer_queue.hpp"
#include "stencil.hpp"
#include "transfer.hpp"

namespace fdsolve {

template <typename T>
struct BottomLevelsArgs;  // bottom_levels.hpp: only the backends and the cycles need it

/// A failure of the machine rather than of the input: device errors, out of memory.
/// The CLI maps it to exit code 1.
class BackendError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Owning handle to `n` values of T in a backend's memory (host for the CPU, device for CUDA).
template <typename T>
class Buffer {
 public:
  using Deleter = void (*)(T*);
  Buffer() = default;
  Buffer(T* data, index_t n, Deleter deleter) : data_(data), size_(n), deleter_(deleter) {}
  Buffer(Buffer&& o) noexcept { swap(o); }
  Buffer& operator=(Buffer&& o) noexcept {
    Buffer tmp(std::move(o));
    swap(tmp);
    return *this;
  }
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  ~Buffer() {
    if (data_ && deleter_) deleter_(data_);
  }

  T* data() { return data_; }
  const T* data() const { return data_; }
  index_t size() const { return size_; }
  void swap(Buffer& o) noexcept {
    std::swap(data_, o.data_);
    std::swap(size_, o.size_);
    std::swap(deleter_, o.deleter_);
  }

 private:
  T* data_ = nullptr;
  index_t size_ = 0;
  Deleter deleter_ = nullptr;
};

/// Backend work recorded once and run many times (record() below).
class Replay {
 public:
  virtual ~Replay() = default;
  /// Enqueues the recorded work again.
  virtual void run() = 0;
};

/// A Replay that calls its function again: what a backend without graphs records.
class CallAgain final : public Replay {
 public:
  explicit CallAgain(std::function<void()> enqueue) : enqueue_(std::move(enqueue)) {}
  void run() override { enqueue_(); }

 private:
  std::function<void()> enqueue_;
};

/// What a kernel choice is keyed by (solver/tuning/kernel_choice): the device's model as the driver
/// names it ("NVIDIA H100 80GB HBM3") and the driver's version, since a new driver or another
/// GPU can change which variant is fastest.
struct DeviceIdentity {
  std::string model;
  std::string driver;  // empty where it does not apply (the CPU)
};

template <typename T>
class Backend {
 public:
  virtual ~Backend() = default;

  /// The backend's costs (BackendTraits); the default: a host backend without fused passes.
  virtual BackendTraits traits() const { return BackendTraits(); }

  virtual std::string name() const = 0;    // "cpu" or "cuda"
  virtual std::string device() const = 0;  // the hardware, for logs and summary.json
  /// The model and driver the kernel choice is keyed by.
  virtual DeviceIdentity identity() const { return {name(), ""}; }

  virtual Buffer<T> allocate(index_t n) = 0;
  virtual void upload(Buffer<T>& dst, const T* src, index_t n) = 0;
  virtual void download(T* dst, const Buffer<T>& src, index_t n) = 0;
  /// Bytes the backend can still allocate (checked before a run allocates its fields).
  virtual std::size_t free_memory() const = 0;
  /// The most bytes the process's buffers of this kind of backend have held at once so far,
  /// or 0 where the backend does not count them.
  virtual std::size_t peak_allocated() const { return 0; }

  /// Names of the kernel variants for 2 or 3 dimensions, in bench order.
  virtual std::vector<std::string> kernels(int dims) const = 0;
  /// The variant used when the case file names none (the measured best).
  virtual std::string default_kernel(int dims) const = 0;
  /// Resolves a variant name; throws std::invalid_argument listing the valid names.
  KernelId find_kernel(int dims, const std::string& name) const {
    const auto names = kernels(dims);
    for (std::size_t i = 0; i < names.size(); ++i)
      if (names[i] == name) return KernelId{dims, static_cast<int>(i)};
    std::string list;
    for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
    throw std::invalid_argument("unknown " + std::to_string(dims) + "D kernel '" + name +
                                "' for backend " + this->name() + " (expected " + list + ")");
  }

  /// Enqueues one sweep with no norm; may return before it finishes.
  virtual void sweep(const SweepArgs<T>& args, KernelId kernel) = 0;
  /// One sweep that also reduces the statistics of the update (norms, range, sum); returns
  /// when they are known.
  /// Deterministic: the same inputs give bit-identical results.
  virtual SweepStats sweep_with_stats(const SweepArgs<T>& args, KernelId kernel) = 0;
  /// Temporal blocking: the variants that advance several sweeps per pass over memory, for
  /// 2 or 3 dimensions, in bench order (the CPU's "omp" runs single sweeps).
  virtual std::vector<std::string> step_kernels(int dims) const = 0;
  /// The blocked variant used when the case names none.
  virtual std::string default_step_kernel(int dims) const = 0;
  /// Resolves a blocked variant name (as find_kernel does for single sweeps).
  KernelId find_step_kernel(int dims, const std::string& name) const {
    const auto names = step_kernels(dims);
    for (std::size_t i = 0; i < names.size(); ++i)
      if (names[i] == name) return KernelId{dims, static_cast<int>(i)};
    std::string list;
    for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
    throw std::invalid_argument("unknown " + std::to_string(dims) + "D blocked kernel '" + name +
                                "' for backend " + this->name() + " (expected " + list + ")");
  }
  /// One smoothing pass (smoothing_pass.hpp): its sweeps, the coarse correction before them
  /// and the first sweep's statistics, fused as this backend can (the blocked and fused
  /// variants below). Returns the statistics when pass.stats is Now (else empty).
  SweepStats smooth(const SmoothingPass<T>& pass);
  /// Waits for all enqueued work and reports any asynchronous error.
  virtual void synchronize() = 0;

  /// Enqueues filling the halo beyond the faces with a ghost rule (Neumann mirrors, periodic
  /// wrap-around), ordered before later sweeps.
  virtual void fill_halo(const HaloFillArgs<T>& args) = 0;
  /// Copies `values` (dense, C order, x fastest) onto the nodes of `box` of `field`: how
  /// time-dependent Dirichlet values reach the boundary nodes. Returns when `values` may be
  /// reused.
  virtual void write_box(Buffer<T>& field, const Layout& layout, const Box& box,
                         const T* values) = 0;

  /// Writes scale * f (a formula, field_expression.hpp) onto the nodes of args.box of `out`,
  /// in this backend's memory: CUDA compiles the formula at run time and evaluates it on the
  /// device. Returns the first non-finite node, found in the same pass.
  virtual NonFiniteNode evaluate_field(const FieldProgram& program, const FieldEvalArgs& args,
                                       Buffer<T>& out) = 0;

  /// Multigrid's grid transfers (transfer.hpp), enqueued and ordered before later work:
  /// full-weighting restriction onto the coarse nodes of args.box, and the interpolated
  /// correction added to the fine nodes of args.box.
  virtual void restrict_to_coarse(const TransferArgs<T>& args) = 0;
  virtual void prolong_add(const TransferArgs<T>& args) = 0;
  /// The same with cubic interpolation (full multigrid's ascent; args.rules fold the coarse
  /// field beyond its faces, transfer.hpp).
  virtual void prolong_cubic_add(const TransferArgs<T>& args) = 0;
  /// The residual computed and restricted in one pass (transfer.hpp): what a residual sweep,
  /// a halo fill of the residual and restrict_to_coarse compute, without the residual field.
  virtual void restrict_residual(const ResidualRestrictArgs<T>& args) = 0;
  /// Multigrid's bottom solve (bottom_cg.hpp): conjugate gradients on a coarsest grid of a few
  /// thousand nodes at most, enqueued and ordered before later work (CUDA: one thread block).
  virtual void bottom_solve(const BottomSolveArgs<T>& args) = 0;
  /// The optional capabilities (backend_capabilities.hpp): null where the backend lacks one.
  /// The flux form's vector operations and transfers (conjugate gradients and multigrid on
  /// the variable-coefficient operator).
  virtual FluxOperations<T>* flux_operations() { return nullptr; }
  /// Float cycles inside a double defect correction.
  virtual MixedPrecision<T>* mixed_precision() { return nullptr; }
  /// Multigrid's coarsest levels in one call; without it the cycle stays level by level.
  virtual BottomLevelsCall<T>* bottom_levels_call() { return nullptr; }
  /// Halo messages between the ranks' devices without the host (CUDA with NCCL built in).
  virtual DeviceExchange<T>* device_exchange() { return nullptr; }
  /// The flux operator's face build in this backend's memory (every backend has one).
  virtual LevelFaceBuilder& level_faces() = 0;
  /// Enqueues setting every element of `field` (halo included) to zero.
  virtual void zero(Buffer<T>& field) = 0;
  /// Enqueues copying all of `src` into `dst` (same size).
  virtual void copy(Buffer<T>& dst, const Buffer<T>& src) = 0;

  /// MPI halo exchange (solver/parallel): packing faces into dense buffers and back.
  /// Copies the nodes of `box` of `field` (halo nodes allowed) into `packed`, dense in C
  /// order (x fastest); both in backend memory. Returns when `packed` is complete, so that it
  /// may go to MPI (or be downloaded) at once: the halo exchange's send side.
  virtual void pack_box(const Buffer<T>& field, const Layout& layout, const Box& box,
                        Buffer<T>& packed) = 0;
  /// The receive side: dense `packed` onto the nodes of `box` of `field`, ordered before later
  /// sweeps.
  virtual void unpack_box(Buffer<T>& field, const Layout& layout, const Box& box,
                          const Buffer<T>& packed) = 0;
  /// Whether this backend's buffers are host memory (MPI reads them directly); device memory
  /// goes to MPI directly only when the library is CUDA-aware, else through host copies.
  virtual bool host_memory() const = 0;

  /// The transfer queue (transfer_queue.hpp): halo traffic and host staging beside the sweeps.
  virtual TransferQueue<T>& transfers() = 0;

  /// The statistics of every pass queued with PassStats::Queued since the last collect, in
  /// enqueue order (the caller merges them in that fixed order); waits for them.
  virtual std::vector<SweepStats> collect_stats() { return std::exchange(pending_stats_, {}); }
  /// Whether blocked variant `step_kernel` counts the first sweep's update of a two-sweep
  /// pass as it goes (the probe's pair: what the cycle plan asks before pairing the probe with
  /// the pre-smoothing).
  virtual bool pairs_with_stats(KernelId step_kernel) const = 0;
  /// Whether `step_kernel` runs a two-sweep pass with SweepArgs::second_weights (each sweep its
  /// own weights: Chebyshev smoothing steps).
  virtual bool steps_take_two_weights(KernelId /*step_kernel*/) const { return false; }

  /// The diagnostics of a check (diagnostics.hpp): `prev` is u before the sweep and `cur` u
  /// after it, both of `layout` in this backend's memory; `updated` is the box the sweep
  /// updated (inside the owned nodes). Only the small results reach the host; returns when
  /// they are known. Deterministic: the same inputs give bit-identical results.
  virtual Diagnostics diagnose(const T* prev, const T* cur, const Layout& layout,
                               const Box& updated) = 0;

  /// Richardson's comparison (node_difference.hpp): the differences at the nodes a field shares
  /// with the solution on the grid through its every other node, both in this backend's
  /// memory; returns when known. Deterministic.
  virtual NodeDifference shared_node_difference(const SharedNodesArgs<T>& args) = 0;

  /// Records the work `enqueue` submits without running it; each run() of the result enqueues
  /// it again. CUDA captures it into a graph, so a cycle of a hundred small launches costs one
  /// launch: `enqueue` must then not synchronise, and what it does on the host (swapping
  /// buffers, reading arguments) happens once, at recording, and must leave the buffers as it
  /// found them. The default calls `enqueue` at every run().
  virtual std::unique_ptr<Replay> record(std::function<void()> enqueue) {
    return std::make_unique<CallAgain>(std::move(enqueue));
  }

  /// A clock of this backend's queue (QueueClock): events on a GPU's stream.
  virtual std::unique_ptr<QueueClock> queue_clock() { return std::make_unique<HostQueueClock>(); }

  /// Copy bandwidth in bytes (read + written) per second over arrays of `bytes` bytes:
  /// the yardstick of `fdsolve bench`.
  virtual double copy_bandwidth(std::size_t bytes) = 0;

 protected:
  // The pieces smooth() puts together; a backend fuses by overriding them.

  /// Enqueues `steps` (>= 1) Jacobi sweeps of args.box starting from args.in; the result lands
  /// in args.out, bit-identical to `steps` single sweeps ping-ponging two buffers that hold the
  /// same values outside the box (what the solver keeps). Every sweep reads the nodes outside
  /// the box, the halo included, from args.in: the halo must not change between the sweeps
  /// (all-Dirichlet faces, or faces whose ghosts are constant), so the solver uses it only then.
  /// args.in's box nodes are scratch: their values afterwards are unspecified.
  virtual void sweep_steps(const SweepArgs<T>& args, int steps, KernelId kernel) = 0;
  /// Multigrid's coarse correction and post-smoothing: prolong_add(correction) onto args.in
  /// (correction.to == args.in, correction.box == args.box, nested halving), then
  /// sweep_steps(args, steps, step_kernel); args.in's box is scratch afterwards. CUDA's
  /// two-sweep marching kernel adds the correction as it reads u, one pass over the level
  /// fewer; elsewhere the two operations run in turn (this default).
  virtual void correct_and_sweep_steps(const TransferArgs<T>& correction, const SweepArgs<T>& args,
                                       int steps, KernelId step_kernel) {
    prolong_add(correction);
    sweep_steps(args, steps, step_kernel);
  }
  /// A checked sweep enqueued (a piece of a rank's box): its statistics come back with
  /// collect_stats(). The default sweeps now and keeps the result.
  virtual void enqueue_sweep_with_stats(const SweepArgs<T>& args, KernelId kernel) {
    pending_stats_.push_back(sweep_with_stats(args, kernel));
  }
  /// Multigrid's probe fused into its pre-smoothing: two sweeps from args.in into args.out, the
  /// numbers sweep_steps(args, 2, step_kernel) gives, args.in left unchanged, with the
  /// statistics of the first sweep's update (what sweep_with_stats reports for it, up to the
  /// order of the sums). Returns when they are known. Only where pairs_with_stats(step_kernel).
  virtual SweepStats sweep_pair_with_stats(const SweepArgs<T>& args, KernelId step_kernel) = 0;
  /// The same enqueued: its statistics come back with collect_stats(), in enqueue order.
  virtual void enqueue_sweep_pair_with_stats(const SweepArgs<T>& args, KernelId step_kernel) {
    pending_stats_.push_back(sweep_pair_with_stats(args, step_kernel));
  }

 private:
  std::vector<SweepStats> pending_stats_;  // the default enqueued passes' results
};

template <typename T>
SweepStats Backend<T>::smooth(const SmoothingPass<T>& p) {
  const SweepArgs<T>& a = p.sweep;
  if (p.stats != PassStats::None) {
    const bool queued = p.stats == PassStats::Queued;
    if (p.blocked && p.steps == 2 && !p.correction && pairs_with_stats(p.kernel)) {
      if (!queued) return sweep_pair_with_stats(a, p.kernel);
      enqueue_sweep_pair_with_stats(a, p.kernel);
      return {};
    }
    if (!p.blocked && p.steps == 1 && !p.correction) {
      if (!queued) return sweep_with_stats(a, p.kernel);
      enqueue_sweep_with_stats(a, p.kernel);
      return {};
    }
    throw BackendError("a smoothing pass reports statistics for one sweep, or for the first of "
                       "a pair of a blocked variant that counts them");
  }
  if (p.correction) {
    if (!p.blocked) throw BackendError("a corrected smoothing pass needs a blocked variant");
    correct_and_sweep_steps(*p.correction, a, p.steps, p.kernel);
  } else if (p.blocked) {
    sweep_steps(a, p.steps, p.kernel);
  } else {
    if (p.steps != 1) throw BackendError("several sweeps in one pass need a blocked variant");
    sweep(a, p.kernel);
  }
  return {};
}

/// Host memory the kernel can give without swapping (MemAvailable, which counts reclaimable page
/// cache; else the free pages): the CPU backend's free_memory().
std::size_t host_available_memory();

/// The CPU backend (OpenMP).
template <typename T>
std::unique_ptr<Backend<T>> make_cpu_backend();

/// Number of usable CUDA devices; 0 when CUDA is not built or no driver/device is present.
int cuda_device_count();
/// Why no CUDA device is usable (empty when one is).
std::string cuda_unavailable_reason();
/// What choosing a sweep kernel needs of a backend: its name, device and variants (2D, 3D).
struct KernelCatalog {
  std::string backend;
  DeviceIdentity device;
  std::array<std::vector<std::string>, 2> kernels;
  std::array<std::string, 2> defaults;
};
/// The catalog of a backend that exists.
template <typename T>
KernelCatalog kernel_catalog(const Backend<T>& backend) {
  return {backend.name(), backend.identity(), {backend.kernels(2), backend.kernels(3)},
          {backend.default_kernel(2), backend.default_kernel(3)}};
}
/// The CUDA backend's catalog for `device` without creating the backend: no CUDA context,
/// which costs `fdsolve check` 0.13 s. Throws BackendError when CUDA is unavailable.
template <typename T>
KernelCatalog cuda_kernel_catalog(int device);

/// Starts compiling the formulas of `programs` for device `device` on background threads, so
/// that compiling (NVRTC: about 0.2 s for a first formula) overlaps the CUDA context's
/// creation; the CUDA backend then takes the compiled code instead of compiling again. Numbers
/// and formulas without a GPU translation are left alone; without CUDA it does nothing.
void compile_formulas_ahead(const std::vector<FieldProgram>& programs, int device);
/// The same for compute capability `arch` (major x 10 + minor) without asking the driver,
/// which starts CUDA (about 0.1 s): compile_formulas_ahead for a device of that architecture
/// then finds the compiles under way.
void compile_formulas_for_arch(const std::vector<FieldProgram>& programs, int arch);
/// The CUDA backend on device `device`; throws BackendError when CUDA is unavailable.
template <typename T>
std::unique_ptr<Backend<T>> make_cuda_backend(int device = 0);

/// The backend's flux operations, or a BackendError naming what is missing (at set-up).
template <typename T>
FluxOperations<T>& require_flux_operations(Backend<T>& backend) {
  if (FluxOperations<T>* f = backend.flux_operations()) return *f;
  throw BackendError("backend " + backend.name() +
                     " has no variable-coefficient operator (conjugate gradients and multigrid "
                     "on a coefficient field or held nodes)");
}

/// The backend's mixed precision, or a BackendError naming what is missing (at set-up).
template <typename T>
MixedPrecision<T>& require_mixed_precision(Backend<T>& backend) {
  if (MixedPrecision<T>* m = backend.mixed_precision()) return *m;
  throw BackendError("backend " + backend.name() +
                     " has no float companion (solve.multigrid.precision: float)");
}

}  // namespace fdsolve
