// The CPU backend: aligned host memory and the OpenMP sweeps.
#include <omp.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <new>

#include "../backend.hpp"
#include "diagnostics_cpu.hpp"
#include "level_faces_cpu.hpp"
#include "stencil_cpu.hpp"
#include "thread_policy.hpp"

namespace fdsolve {

std::size_t host_available_memory() {
  std::ifstream meminfo("/proc/meminfo");
  std::string line;
  while (std::getline(meminfo, line))
    if (line.rfind("MemAvailable:", 0) == 0) return std::stoull(line.substr(13)) * 1024;
  const long pages = sysconf(_SC_AVPHYS_PAGES);
  const long page = sysconf(_SC_PAGESIZE);
  return pages > 0 && page > 0 ? static_cast<std::size_t>(pages) * page : 0;
}

namespace {

// Every CPU backend's buffers together (a float-cycles run holds two backends): the bytes live
// now and the most at once, which summary.json reports beside the estimate that `run` checks
// against the free memory. Each buffer keeps its size in a header ahead of its data.
constexpr std::size_t kHeader = 128;  // the data's alignment
std::atomic<std::size_t> g_live_bytes{0}, g_peak_bytes{0};

void count_allocation(std::size_t bytes) {
  const std::size_t live = g_live_bytes.fetch_add(bytes) + bytes;
  std::size_t peak = g_peak_bytes.load();
  while (live > peak && !g_peak_bytes.compare_exchange_weak(peak, live)) {
  }
}

template <typename T>
void free_host(T* p) {
  if (!p) return;
  char* base = reinterpret_cast<char*>(p) - kHeader;
  std::size_t bytes;
  std::memcpy(&bytes, base, sizeof bytes);
  g_live_bytes.fetch_sub(bytes);
  std::free(base);
}

/// Calls row(i0, i1, j, k) for every row of `box`, the rows shared among the threads.
template <typename Row>
void box_rows(const Box& box, const Row& row) {
  const index_t ny = box.hi[1] - box.lo[1];
  const index_t rows = ny * (box.hi[2] - box.lo[2]);
#pragma omp parallel for schedule(static) num_threads(cpu::team_size(box.cells()))
  for (index_t r = 0; r < rows; ++r)
    row(box.lo[0], box.hi[0], box.lo[1] + r % ny, box.lo[2] + r / ny);
}

/// The CPU's transfer queue: its operations are the backend's own, done before they return,
/// so the queue needs no ordering and no waits.
template <typename T>
class ImmediateTransfers final : public TransferQueue<T> {
 public:
  explicit ImmediateTransfers(Backend<T>& backend) : backend_(backend) {}
  void after_sweeps() override {}
  void fill_halo(const HaloFillArgs<T>& args) override { backend_.fill_halo(args); }
  void pack_box(const Buffer<T>& field, const Layout& layout, const Box& box,
                Buffer<T>& packed) override {
    backend_.pack_box(field, layout, box, packed);
  }
  void unpack_box(Buffer<T>& field, const Layout& layout, const Box& box,
                  const Buffer<T>& packed) override {
    backend_.unpack_box(field, layout, box, packed);
  }
  void download(T* host, const Buffer<T>& src, index_t n) override {
    backend_.download(host, src, n);
  }
  void upload(Buffer<T>& dst, const T* host, index_t n) override { backend_.upload(dst, host, n); }
  void wait() override {}
  void before_sweeps() override {}
  Buffer<T> allocate_staging(index_t n) override { return backend_.allocate(n); }

 private:
  Backend<T>& backend_;
};

template <typename T>
class CpuBackend final : public Backend<T>,
                         public FluxOperations<T>,
                         public MixedPrecision<T>,
                         public BottomLevelsCall<T> {
 public:
  std::string name() const override { return "cpu"; }
  std::string device() const override {
    const cpu::ThreadPolicy& p = cpu::thread_policy();
    return "CPU (OpenMP, up to " + std::to_string(p.threads) + " threads: " + p.source + ")";
  }

  Buffer<T> allocate(index_t n) override {
    const std::size_t bytes = (static_cast<std::size_t>(n) * sizeof(T) + 127) / 128 * 128;
    char* base = static_cast<char*>(std::aligned_alloc(kHeader, kHeader + bytes));
    if (!base)
      throw BackendError("out of host memory: " + std::to_string(bytes) + " bytes needed, " +
                         std::to_string(free_memory()) + " available");
    std::memcpy(base, &bytes, sizeof bytes);
    count_allocation(bytes);
    T* p = reinterpret_cast<T*>(base + kHeader);
    // First touch in parallel so that pages land near the threads that sweep them.
#pragma omp parallel for schedule(static) num_threads(cpu::team_size(n))
    for (index_t i = 0; i < n; ++i) p[i] = T(0);
    return Buffer<T>(p, n, &free_host<T>);
  }
  void upload(Buffer<T>& dst, const T* src, index_t n) override {
    std::memcpy(dst.data(), src, static_cast<std::size_t>(n) * sizeof(T));
  }
  void download(T* dst, const Buffer<T>& src, index_t n) override {
    std::memcpy(dst, src.data(), static_cast<std::size_t>(n) * sizeof(T));
  }
  std::size_t free_memory() const override { return host_available_memory(); }
  std::size_t peak_allocated() const override { return g_peak_bytes.load(); }

  std::vector<std::string> kernels(int) const override { return {"omp"}; }
  std::string default_kernel(int) const override { return "omp"; }

  void sweep(const SweepArgs<T>& args, KernelId) override {
    cpu::sweep(args, nullptr);
    if (args.writes_x_ghosts()) cpu::fill_halo(x_ghost_fill(args));
  }
  SweepStats sweep_with_stats(const SweepArgs<T>& args, KernelId) override {
    SweepStats n;
    cpu::sweep(args, &n);
    if (args.writes_x_ghosts()) cpu::fill_halo(x_ghost_fill(args));
    return n;
  }
  /// The first sweep with its statistics into args.out, the second from a copy of it (args.in
  /// stays as it was).
  SweepStats sweep_pair_with_stats(const SweepArgs<T>& args, KernelId) override {
    SweepStats n;
    cpu::sweep(args, &n);
    pair_copy_.assign(args.out, args.out + args.layout.size);
    SweepArgs<T> second = args;
    second.in = pair_copy_.data();
    if (args.second_weights) second.weights = *args.second_weights;
    cpu::sweep(second, nullptr);
    return n;
  }
  bool pairs_with_stats(KernelId) const override { return true; }
  bool steps_take_two_weights(KernelId) const override { return true; }
  std::vector<std::string> step_kernels(int) const override { return {"omp"}; }
  std::string default_step_kernel(int) const override { return "omp"; }
  /// Single sweeps ping-ponging args.in and args.out (the CPU gains nothing from blocking at
  /// the sizes it runs); an even count ends in args.in and copies the box over.
  void sweep_steps(const SweepArgs<T>& args, int steps, KernelId) override {
    SweepArgs<T> a = args;
    T* bufs[2] = {const_cast<T*>(args.in), args.out};
    if (args.second_weights && steps > 2)
      throw BackendError("a pass of two weights runs at most two sweeps");
    for (int s = 0; s < steps; ++s) {
      a.in = bufs[s % 2];
      a.out = bufs[(s + 1) % 2];
      if (s == 1 && args.second_weights) a.weights = *args.second_weights;
      cpu::sweep(a, nullptr);
    }
    if (steps % 2 != 0 || args.box.empty()) return;
    const Layout& L = args.layout;
    const Box& b = args.box;
    for (index_t k = b.lo[2]; k < b.hi[2]; ++k)
      for (index_t j = b.lo[1]; j < b.hi[1]; ++j)
        std::memcpy(args.out + L.at(b.lo[0], j, k), args.in + L.at(b.lo[0], j, k),
                    static_cast<std::size_t>(b.extent(0)) * sizeof(T));
  }
  void synchronize() override {}
  void fill_halo(const HaloFillArgs<T>& args) override { cpu::fill_halo(args); }
  void pack_box(const Buffer<T>& field, const Layout& layout, const Box& box,
                Buffer<T>& packed) override {
    cpu::pack_box(field.data(), layout, box, packed.data());
  }
  void unpack_box(Buffer<T>& field, const Layout& layout, const Box& box,
                  const Buffer<T>& packed) override {
    cpu::unpack_box(field.data(), layout, box, packed.data());
  }
  bool host_memory() const override { return true; }
  // MPI reads the buffers themselves: staging is never needed, but costs nothing to offer.
  TransferQueue<T>& transfers() override { return transfers_; }
  void write_box(Buffer<T>& field, const Layout& layout, const Box& box, const T* values) override {
    cpu::write_box(field.data(), layout, box, values);
  }

  NonFiniteNode evaluate_field(const FieldProgram& program, const FieldEvalArgs& args,
                               Buffer<T>& out) override {
    return evaluate_field_host(program, args, out.data());
  }

  void restrict_to_coarse(const TransferArgs<T>& args) override { cpu::restrict_to_coarse(args); }
  void prolong_add(const TransferArgs<T>& args) override { cpu::prolong_add(args); }
  void prolong_cubic_add(const TransferArgs<T>& args) override { cpu::prolong_cubic_add(args); }
  void bottom_solve(const BottomSolveArgs<T>& args) override { cpu::bottom_solve(args); }
  FluxOperations<T>* flux_operations() override { return this; }
  MixedPrecision<T>* mixed_precision() override { return this; }
  BottomLevelsCall<T>* bottom_levels_call() override { return this; }
  LevelFaceBuilder& level_faces() override { return *faces_; }
  void bottom_levels(const BottomLevelsArgs<T>& args) override { cpu::bottom_levels(args); }
  void restrict_residual(const ResidualRestrictArgs<T>& args) override {
    cpu::restrict_residual(args);
  }
  void combine(const LinearCombinationArgs<T>& args) override { cpu::combine(args); }
  DotPartial dot_terms(const DotArgs<T>& args, int scale) override {
    return cpu::dot_terms(args, scale);
  }
  void transfer_axis(const AxisTransferArgs<T>& args) override { cpu::transfer_axis(args); }
  void galerkin(const GalerkinArgs<T>& args) override { cpu::galerkin(args); }
  void galerkin_product(const GalerkinProductArgs<T>& args) override {
    cpu::galerkin_product(args);
  }
  void zero(Buffer<T>& field) override { cpu::fill_value(field.data(), field.size(), T(0)); }
  void copy(Buffer<T>& dst, const Buffer<T>& src) override {
    cpu::copy(dst.data(), src.data(), std::min(dst.size(), src.size()));
  }
  std::unique_ptr<Backend<float>> float_companion() const override {
    return make_cpu_backend<float>();
  }
  void narrow_difference(const Buffer<T>& a, const Buffer<T>& b, const Layout& from,
                         float* out, const Layout& to, const Box& box) override {
    const T* pa = a.data();
    const T* pb = b.data();
    box_rows(box, [&](index_t i0, index_t i1, index_t j, index_t k) {
      const index_t s = from.at(0, j, k), d = to.at(0, j, k);
      if (!pb) {
        for (index_t i = i0; i < i1; ++i) out[d + i] = static_cast<float>(pa[s + i]);
        return;
      }
      for (index_t i = i0; i < i1; ++i) out[d + i] = static_cast<float>(pa[s + i] - pb[s + i]);
    });
  }
  void add_widened(Buffer<T>& u, const Layout& to, const float* e, const Layout& from,
                   const Box& box) override {
    T* pu = u.data();
    box_rows(box, [&](index_t i0, index_t i1, index_t j, index_t k) {
      const index_t s = from.at(0, j, k), d = to.at(0, j, k);
      for (index_t i = i0; i < i1; ++i) pu[d + i] += static_cast<T>(e[s + i]);
    });
  }

  Diagnostics diagnose(const T* prev, const T* cur, const Layout& layout,
                       const Box& updated) override {
    return cpu::diagnose(prev, cur, layout, updated);
  }
  NodeDifference shared_node_difference(const SharedNodesArgs<T>& args) override {
    return cpu::shared_node_difference(args);
  }

  double copy_bandwidth(std::size_t bytes) override {
    const index_t n = static_cast<index_t>(bytes / sizeof(T));
    Buffer<T> a = allocate(n), b = allocate(n);
    cpu::copy(b.data(), a.data(), n);  // warm-up
    double best = 0;
    for (int rep = 0; rep < 5; ++rep) {
      const auto t0 = std::chrono::steady_clock::now();
      cpu::copy(b.data(), a.data(), n);
      const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      best = std::max(best, 2.0 * static_cast<double>(n) * sizeof(T) / s);
    }
    return best;
  }

 private:
  std::vector<T> pair_copy_;  // sweep_pair_with_stats's first sweep
  ImmediateTransfers<T> transfers_{*this};
  std::unique_ptr<LevelFaceBuilder> faces_ = cpu::make_host_level_faces();
};

}  // namespace

template <typename T>
std::unique_ptr<Backend<T>> make_cpu_backend() {
  return std::make_unique<CpuBackend<T>>();
}

template std::unique_ptr<Backend<float>> make_cpu_backend<float>();
template std::unique_ptr<Backend<double>> make_cpu_backend<double>();

}  // namespace fdsolve
