// Richardson's shared-node differences on the device (see node_difference.hpp).
#pragma once

#include <cuda_runtime.h>

#include "node_difference.hpp"

namespace fdsolve::cuda {

/// The rows' partials on the device, kept between calls (a first allocation from the
/// stream-ordered pool cost 10 ms on an H100).
class NodeDifferenceWorkspace {
 public:
  NodeDifferenceWorkspace() = default;
  NodeDifferenceWorkspace(const NodeDifferenceWorkspace&) = delete;
  NodeDifferenceWorkspace& operator=(const NodeDifferenceWorkspace&) = delete;
  ~NodeDifferenceWorkspace();

  /// One block per coarse row reduces its differences in a fixed tree order; the rows'
  /// partials are merged on the host in row order. Waits for the result.
  template <typename T>
  NodeDifference run(const SharedNodesArgs<T>& args, cudaStream_t stream);

 private:
  double* partial_ = nullptr;
  index_t capacity_ = 0;  // doubles
};

}  // namespace fdsolve::cuda
