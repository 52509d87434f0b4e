// Recording a stream's work as a CUDA graph (graph_replay.cuh).
#include "graph_replay.cuh"

namespace fdsolve::cuda {

std::unique_ptr<Replay> record_graph(cudaStream_t stream, const std::function<void()>& enqueue) {
  FDSOLVE_CUDA_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
  cudaGraph_t graph = nullptr;
  try {
    enqueue();
  } catch (...) {
    cudaStreamEndCapture(stream, &graph);  // leave the stream usable; the error goes on
    if (graph) cudaGraphDestroy(graph);
    cudaGetLastError();
    throw;
  }
  FDSOLVE_CUDA_CHECK(cudaStreamEndCapture(stream, &graph));
  cudaGraphExec_t exec = nullptr;
  const cudaError_t err = cudaGraphInstantiate(&exec, graph, 0);
  cudaGraphDestroy(graph);
  FDSOLVE_CUDA_CHECK(err);
  return std::make_unique<GraphReplay>(exec, stream);
}

}  // namespace fdsolve::cuda
