// Runs a CUDA kernel's source on the CPU: every thread of a block is a cooperative fiber
// (ucontext), and __syncthreads() lets every other live fiber run to its own barrier before
// any goes on, which is the block barrier's contract. Blocks run one after another, so this
// checks a kernel's indexing, tiling and barrier placement, not warp-level or memory-model
// effects. Used by test_tblock_emulated.cpp, which has no GPU to run the kernels on.
#pragma once

#include <ucontext.h>

#include <functional>
#include <memory>
#include <stdexcept>
#include <vector>

#include "cuda_runtime.h"

namespace emu {

/// Runs `body` (a call of the kernel) for every thread of every block of `grid` x `block`.
void launch(dim3 grid, dim3 block, const std::function<void()>& body);

}  // namespace emu
