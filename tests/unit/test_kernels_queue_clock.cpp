// The host's queue clock (the CPU backend's, whose work is done when its call returns) against
// the host's own steady clock around the same waits.
#include <doctest/doctest.h>

#include <chrono>
#include <thread>

#include "backend.hpp"

namespace fdsolve {
namespace {

TEST_CASE("the CPU backend's queue clock times the work between two marks") {
  auto cpu = make_cpu_backend<double>();
  auto clock = cpu->queue_clock();
  for (int round = 0; round < 2; ++round) {
    CAPTURE(round);
    const auto start = std::chrono::steady_clock::now();
    const std::size_t before = clock->mark();
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    const std::size_t after = clock->mark();
    const double outside =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const double timed = clock->seconds(before, after);
    CHECK(timed >= 0.020);
    CHECK(timed <= outside);
    CHECK(clock->seconds(before, before) == 0.0);
    clock->reset();  // the marks' numbers are reused: the next round's start again at 0
    CHECK(clock->mark() == 0);
    clock->reset();
  }
}

}  // namespace
}  // namespace fdsolve
