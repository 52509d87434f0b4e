// See write_queue.hpp.
#include "write_queue.hpp"

#include <spdlog/spdlog.h>

#include <chrono>

namespace fdsolve::output {
namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

std::string describe(const std::exception_ptr& error) {
  try {
    std::rethrow_exception(error);
  } catch (const std::exception& e) {
    return e.what();
  } catch (...) {
    return "unknown error";
  }
}

}  // namespace

WriteQueue::WriteQueue(std::size_t capacity) : capacity_(capacity) {
  if (capacity_ > 0) thread_ = std::thread([this] { run(); });
}

WriteQueue::~WriteQueue() {
  if (thread_.joinable()) {
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    changed_.notify_all();
    thread_.join();
  }
  if (error_ && !error_reported_) spdlog::error("{}", describe(error_));
}

void WriteQueue::rethrow_unreported() {
  if (error_ && !error_reported_) {
    error_reported_ = true;
    std::rethrow_exception(error_);
  }
}

double WriteQueue::push(std::function<void()> write) {
  const auto start = std::chrono::steady_clock::now();
  if (synchronous()) {
    write();
    return 0;
  }
  {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] {
      return error_ || pending_.size() + (busy_ ? 1 : 0) < capacity_;
    });
    rethrow_unreported();
    if (error_) return seconds_since(start);  // thrown before: the run is ending; drop it
    pending_.push_back(std::move(write));
  }
  changed_.notify_all();
  return seconds_since(start);
}

double WriteQueue::drain() {
  const auto start = std::chrono::steady_clock::now();
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [&] { return pending_.empty() && !busy_; });
  rethrow_unreported();
  return seconds_since(start);
}

void WriteQueue::run() {
  std::unique_lock lock(mutex_);
  for (;;) {
    changed_.wait(lock, [&] { return stopping_ || !pending_.empty(); });
    if (pending_.empty()) return;  // stopping, with everything written
    std::function<void()> write = std::move(pending_.front());
    pending_.pop_front();
    busy_ = true;
    lock.unlock();
    std::exception_ptr failed;
    try {
      write();
    } catch (...) {
      failed = std::current_exception();
    }
    write = nullptr;  // its buffers go back before the loop is told there is room
    lock.lock();
    busy_ = false;
    if (failed) {
      error_ = failed;
      pending_.clear();  // the writes after a failed one are not made
    }
    changed_.notify_all();
  }
}

}  // namespace fdsolve::output
