// FDSOLVE_HOST_DEVICE marks the per-node arithmetic that both backends compile from one
// definition: a device-and-host inline function under nvcc, a plain inline one elsewhere.
#pragma once

#if defined(__CUDACC__)
#define FDSOLVE_HOST_DEVICE __host__ __device__ __forceinline__
#else
#define FDSOLVE_HOST_DEVICE inline
#endif
