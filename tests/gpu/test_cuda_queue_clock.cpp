// The CUDA backend's queue clock (events on its stream) against the host's clock around the
// same work waited for: marks taken without waiting time the work the stream ran between
// them, and marks reused after reset() time the next work, not the first.
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
  const double waited = host_seconds(*gpu, a, b, 40);
  REQUIRE(waited > 0.002);

  auto clock = gpu->queue_clock();
  for (int round = 0; round < 2; ++round) {
    CAPTURE(round);
    gpu->synchronize();
    const std::size_t before = clock->mark();
    copies(*gpu, a, b, 40);
    const std::size_t after = clock->mark();
    const std::size_t empty_from = clock->mark();
    const std::size_t empty_to = clock->mark();
    const double timed = clock->seconds(before, after);
    CHECK(timed > 0.7 * waited);
    CHECK(timed < 1.3 * waited);
    // Nothing between two marks: the stream's own gap, far below one copy.
    CHECK(clock->seconds(empty_from, empty_to) < 0.05 * waited);
    clock->reset();
  }
}

}  // namespace
}  // namespace fdsolve
