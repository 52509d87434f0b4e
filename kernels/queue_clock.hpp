// Clocks of a backend's queue (Backend::queue_clock): time enqueued work without waiting for it.
#pragma once

#include <chrono>
#include <cstddef>
#include <vector>

namespace fdsolve {

/// Points on a backend queue's timeline, to time enqueued work without waiting for it: the
/// seconds between two marks are those the queue spent between them. mark() returns a mark's
/// number; seconds() may wait for the later mark; reset() reuses the numbers.
class QueueClock {
 public:
  virtual ~QueueClock() = default;
  virtual std::size_t mark() = 0;
  virtual double seconds(std::size_t from, std::size_t to) = 0;
  virtual void reset() = 0;
};

/// The clock of a backend whose work is done when its call returns: the host's.
class HostQueueClock final : public QueueClock {
 public:
  std::size_t mark() override {
    marks_.push_back(std::chrono::steady_clock::now());
    return marks_.size() - 1;
  }
  double seconds(std::size_t from, std::size_t to) override {
    return std::chrono::duration<double>(marks_.at(to) - marks_.at(from)).count();
  }
  void reset() override { marks_.clear(); }

 private:
  std::vector<std::chrono::steady_clock::time_point> marks_;
};

}  // namespace fdsolve
