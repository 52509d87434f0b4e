// The CUDA backend's device exchange (NCCL) on one GPU: a communicator of one rank whose
// messages go to itself. Messages to one peer match in the order they are listed (the halo
// exchange relies on it when both faces of an axis pair with one rank), and packing, the
// messages and unpacking enqueued on the transfer queue run in that order with no host wait
// between them: the values arrive bit for bit where the host reference puts them. Built without
// NCCL, the backend must offer no device exchange.
#include <doctest/doctest.h>

#include <cstring>
#include <random>
#include <vector>

#include "backend.hpp"

namespace fdsolve {
namespace {

template <typename T>
std::vector<T> random_values(std::size_t n, std::mt19937_64& gen) {
  std::uniform_real_distribution<double> d(-1.0, 1.0);
  std::vector<T> v(n);
  for (auto& x : v) x = static_cast<T>(d(gen));
  return v;
}

template <typename T>
std::vector<T> fetch(Backend<T>& be, const Buffer<T>& b) {
  be.transfers().wait();
  be.synchronize();
  std::vector<T> v(static_cast<std::size_t>(b.size()));
  be.download(v.data(), b, b.size());
  return v;
}

template <typename T>
bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
}

template <typename T>
void check_self_exchange() {
  auto gpu = make_cuda_backend<T>(0);
  DeviceExchange<T>* dx = gpu->device_exchange();
#if FDSOLVE_EXPECT_NCCL
  REQUIRE(dx != nullptr);
  MESSAGE(dx->library());
  CHECK(dx->device_key().size() == 16);
  CHECK_FALSE(dx->connected());
  dx->connect(dx->unique_id(), 0, 1);
  REQUIRE(dx->connected());
  std::mt19937_64 gen(11);

  // Two messages of different sizes to the same peer: each lands in the receive listed in the
  // same place.
  const std::size_t n1 = 1000, n2 = 37;
  const std::vector<T> h1 = random_values<T>(n1, gen), h2 = random_values<T>(n2, gen);
  Buffer<T> a1 = gpu->allocate(n1), a2 = gpu->allocate(n2);
  Buffer<T> b1 = gpu->allocate(n1), b2 = gpu->allocate(n2);
  gpu->upload(a1, h1.data(), n1);
  gpu->upload(a2, h2.data(), n2);
  gpu->zero(b1);
  gpu->zero(b2);
  gpu->transfers().after_sweeps();
  dx->exchange({{a1.data(), n1, 0}, {a2.data(), n2, 0}}, {{b1.data(), n1, 0}, {b2.data(), n2, 0}});
  CHECK(same_bits(fetch(*gpu, b1), h1));
  CHECK(same_bits(fetch(*gpu, b2), h2));

  // A face packed, sent, received and unpacked into another field's halo on the transfer queue,
  // as HaloExchange enqueues it: the halo holds the face's values, every other node its own.
  const Layout L = Layout::make(2, {45, 30, 1}, 128 / sizeof(T));
  const std::vector<T> hf = random_values<T>(static_cast<std::size_t>(L.size), gen);
  const std::vector<T> hg = random_values<T>(static_cast<std::size_t>(L.size), gen);
  Buffer<T> f = gpu->allocate(L.size), g = gpu->allocate(L.size);
  gpu->upload(f, hf.data(), L.size);
  gpu->upload(g, hg.data(), L.size);
  Box face, halo;  // the owned column x = 0 and the halo column x = nx
  face.lo = {0, 0, 0};
  face.hi = {1, L.n[1], 1};
  halo.lo = {L.n[0], 0, 0};
  halo.hi = {L.n[0] + 1, L.n[1], 1};
  const std::size_t cells = static_cast<std::size_t>(face.cells());
  Buffer<T> packed = gpu->allocate(face.cells()), arrived = gpu->allocate(face.cells());
  gpu->transfers().after_sweeps();
  gpu->transfers().pack_box(f, L, face, packed);
  dx->exchange({{packed.data(), cells, 0}}, {{arrived.data(), cells, 0}});
  gpu->transfers().unpack_box(g, L, halo, arrived);
  gpu->transfers().before_sweeps();
  std::vector<T> expected = hg;
  for (index_t j = 0; j < L.n[1]; ++j)
    expected[static_cast<std::size_t>(L.at(L.n[0], j, 0))] =
        hf[static_cast<std::size_t>(L.at(0, j, 0))];
  CHECK(same_bits(fetch(*gpu, g), expected));
#else
  CHECK(dx == nullptr);
#endif
}

TEST_CASE("gpu: the device exchange sends to itself in order on the transfer queue") {
  check_self_exchange<double>();
  check_self_exchange<float>();
}

}  // namespace
}  // namespace fdsolve
