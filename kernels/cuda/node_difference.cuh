// Richardson's shared-node differences on the device (see node_difference.hpp).
#pragma once

#include <cuda_runtime.h>

#include "node_difference.hpp"

namespace fdsolve::cuda {

/// One block per coarse row reduces its differences in a fixed tree order; the rows' partials
/// are merged on the host in row order. Waits for the result.
template <typename T>
NodeDifference shared_node_difference(const SharedNodesArgs<T>& args, cudaStream_t stream);

}  // namespace fdsolve::cuda
