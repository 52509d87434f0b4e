// The background writer's queue: writes run in order on another thread, the queue never holds
// more than its capacity, the first error stops the writer and reaches the caller once.
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>
#include <vector>

#include "output_error.hpp"
#include "write_queue.hpp"

using fdsolve::output::OutputError;
using fdsolve::output::WriteQueue;

TEST_CASE("write queue: writes run in the order handed over, on another thread") {
  const std::thread::id caller = std::this_thread::get_id();
  std::vector<int> order;
  std::atomic<bool> elsewhere{true};
  {
    WriteQueue queue(3);
    for (int i = 0; i < 50; ++i) {
      queue.push([&, i] {
        if (std::this_thread::get_id() == caller) elsewhere = false;
        order.push_back(i);  // one writer thread: no lock needed
      });
    }
    queue.drain();
    REQUIRE(order.size() == 50);
  }
  CHECK(elsewhere);
  for (int i = 0; i < 50; ++i) CHECK(order[static_cast<std::size_t>(i)] == i);
}

TEST_CASE("write queue: capacity 0 writes on the caller's thread before push returns") {
  WriteQueue queue(0);
  bool written = false;
  std::thread::id where;
  queue.push([&] {
    written = true;
    where = std::this_thread::get_id();
  });
  CHECK(written);
  CHECK(where == std::this_thread::get_id());
}

TEST_CASE("write queue: a full queue makes the caller wait (no more than capacity pending)") {
  constexpr int kCapacity = 2;
  std::atomic<int> pending{0}, most{0};
  std::atomic<bool> release{false};
  WriteQueue queue(kCapacity);
  auto write = [&] {
    while (!release) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    --pending;
  };
  for (int i = 0; i < kCapacity; ++i) {
    ++pending;
    queue.push(write);
  }
  // The third hand-over must wait until a write finishes: release them after 50 ms.
  std::thread releaser([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    most = pending.load();
    release = true;
  });
  ++pending;
  const double waited = queue.push(write);
  releaser.join();
  CHECK(most == kCapacity + 1);  // counted before the third was queued
  CHECK(waited >= 0.04);
  queue.drain();
  CHECK(pending == 0);
}

TEST_CASE("write queue: the first error stops the writer and is thrown once") {
  WriteQueue queue(4);
  std::atomic<int> after{0};
  std::atomic<bool> go{false};
  queue.push([&] {
    while (!go) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    throw OutputError("out/s_00000010.h5: disk full");
  });
  queue.push([&] { ++after; });  // queued behind the failing write: never made
  go = true;
  CHECK_THROWS_WITH_AS(queue.drain(), "out/s_00000010.h5: disk full", OutputError);
  CHECK(after == 0);
  // Reported once: later calls neither throw it again nor write.
  CHECK_NOTHROW(queue.push([&] { ++after; }));
  CHECK_NOTHROW(queue.drain());
  CHECK(after == 0);
}

TEST_CASE("write queue: an error is thrown at the next hand-over") {
  WriteQueue queue(1);
  queue.push([] { throw OutputError("cannot fsync"); });
  // The failing write is done once drain() returns, or the next push finds its error.
  bool thrown = false;
  for (int i = 0; i < 100 && !thrown; ++i) {
    try {
      queue.push([] {});
    } catch (const OutputError& e) {
      thrown = std::string(e.what()) == "cannot fsync";
    }
  }
  CHECK(thrown);
}

TEST_CASE("write queue: destruction writes everything still queued") {
  std::atomic<int> written{0};
  {
    WriteQueue queue(8);
    for (int i = 0; i < 8; ++i)
      queue.push([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
        ++written;
      });
  }
  CHECK(written == 8);
}
