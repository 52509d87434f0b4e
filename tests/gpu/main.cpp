// Entry point of the GPU test executable: without a usable CUDA device it reports a skip
// (exit 77, CTest's SKIP_RETURN_CODE), never a pass.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <iostream>

#include "backend.hpp"

int main(int argc, char** argv) {
  if (fdsolve::cuda_device_count() == 0) {
    std::cout << "SKIP: no CUDA device: " << fdsolve::cuda_unavailable_reason() << "\n";
    return 77;
  }
  doctest::Context context(argc, argv);
  return context.run();
}
