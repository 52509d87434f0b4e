// CudaBackend's set-up, memory and tear-down (see cuda_backend.cuh), and make_cuda_backend.
#include "cuda_backend.cuh"

#include <algorithm>
#include <string>

#if FDSOLVE_HAVE_NCCL
#include "nccl_exchange.hpp"
#endif

namespace fdsolve {

namespace cuda {

template <typename T>
CudaBackend<T>::CudaBackend(int device) : device_(device) {
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
  faces_ = make_device_level_faces(stream_);
  add_sweep_variants<T>(table_);
  add_tblock2d_variants<T>(steps_[0]);
  add_march2d_variants<T>(steps_[0]);
  add_tblock3d_variants<T>(steps_[1]);
}

template <typename T>
CudaBackend<T>::~CudaBackend() {
  cudaStreamSynchronize(stream_);  // a destructor must not throw
  exchange_.reset();               // its messages are on the transfer stream: ended before it
  transfers_.reset();
  cudaStreamDestroy(stream_);
}

template <typename T>
BackendTraits CudaBackend<T>::traits() const {
  BackendTraits t;
  t.launch_bound = true;
  t.fused_residual_restriction_2d = true;
  t.smoothing_pass_kernel[2] = "march2";  // two sweeps a pass by row marching (2D only)
  return t;
}

template <typename T>
void CudaBackend<T>::upload(Buffer<T>& dst, const T* src, index_t n) {
  FDSOLVE_CUDA_CHECK(cudaMemcpyAsync(dst.data(), src, bytes(n), cudaMemcpyHostToDevice, stream_));
  FDSOLVE_CUDA_CHECK(cudaStreamSynchronize(stream_));
}

template <typename T>
void CudaBackend<T>::download(T* dst, const Buffer<T>& src, index_t n) {
  FDSOLVE_CUDA_CHECK(cudaMemcpyAsync(dst, src.data(), bytes(n), cudaMemcpyDeviceToHost, stream_));
  FDSOLVE_CUDA_CHECK(cudaStreamSynchronize(stream_));
}

template <typename T>
std::size_t CudaBackend<T>::free_memory() const {
  std::size_t free = 0, total = 0;
  FDSOLVE_CUDA_CHECK(cudaMemGetInfo(&free, &total));
  return free;
}

template <typename T>
void CudaBackend<T>::copy(Buffer<T>& dst, const Buffer<T>& src) {
  FDSOLVE_CUDA_CHECK(cudaMemcpyAsync(dst.data(), src.data(),
                                     bytes(std::min(dst.size(), src.size())),
                                     cudaMemcpyDeviceToDevice, stream_));
}

template <typename T>
Diagnostics CudaBackend<T>::diagnose(const T* prev, const T* cur, const Layout& layout,
                                     const Box& updated) {
  if (!diagnostics_)
    diagnostics_ = std::make_unique<DiagnosticsWorkspace>(props_.multiProcessorCount);
  return diagnostics_->diagnose(prev, cur, layout, updated, stream_);
}

template <typename T>
double CudaBackend<T>::copy_bandwidth(std::size_t nbytes) {
  char* a = device_alloc<char>(nbytes);
  Buffer<char> hold_a(a, 0, &free_device<char>);
  char* b = device_alloc<char>(nbytes);
  Buffer<char> hold_b(b, 0, &free_device<char>);
  return device_copy_bandwidth(a, b, nbytes, stream_);
}

template <typename T>
NonFiniteNode CudaBackend<T>::evaluate_field(const FieldProgram& program, const FieldEvalArgs& args,
                                             Buffer<T>& out) {
  if (!fields_) fields_ = std::make_unique<FieldKernels>(device_, props_);  // at first use
  return fields_->evaluate(program, args, out.data(), stream_);
}

template class CudaBackend<float>;
template class CudaBackend<double>;

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
