// Stand-in for <cuda_runtime.h> when a kernel header is compiled for the CPU emulation test:
// the CUDA keywords as plain C++, the 16-byte vector types, and threadIdx, blockIdx and
// __syncthreads served by the cooperative-fiber launcher of emulator.hpp. Only what the
// temporally blocked kernels use.
#pragma once

#include <cstddef>

#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __launch_bounds__(...)
#define __shared__
#define __align__(n) __attribute__((aligned(n)))

struct alignas(16) float4 {
  float x, y, z, w;
};
struct alignas(16) double2 {
  double x, y;
};
inline float4 make_float4(float x, float y, float z, float w) { return {x, y, z, w}; }
inline double2 make_double2(double x, double y) { return {x, y}; }

struct dim3 {
  unsigned x = 1, y = 1, z = 1;
  constexpr dim3(unsigned a = 1, unsigned b = 1, unsigned c = 1) : x(a), y(b), z(c) {}
};

namespace emu {
/// The running fiber's thread and block indices.
struct Index {
  dim3 thread, block;
};
extern Index* current;
/// Ends this fiber's phase: every other live fiber of the block runs to its next barrier.
void barrier();
}  // namespace emu

#define threadIdx (::emu::current->thread)
#define blockIdx (::emu::current->block)

inline void __syncthreads() { emu::barrier(); }
template <typename V>
inline V __ldg(const V* p) {
  return *p;
}
inline long long min(long long a, long long b) { return a < b ? a : b; }
