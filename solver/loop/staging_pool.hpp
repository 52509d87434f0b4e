// Host buffers that carry a field from the backend to the background writer: page-locked on
// the GPU (a download into a reused pinned buffer runs at the bus's speed; a fresh pageable one
// costs its first touch, as much as writing the file). A buffer goes back to the pool when the
// write that held it is done, so the pool holds as many buffers as writes were ever pending.
#pragma once

#include <memory>
#include <mutex>
#include <vector>

#include "backend.hpp"

namespace fdsolve {

template <typename T>
class StagingPool {
 public:
  StagingPool(Backend<T>& backend, index_t values) : backend_(backend), values_(values) {}
  StagingPool(const StagingPool&) = delete;
  StagingPool& operator=(const StagingPool&) = delete;

  /// A buffer of `values` values, from the pool or newly allocated (on the calling thread, the
  /// only one that allocates). Released from any thread; the pool must outlive it.
  std::shared_ptr<Buffer<T>> take() {
    std::unique_ptr<Buffer<T>> buffer;
    {
      std::lock_guard lock(mutex_);
      if (!free_.empty()) {
        buffer = std::move(free_.back());
        free_.pop_back();
      }
    }
    if (!buffer)
      buffer = std::make_unique<Buffer<T>>(backend_.transfers().allocate_staging(values_));
    return std::shared_ptr<Buffer<T>>(buffer.release(), [this](Buffer<T>* returned) {
      std::lock_guard lock(mutex_);
      free_.emplace_back(returned);
    });
  }

 private:
  Backend<T>& backend_;
  index_t values_;
  std::mutex mutex_;
  std::vector<std::unique_ptr<Buffer<T>>> free_;
};

}  // namespace fdsolve
