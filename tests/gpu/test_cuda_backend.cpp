// The CUDA backend's contract beyond the sweeps: device description, kernel lists and
// defaults, NaN in the stats, and errors that name what went wrong.
#include <doctest/doctest.h>

#include <limits>
#include <string>
#include <vector>

#include "backend.hpp"

namespace fdsolve {

TEST_CASE("gpu: device, kernel lists and defaults") {
  REQUIRE(cuda_device_count() > 0);
  CHECK(cuda_unavailable_reason().empty());
  auto be = make_cuda_backend<double>(0);
  CHECK(be->name() == "cuda");
  CHECK(be->device().find("sm_") != std::string::npos);
  for (int dims : {2, 3}) {
    const auto names = be->kernels(dims);
    CHECK(names.size() >= 2);
    CHECK(names.front() == "plain");
    CHECK_NOTHROW(be->find_kernel(dims, be->default_kernel(dims)));
  }
  CHECK_THROWS_AS(be->find_kernel(3, "no-such-kernel"), std::invalid_argument);
  CHECK(be->free_memory() > 0);
  CHECK(be->copy_bandwidth(std::size_t{64} << 20) > 1e9);
}

TEST_CASE("gpu: out of device memory names the bytes and leaves the backend usable") {
  auto be = make_cuda_backend<float>(0);
  const index_t huge = index_t{1} << 42;  // 16 TiB of floats
  try {
    auto b = be->allocate(huge);
    FAIL("allocating 16 TiB succeeded");
  } catch (const BackendError& e) {
    const std::string msg = e.what();
    CHECK(msg.find("out of device memory") != std::string::npos);
    CHECK(msg.find(std::to_string(huge * 4)) != std::string::npos);
    CHECK(msg.find("bytes free") != std::string::npos);
  }
  std::vector<float> v(1000, 1.5f), back(1000);
  auto b = be->allocate(1000);
  be->upload(b, v.data(), 1000);
  be->download(back.data(), b, 1000);
  CHECK(back == v);
}

TEST_CASE("gpu: a NaN in the input reaches max_abs of every variant") {
  auto be = make_cuda_backend<float>(0);
  const Layout L = Layout::make(3, {40, 20, 20}, 32);
  std::vector<float> in(static_cast<std::size_t>(L.size), 0.5f);
  in[L.at(17, 9, 11)] = std::numeric_limits<float>::quiet_NaN();
  Buffer<float> a = be->allocate(L.size), b = be->allocate(L.size);
  be->upload(a, in.data(), L.size);
  SweepArgs<float> args;
  args.in = a.data();
  args.out = b.data();
  args.layout = L;
  args.box = L.owned_box();
  args.weights.points = 27;
  args.weights.face = {0.1, 0.1, 0.1};
  args.weights.edge = 0.01;
  args.weights.corner = 0.001;
  for (const auto& name : be->kernels(3)) {
    CAPTURE(name);
    const SweepStats s = be->sweep_with_stats(args, be->find_kernel(3, name));
    CHECK(std::isnan(s.max_abs));
    CHECK(s.count == L.owned_cells());
  }
}

}  // namespace fdsolve
