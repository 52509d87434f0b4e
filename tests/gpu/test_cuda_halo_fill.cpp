// The CUDA halo fill and boundary-box write against the CPU backend on random fields: every
// rule on every face, 2D and 3D, with constant and per-node offsets; every element compared.
#include <doctest/doctest.h>

#include <cstring>
#include <random>
#include <vector>

#include "backend.hpp"

namespace fdsolve {
namespace {

template <typename T>
std::vector<T> random_field(index_t n, std::mt19937_64& gen) {
  std::uniform_real_distribution<double> d(-1.0, 1.0);
  std::vector<T> v(static_cast<std::size_t>(n));
  for (auto& x : v) x = static_cast<T>(d(gen));
  return v;
}

template <typename T>
void check_fill(int dims, std::array<index_t, 3> n, std::array<GhostRule, 6> rules,
                bool per_node, std::mt19937_64& gen) {
  auto cpu = make_cpu_backend<T>();
  auto gpu = make_cuda_backend<T>(0);
  const Layout L = Layout::make(dims, n, static_cast<index_t>(128 / sizeof(T)));
  const std::vector<T> start = random_field<T>(L.size, gen);
  std::array<Buffer<T>, 6> offsets;
  std::array<std::vector<T>, 6> host_offsets;
  HaloFillArgs<T> ca, ga;
  ca.layout = ga.layout = L;
  for (int f = 0; f < 2 * dims; ++f) {
    ca.faces[f].rule = ga.faces[f].rule = rules[f];
    ca.faces[f].offset = ga.faces[f].offset = static_cast<T>(0.25 * (f + 1));
    if (per_node && rules[f] == GhostRule::Mirror) {
      const index_t size = halo_axis(L, f / 2).face_size();
      host_offsets[f] = random_field<T>(size, gen);
      offsets[f] = gpu->allocate(size);
      gpu->upload(offsets[f], host_offsets[f].data(), size);
      ca.faces[f].offsets = host_offsets[f].data();
      ga.faces[f].offsets = offsets[f].data();
    }
  }
  std::vector<T> ref = start;
  ca.field = ref.data();
  cpu->fill_halo(ca);
  Buffer<T> field = gpu->allocate(L.size);
  gpu->upload(field, start.data(), L.size);
  ga.field = field.data();
  gpu->fill_halo(ga);
  gpu->synchronize();
  std::vector<T> got(static_cast<std::size_t>(L.size));
  gpu->download(got.data(), field, L.size);
  CHECK(std::memcmp(got.data(), ref.data(), got.size() * sizeof(T)) == 0);
  CHECK(std::memcmp(ref.data(), start.data(), ref.size() * sizeof(T)) != 0);  // it did fill
}

}  // namespace

TEST_CASE("gpu: halo fill equals the CPU's, every rule on every face") {
  std::mt19937_64 gen(7);
  const GhostRule M = GhostRule::Mirror, W = GhostRule::Wrap, N = GhostRule::None;
  for (bool per_node : {false, true}) {
    CAPTURE(per_node);
    check_fill<double>(2, {17, 9, 1}, {M, M, W, W, N, N}, per_node, gen);
    check_fill<float>(2, {300, 7, 1}, {W, W, M, N, N, N}, per_node, gen);
    check_fill<double>(3, {9, 11, 13}, {M, M, M, M, M, M}, per_node, gen);
    check_fill<float>(3, {33, 5, 7}, {W, W, M, N, W, W}, per_node, gen);
    check_fill<double>(3, {3, 3, 3}, {N, M, W, W, M, N}, per_node, gen);
  }
}

TEST_CASE("gpu: write_box equals the CPU's") {
  std::mt19937_64 gen(11);
  auto cpu = make_cpu_backend<double>();
  auto gpu = make_cuda_backend<double>(0);
  const Layout L = Layout::make(3, {21, 13, 9}, 16);
  for (const Box& box : {Box{{0, 0, 0}, {1, 13, 9}}, Box{{0, 12, 0}, {21, 13, 9}},
                         Box{{3, 2, 8}, {20, 11, 9}}}) {
    const std::vector<double> start = random_field<double>(L.size, gen);
    const std::vector<double> values = random_field<double>(box.cells(), gen);
    Buffer<double> a = cpu->allocate(L.size), b = gpu->allocate(L.size);
    cpu->upload(a, start.data(), L.size);
    gpu->upload(b, start.data(), L.size);
    cpu->write_box(a, L, box, values.data());
    gpu->write_box(b, L, box, values.data());
    std::vector<double> ha(static_cast<std::size_t>(L.size)), hb(ha.size());
    cpu->download(ha.data(), a, L.size);
    gpu->download(hb.data(), b, L.size);
    CHECK(std::memcmp(ha.data(), hb.data(), ha.size() * sizeof(double)) == 0);
  }
}

}  // namespace fdsolve
