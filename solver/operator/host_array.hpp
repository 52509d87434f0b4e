// Host arrays of a whole grid for the set-up: a vector whose elements start uninitialised, so
// that the threads that fill it touch its pages first (the kernel clears them on all threads
// instead of in one memset), and the row loop that fills such grids on all threads.
#pragma once

#include <cstddef>
#include <memory>
#include <new>
#include <utility>
#include <vector>

#include "layout.hpp"

namespace fdsolve::op {

template <typename T>
struct UninitAllocator : std::allocator<T> {
  template <typename U>
  struct rebind {
    using other = UninitAllocator<U>;
  };
  UninitAllocator() = default;
  template <typename U>
  UninitAllocator(const UninitAllocator<U>&) noexcept {}
  template <typename U, typename... Args>
  void construct(U* p, Args&&... args) {
    if constexpr (sizeof...(Args) == 0)
      ::new (static_cast<void*>(p)) U;  // default-initialised: no write for arithmetic types
    else
      ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
};

template <typename T>
using HostArray = std::vector<T, UninitAllocator<T>>;

/// Calls row(j, k) for every row (j, k) from `lo` to `hi` (exclusive) of a grid, on all threads
/// (static schedule: each thread takes the same rows in every such loop, so the pages it first
/// touched stay its own).
template <typename Row>
void for_rows(const std::array<index_t, 3>& lo, const std::array<index_t, 3>& hi, Row&& row) {
#pragma omp parallel for collapse(2) schedule(static)
  for (index_t k = lo[2]; k < hi[2]; ++k)
    for (index_t j = lo[1]; j < hi[1]; ++j) row(j, k);
}

/// The same for every row of an n[0] x n[1] x n[2] grid.
template <typename Row>
void for_rows(const std::array<index_t, 3>& n, Row&& row) {
  for_rows({0, 0, 0}, n, std::forward<Row>(row));
}

/// `size` copies of `value`, first touched on all threads.
template <typename T>
HostArray<T> filled(index_t size, T value) {
  HostArray<T> a(static_cast<std::size_t>(size));
#pragma omp parallel for schedule(static)
  for (index_t q = 0; q < size; ++q) a[static_cast<std::size_t>(q)] = value;
  return a;
}

/// `size` uninitialised elements whose pages the threads touch first (one write a page, the
/// elements split as a static loop over them splits them): for an array that one copy fills
/// next (a device's download), so that the kernel clears its pages on all threads and not
/// inside the copy.
template <typename T>
HostArray<T> touched(index_t size) {
  HostArray<T> a(static_cast<std::size_t>(size));
  constexpr index_t kPerPage = 4096 / sizeof(T) > 0 ? 4096 / sizeof(T) : 1;
#pragma omp parallel for schedule(static)
  for (index_t q = 0; q < size; q += kPerPage) a[static_cast<std::size_t>(q)] = T{};
  return a;
}

}  // namespace fdsolve::op
