// TransferStream (transfer_stream.cuh).
#include "cuda_check.cuh"
#include "transfer_stream.cuh"

namespace fdsolve::cuda {

TransferStream::TransferStream() {
  int least = 0, greatest = 0;
  FDSOLVE_CUDA_CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
  FDSOLVE_CUDA_CHECK(cudaStreamCreateWithPriority(&stream_, cudaStreamNonBlocking, greatest));
  FDSOLVE_CUDA_CHECK(cudaEventCreateWithFlags(&sweeps_done_, cudaEventDisableTiming));
  FDSOLVE_CUDA_CHECK(cudaEventCreateWithFlags(&transfers_done_, cudaEventDisableTiming));
}

TransferStream::~TransferStream() {
  // A destructor must not throw; a sticky error surfaces at the next checked call.
  cudaStreamSynchronize(stream_);
  cudaEventDestroy(sweeps_done_);
  cudaEventDestroy(transfers_done_);
  cudaStreamDestroy(stream_);
}

void TransferStream::after(cudaStream_t sweeps) {
  FDSOLVE_CUDA_CHECK(cudaEventRecord(sweeps_done_, sweeps));
  FDSOLVE_CUDA_CHECK(cudaStreamWaitEvent(stream_, sweeps_done_, 0));
}

void TransferStream::before(cudaStream_t sweeps) {
  FDSOLVE_CUDA_CHECK(cudaEventRecord(transfers_done_, stream_));
  FDSOLVE_CUDA_CHECK(cudaStreamWaitEvent(sweeps, transfers_done_, 0));
}

void TransferStream::wait() { FDSOLVE_CUDA_CHECK(cudaStreamSynchronize(stream_)); }

}  // namespace fdsolve::cuda
