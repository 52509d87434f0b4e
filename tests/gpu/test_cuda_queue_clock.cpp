// The CUDA backend's queue clock (events on its stream) against the host's clock around the
// same work waited for: marks taken without waiting time the work the stream ran between
// them, and marks reused after reset() time the next work, not the first (each round resets).
#include <doctest/doctest.h>

#include <chrono>

#include "backend.hpp"

namespace fdsolve {
namespace {

/// Enqueues `copies` copies of `b` into `a`.
void copies(Backend<double>& gpu, Buffer<double>& a, const Buffer<double>& b, int copies) {
  for (int i = 0; i < copies; ++i) gpu.copy(a, b);
}

/// Host seconds of `copies` copies, waited for.
double host_seconds(Backend<double>& gpu, Buffer<double>& a, const Buffer<double>& b, int n) {
  gpu.synchronize();
  const auto start = std::chrono::steady_clock::now();
  copies(gpu, a, b, n);
  gpu.synchronize();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

TEST_CASE("the CUDA queue clock times enqueued work as the host clock times it waited for") {
  auto gpu = make_cuda_backend<double>(0);
  const index_t n = index_t{1} << 25;  // 256 MiB a field: a copy takes tens of microseconds
  Buffer<double> a = gpu->allocate(n), b = gpu->allocate(n);
  gpu->zero(b);
  host_seconds(*gpu, a, b, 4);  // warm up

  auto clock = gpu->queue_clock();
  for (int round = 0; round < 2; ++round) {
    CAPTURE(round);
    // Other processes on the host or the GPU (tests run in parallel) stretch either clock
    // now and then: a round passes when one of three tries agrees, each try timing the same
    // 40 copies on the queue clock and, right after, on the host's.
    double timed = 0, waited = 0, empty = 0;
    for (int attempt = 0; attempt < 3; ++attempt) {
      gpu->synchronize();
      const std::size_t before = clock->mark();
      copies(*gpu, a, b, 40);
      const std::size_t after = clock->mark();
      const std::size_t empty_from = clock->mark();
      const std::size_t empty_to = clock->mark();
      timed = clock->seconds(before, after);
      empty = clock->seconds(empty_from, empty_to);
      waited = host_seconds(*gpu, a, b, 40);
      clock->reset();
      if (timed > 0.7 * waited && timed < 1.3 * waited) break;
    }
    REQUIRE(waited > 0.002);
    CHECK(timed > 0.7 * waited);
    CHECK(timed < 1.3 * waited);
    // Nothing between two marks: the stream's own gap, far below one copy.
    CHECK(empty < 0.05 * waited);
  }
}

}  // namespace
}  // namespace fdsolve
