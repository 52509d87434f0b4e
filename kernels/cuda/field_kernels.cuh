// Formulas evaluated on the device (CudaBackend::evaluate_field): each formula compiled once
// per run with NVRTC and kept, launched over a box of a field in device memory. A formula
// NVRTC cannot compile is evaluated on the host and uploaded instead (never a wrong answer).
#pragma once

#include <cuda_runtime.h>

#include <map>
#include <string>

#include "field_expression.hpp"

namespace fdsolve::cuda {

class FieldKernels {
 public:
  FieldKernels(int device, const cudaDeviceProp& props);
  ~FieldKernels();
  FieldKernels(const FieldKernels&) = delete;
  FieldKernels& operator=(const FieldKernels&) = delete;

  /// Writes scale * f on the nodes of args.box of `field` (device memory), enqueued on
  /// `stream`; returns after the first non-finite node is known (a 8-byte copy back).
  template <typename T>
  NonFiniteNode evaluate(const FieldProgram& p, const FieldEvalArgs& args, T* field,
                         cudaStream_t stream);

 private:
  struct Module {
    cudaLibrary_t library = nullptr;
    cudaKernel_t f32 = nullptr, f64 = nullptr;  // null: evaluate on the host
  };
  const Module& module(const FieldProgram& p);

  int arch_;
  int blocks_;
  std::map<std::string, Module> modules_;   // by translated body: compiled once per run
  unsigned long long* bad_ = nullptr;       // device word: first non-finite linear index
  unsigned long long* host_bad_ = nullptr;  // pinned, its copy
};

}  // namespace fdsolve::cuda
