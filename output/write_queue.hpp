// A background writer: one thread that runs file writes (snapshots, checkpoints) in the order
// they were handed over, while the loop goes on. The queue is bounded: handing over a write
// when `capacity` writes are pending waits for the oldest to finish (back-pressure, so a loop
// faster than the disk cannot fill the host's memory). The first write that fails stops the
// writer: later writes are dropped, and the error is thrown, once, to the loop's thread at its
// next hand-over or at drain().
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>

namespace fdsolve::output {

class WriteQueue {
 public:
  /// `capacity` writes pending at most (queued or being written); 0 runs every write at once
  /// on the caller's thread, as a synchronous writer would.
  explicit WriteQueue(std::size_t capacity);
  /// Finishes every queued write, then stops the thread. An error that was never thrown is
  /// logged here (the run is already ending through another error).
  ~WriteQueue();
  WriteQueue(const WriteQueue&) = delete;
  WriteQueue& operator=(const WriteQueue&) = delete;

  /// Queues `write`, waiting while the queue is full. Throws an earlier write's error instead
  /// of queueing. Returns the seconds spent waiting for room.
  double push(std::function<void()> write);
  /// Waits until every queued write has finished; throws the first error not yet thrown.
  /// Returns the seconds waited.
  double drain();

  bool synchronous() const { return capacity_ == 0; }
  std::size_t capacity() const { return capacity_; }

 private:
  void run();
  void rethrow_unreported();  // with mutex_ held

  const std::size_t capacity_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<std::function<void()>> pending_;
  bool busy_ = false;      // the thread is writing one (already taken off pending_)
  bool stopping_ = false;  // the destructor asks the thread to end once pending_ is empty
  std::exception_ptr error_;
  bool error_reported_ = false;
  std::thread thread_;  // last: started once everything above is ready
};

}  // namespace fdsolve::output
