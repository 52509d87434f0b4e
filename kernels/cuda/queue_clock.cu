// StreamClock (queue_clock.cuh): a pool of timing events, recorded in turn and reused after
// reset(), so that timing a long run creates no events once the first cycle has.
#include <vector>

#include "cuda_check.cuh"
#include "queue_clock.cuh"

namespace fdsolve::cuda {
namespace {

class StreamClock final : public QueueClock {
 public:
  explicit StreamClock(cudaStream_t stream) : stream_(stream) {}
  ~StreamClock() override {
    for (cudaEvent_t e : events_) cudaEventDestroy(e);  // no throw from a destructor
  }
  StreamClock(const StreamClock&) = delete;
  StreamClock& operator=(const StreamClock&) = delete;

  std::size_t mark() override {
    if (used_ == events_.size()) {
      cudaEvent_t e = nullptr;
      FDSOLVE_CUDA_CHECK(cudaEventCreate(&e));
      events_.push_back(e);
    }
    FDSOLVE_CUDA_CHECK(cudaEventRecord(events_[used_], stream_));
    return used_++;
  }
  double seconds(std::size_t from, std::size_t to) override {
    FDSOLVE_CUDA_CHECK(cudaEventSynchronize(events_.at(to)));
    float ms = 0;
    FDSOLVE_CUDA_CHECK(cudaEventElapsedTime(&ms, events_.at(from), events_.at(to)));
    return 1e-3 * ms;
  }
  void reset() override { used_ = 0; }

 private:
  cudaStream_t stream_;
  std::vector<cudaEvent_t> events_;
  std::size_t used_ = 0;
};

}  // namespace

std::unique_ptr<QueueClock> make_queue_clock(cudaStream_t stream) {
  return std::make_unique<StreamClock>(stream);
}

}  // namespace fdsolve::cuda
