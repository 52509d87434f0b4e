// A recorded sequence of device work (Backend::record) replayed as one CUDA graph launch.
#pragma once

#include <cuda_runtime.h>

#include <functional>
#include <memory>

#include "backend.hpp"
#include "cuda_check.cuh"

namespace fdsolve::cuda {

/// A captured CUDA graph, launched on the backend's stream.
class GraphReplay final : public Replay {
 public:
  GraphReplay(cudaGraphExec_t exec, cudaStream_t stream) : exec_(exec), stream_(stream) {}
  ~GraphReplay() override { cudaGraphExecDestroy(exec_); }
  GraphReplay(const GraphReplay&) = delete;
  GraphReplay& operator=(const GraphReplay&) = delete;
  void run() override { FDSOLVE_CUDA_CHECK(cudaGraphLaunch(exec_, stream_)); }

 private:
  cudaGraphExec_t exec_;
  cudaStream_t stream_;
};

/// Captures what `enqueue` puts on `stream` (thread-local capture mode) as one graph, ready to
/// replay on that stream. If `enqueue` throws, the capture is ended, the stream left usable and
/// the error rethrown.
std::unique_ptr<Replay> record_graph(cudaStream_t stream, const std::function<void()>& enqueue);

}  // namespace fdsolve::cuda
