// See level_faces.cuh. Compiled with -fmad=false (kernels/cuda/CMakeLists.txt): the averaged
// faces' weighted sums round every product, as the host's loops do.
#include "cuda_check.cuh"
#include "device_memory.cuh"
#include "kept_copies.hpp"
#include "level_faces.cuh"

namespace fdsolve::cuda {
namespace {

constexpr int kThreads = 256;

unsigned blocks_for(index_t count) {
  const index_t b = (count + kThreads - 1) / kThreads;
  return static_cast<unsigned>(b < 65535 * 16 ? (b > 0 ? b : 1) : 65535 * 16);
}

template <typename Op>
__global__ void each_index(Op op, index_t count) {
  for (index_t q = static_cast<index_t>(blockIdx.x) * blockDim.x + threadIdx.x; q < count;
       q += static_cast<index_t>(gridDim.x) * blockDim.x)
    op(q);
}

template <typename T>
__global__ void mark_held_kernel(MarkHeld<T> op, index_t count, unsigned long long* marked) {
  unsigned long long mine = 0;
  for (index_t q = static_cast<index_t>(blockIdx.x) * blockDim.x + threadIdx.x; q < count;
       q += static_cast<index_t>(gridDim.x) * blockDim.x)
    mine += op(q) ? 1 : 0;
  if (mine) atomicAdd(marked, mine);  // an integer count: the same whatever the order
}

template <typename T>
__global__ void fill_kernel(T* out, index_t n, T value) {
  for (index_t q = static_cast<index_t>(blockIdx.x) * blockDim.x + threadIdx.x; q < n;
       q += static_cast<index_t>(gridDim.x) * blockDim.x)
    out[q] = value;
}

template <typename V>
void free_device_array(V* p) {
  cudaFree(p);
}

class DeviceLevelFaces final : public LevelFaceBuilder {
 public:
  explicit DeviceLevelFaces(cudaStream_t stream) : stream_(stream) {
    marked_ = static_cast<unsigned long long*>(
        pinned_malloc(sizeof(unsigned long long), "the held-node count"));
    device_marked_ = static_cast<unsigned long long*>(
        device_malloc(sizeof(unsigned long long), "the held-node count"));
  }
  ~DeviceLevelFaces() override {
    cudaFree(device_marked_);
    cudaFreeHost(marked_);
  }

  Buffer<double> dense(index_t n, const double* host) override {
    if (Buffer<double> copy = kept_.take(host, n); copy.size()) return copy;
    return array(n, host);
  }
  Buffer<std::uint8_t> marks(index_t n, const std::uint8_t* host) override {
    return array(n, host);
  }
  void run(const CoarseNodes& op) override { launch(op); }
  void run(const AveragedFaces& op) override { launch(op); }
  void run(const LayoutFaces<float>& op) override { launch(op); }
  void run(const LayoutFaces<double>& op) override { launch(op); }
  void run(const NodeTerms<float>& op) override { launch(op); }
  void run(const NodeTerms<double>& op) override { launch(op); }
  void run(const WriteHeld<float>& op) override { launch(op); }
  void run(const WriteHeld<double>& op) override { launch(op); }
  index_t run(const MarkHeld<float>& op) override { return mark(op); }
  index_t run(const MarkHeld<double>& op) override { return mark(op); }
  void fill(float* out, index_t n, float value) override { fill_values(out, n, value); }
  void fill(double* out, index_t n, double value) override { fill_values(out, n, value); }
  void run(const NonzeroMarks& op) override { launch(op); }
  void keep(const double* host, Buffer<double>&& device) override {
    kept_.keep(host, std::move(device));
  }
  std::size_t kept_bytes() const override { return kept_.bytes(); }
  void download(std::uint8_t* host, const Buffer<std::uint8_t>& marks, index_t n) override {
    if (n <= 0) return;
    FDSOLVE_CUDA_CHECK(cudaMemcpyAsync(host, marks.data(), static_cast<std::size_t>(n),
                                       cudaMemcpyDeviceToHost, stream_));
    FDSOLVE_CUDA_CHECK(cudaStreamSynchronize(stream_));
  }

 private:
  template <typename V>
  Buffer<V> array(index_t n, const V* host) {
    const std::size_t bytes = static_cast<std::size_t>(n) * sizeof(V);
    Buffer<V> b(static_cast<V*>(device_malloc(bytes, "the operator's set-up")), n,
                &free_device_array<V>);
    if (host && n > 0) {
      FDSOLVE_CUDA_CHECK(
          cudaMemcpyAsync(b.data(), host, bytes, cudaMemcpyHostToDevice, stream_));
      FDSOLVE_CUDA_CHECK(cudaStreamSynchronize(stream_));  // host may go once this returns
    }
    return b;
  }
  template <typename Op>
  void launch(const Op& op) {
    const index_t count = op.count();
    if (count == 0) return;
    each_index<<<blocks_for(count), kThreads, 0, stream_>>>(op, count);
    FDSOLVE_CUDA_CHECK_LAUNCH();
  }
  template <typename T>
  index_t mark(const MarkHeld<T>& op) {
    const index_t count = op.count();
    FDSOLVE_CUDA_CHECK(cudaMemsetAsync(device_marked_, 0, sizeof(*device_marked_), stream_));
    if (count > 0) {
      mark_held_kernel<<<blocks_for(count), kThreads, 0, stream_>>>(op, count, device_marked_);
      FDSOLVE_CUDA_CHECK_LAUNCH();
    }
    FDSOLVE_CUDA_CHECK(cudaMemcpyAsync(marked_, device_marked_, sizeof(*marked_),
                                       cudaMemcpyDeviceToHost, stream_));
    FDSOLVE_CUDA_CHECK(cudaStreamSynchronize(stream_));
    return static_cast<index_t>(*marked_);
  }
  template <typename T>
  void fill_values(T* out, index_t n, T value) {
    if (n == 0) return;
    fill_kernel<<<blocks_for(n), kThreads, 0, stream_>>>(out, n, value);
    FDSOLVE_CUDA_CHECK_LAUNCH();
  }

  cudaStream_t stream_;
  KeptCopies<double> kept_;
  unsigned long long* marked_ = nullptr;         // page-locked: the count read back
  unsigned long long* device_marked_ = nullptr;  // the kernel counts into it
};

}  // namespace

std::unique_ptr<LevelFaceBuilder> make_device_level_faces(cudaStream_t stream) {
  return std::make_unique<DeviceLevelFaces>(stream);
}

}  // namespace fdsolve::cuda
