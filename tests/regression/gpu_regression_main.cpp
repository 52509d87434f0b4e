// Entry point of the CUDA-versus-CPU example runs: a skip (exit 77) without a CUDA device.
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
