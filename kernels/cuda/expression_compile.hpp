// Run-time compilation of a formula for the GPU (NVRTC): the CUDA source of its kernels and
// the cubin for one architecture. Plain C++: NVRTC runs without a GPU, so the unit tests
// compile every translated formula on any machine with the toolkit.
#pragma once

#include <stdexcept>
#include <string>

#include "field_expression.hpp"

namespace fdsolve::cuda {

/// NVRTC refused the source: what() carries its log.
class ExpressionCompileError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// The argument block of the generated kernels; the same declaration is pasted into the
/// generated source (kExpressionArgs), so host and device agree on its layout.
struct ExpressionArgs {
  long long origin, pitch, plane;
  long long lo[3], n[3], offset[3];
  double x0[3], h[3];
  double t, scale;
  long long cells;
  int dims;
};

/// The complete CUDA source for `p` (which must have a cuda_body): its helpers, the formula
/// as a device function and the extern "C" kernels fdx_eval_f32 and fdx_eval_f64.
std::string expression_source(const FieldProgram& p);

/// Compiles `source` for sm_`arch` (e.g. 90) with FMA contraction off, so products and sums
/// round as on the host; returns the cubin. Throws ExpressionCompileError with NVRTC's log.
/// A compilation started by compile_expression_ahead is waited for instead of repeated; with a
/// formula cache set (formula_cache.hpp) a cubin compiled by an earlier run is read back.
std::string compile_expression(const std::string& source, int arch);
/// Starts compile_expression(source, arch) on a thread of its own; its result (or error) is
/// kept for the first compile_expression of the same source and arch.
void compile_expression_ahead(const std::string& source, int arch);

}  // namespace fdsolve::cuda
