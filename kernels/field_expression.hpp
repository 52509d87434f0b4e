// A field given by a formula, as the backends evaluate it: the formula's translated C++ text
// (compiled at run time on CUDA) and a host evaluator (the CPU backend, and CUDA's fallback).
// The kernels never see the case's Expression class: the solver hands them this.
#pragma once

#include <array>
#include <functional>
#include <memory>
#include <string>

#include "layout.hpp"

namespace fdsolve {

/// One thread's evaluator of the formula at a point (not shared between threads).
class PointFunction {
 public:
  virtual ~PointFunction() = default;
  virtual double operator()(double x, double y, double z, double t) = 0;
};

struct FieldProgram {
  std::string text;          // the formula as the user wrote it: names it in logs, keys caches
  std::string cuda_body;     // a C++ double expression of x, y, z, t; empty: not translated
  std::string cuda_helpers;  // the fdx_* helper functions the body may call
  /// A number rather than a formula: a backend fills the box with scale * constant (rounded to
  /// the field's type, as a compiled formula would) without compiling anything.
  bool is_constant = false;
  double constant = 0;
  std::function<std::unique_ptr<PointFunction>()> host;  // one evaluator per thread
  std::function<void(const std::string&)> on_fallback;   // told why the GPU could not compile it
};

/// Where a field is evaluated: value = scale * f(x, y, z, t) on the nodes of `box` of a field
/// of `layout`, node (i, j, k) at x_a = origin[a] + (index_a + offset[a]) * spacing[a]
/// (offset: the global index of the layout's first node, for a rank's sub-domain); z is 0 in 2D.
struct FieldEvalArgs {
  Layout layout;
  Box box;
  std::array<double, 3> origin{0, 0, 0};
  std::array<double, 3> spacing{1, 1, 1};
  std::array<index_t, 3> offset{0, 0, 0};
  double t = 0;
  double scale = 1;
};

/// The first node of the box, in C order (x fastest), where f was not finite, in the layout's
/// node indices, and f there (unscaled); `found` false when every value was finite.
struct NonFiniteNode {
  bool found = false;
  std::array<index_t, 3> node{0, 0, 0};
  double value = 0;
};

/// The coordinate of node index i (layout indices) on `axis`, as every evaluator computes it.
inline double field_coordinate(const FieldEvalArgs& a, int axis, index_t i) {
  if (axis == 2 && a.layout.dims == 2) return 0.0;
  return a.origin[axis] + static_cast<double>(i + a.offset[axis]) * a.spacing[axis];
}

/// Evaluates `p` with the host evaluator on all threads (OpenMP, one evaluator per thread),
/// writing scale * f into `out` (a field of args.layout in host memory, or, with `dense`, an
/// array of box.cells() values in C order); the first non-finite node is found in the same pass.
template <typename T>
NonFiniteNode evaluate_field_host(const FieldProgram& p, const FieldEvalArgs& args, T* out,
                                  bool dense = false);

}  // namespace fdsolve
