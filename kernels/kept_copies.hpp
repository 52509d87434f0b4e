// Device copies of host arrays that the set-up evaluated on the device and brought back for
// the host's own use (checks, output): a later upload of the same host array takes the copy
// instead of sending the array over again (LevelFaceBuilder::keep). Each copy is taken once;
// the host array is recognised by its address and length, so its owner keeps it alive and
// unchanged while it is kept.
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

#include "backend.hpp"

namespace fdsolve {

template <typename V>
class KeptCopies {
 public:
  /// Keeps `device` as the copy of the `device.size()` values at `host`.
  void keep(const V* host, Buffer<V>&& device) {
    if (!host || device.size() == 0) return;
    for (auto& [h, d] : kept_)
      if (h == host) {
        d = std::move(device);
        return;
      }
    kept_.emplace_back(host, std::move(device));
  }

  /// The copy of the `n` values at `host`, given up; an empty buffer when none is kept.
  Buffer<V> take(const V* host, index_t n) {
    for (auto it = kept_.begin(); it != kept_.end(); ++it)
      if (it->first == host && it->second.size() == n) {
        Buffer<V> out = std::move(it->second);
        kept_.erase(it);
        return out;
      }
    return {};
  }

  /// The backend memory the kept copies hold.
  std::size_t bytes() const {
    std::size_t b = 0;
    for (const auto& entry : kept_) b += static_cast<std::size_t>(entry.second.size()) * sizeof(V);
    return b;
  }

 private:
  std::vector<std::pair<const V*, Buffer<V>>> kept_;
};

}  // namespace fdsolve
