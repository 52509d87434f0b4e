// The CUDA backend's operations for the overlapped halo exchange against the CPU backend:
// checked sweeps of several pieces pending at once (each its own statistics slot), packing,
// staging copies through page-locked memory and unpacking on the transfer stream, and the
// edge-only halo refill.
#include <doctest/doctest.h>

#include <cstring>
#include <random>
#include <vector>

#include "backend.hpp"
#include "parallel/split_sweep.hpp"

namespace fdsolve {
namespace {

template <typename T>
std::vector<T> random_values(index_t n, std::mt19937_64& gen) {
  std::uniform_real_distribution<double> d(-1.0, 1.0);
  std::vector<T> v(static_cast<std::size_t>(n));
  for (auto& x : v) x = static_cast<T>(d(gen));
  return v;
}

template <typename T>
std::vector<T> fetch(Backend<T>& be, const Buffer<T>& b) {
  be.synchronize();
  std::vector<T> v(static_cast<std::size_t>(b.size()));
  be.download(v.data(), b, b.size());
  return v;
}

template <typename T>
void check_pending_stats(int dims) {
  auto gpu = make_cuda_backend<T>(0);
  std::mt19937_64 gen(5);
  const Layout L = Layout::make(dims, {67, 41, dims == 3 ? 23 : 1}, 128 / sizeof(T));
  const std::vector<T> start = random_values<T>(L.size, gen);
  Buffer<T> in = gpu->allocate(L.size), a = gpu->allocate(L.size), b = gpu->allocate(L.size);
  gpu->upload(in, start.data(), L.size);
  gpu->upload(a, start.data(), L.size);
  gpu->upload(b, start.data(), L.size);
  SweepArgs<T> args;
  args.in = in.data();
  args.layout = L;
  args.weights.points = dims == 2 ? 5 : 27;
  args.weights.center = 0.1;
  args.weights.face = {0.2, 0.15, 0.1};
  args.weights.edge = dims == 3 ? 0.01 : 0;
  args.weights.corner = dims == 3 ? 0.005 : 0;
  const std::vector<Box> pieces =
      split_box(L.owned_box(), L, {true, true, true, false, true, true});
  for (const std::string& name : gpu->kernels(dims)) {
    CAPTURE(name);
    const KernelId k = gpu->find_kernel(dims, name);
    // One at a time, each waited for...
    std::vector<SweepStats> one;
    args.out = a.data();
    for (const Box& p : pieces) {
      args.box = p;
      one.push_back(gpu->sweep_with_stats(args, k));
    }
    // ...and all pending at once, collected in enqueue order.
    args.out = b.data();
    for (const Box& p : pieces) {
      args.box = p;
      gpu->smooth({args, 1, k, false, nullptr, PassStats::Queued});
    }
    const std::vector<SweepStats> all = gpu->collect_stats();
    REQUIRE(all.size() == one.size());
    for (std::size_t i = 0; i < all.size(); ++i) {
      CHECK(all[i].sum_sq == one[i].sum_sq);
      CHECK(all[i].max_abs == one[i].max_abs);
      CHECK(all[i].min == one[i].min);
      CHECK(all[i].max == one[i].max);
      CHECK(all[i].sum == one[i].sum);
      CHECK(all[i].count == pieces[i].cells());
    }
    const std::vector<T> ha = fetch(*gpu, a), hb = fetch(*gpu, b);
    CHECK(std::memcmp(ha.data(), hb.data(), ha.size() * sizeof(T)) == 0);
  }
}

template <typename T>
void check_transfer_queue(int dims) {
  auto cpu = make_cpu_backend<T>();
  auto gpu = make_cuda_backend<T>(0);
  std::mt19937_64 gen(9);
  const Layout L = Layout::make(dims, {37, 29, dims == 3 ? 11 : 1}, 128 / sizeof(T));
  const std::vector<T> start = random_values<T>(L.size, gen);
  Buffer<T> field = gpu->allocate(L.size);
  gpu->upload(field, start.data(), L.size);
  // A face layer with the halo of the axes before it (what the exchange sends along y).
  Box send{{-1, 0, 0}, {L.n[0] + 1, 1, dims == 3 ? L.n[2] : 1}};
  Box recv = send;
  recv.lo[1] = L.n[1];
  recv.hi[1] = L.n[1] + 1;
  const index_t count = send.cells();
  Buffer<T> packed = gpu->allocate(count);
  Buffer<T> staged = gpu->transfers().allocate_staging(count);
  gpu->transfers().after_sweeps();
  gpu->transfers().pack_box(field, L, send, packed);
  gpu->transfers().download(staged.data(), packed, count);
  gpu->transfers().wait();
  std::vector<T> host = start;
  Buffer<T> cpu_packed = cpu->allocate(count);
  Buffer<T> cpu_field = cpu->allocate(L.size);
  cpu->upload(cpu_field, host.data(), L.size);
  cpu->pack_box(cpu_field, L, send, cpu_packed);
  CHECK(std::memcmp(staged.data(), cpu_packed.data(), count * sizeof(T)) == 0);
  // Back the other way into the halo beyond the far face.
  for (index_t i = 0; i < count; ++i) staged.data()[i] = static_cast<T>(i + 0.5);
  gpu->transfers().upload(packed, staged.data(), count);
  gpu->transfers().unpack_box(field, L, recv, packed);
  gpu->transfers().before_sweeps();
  gpu->transfers().wait();
  cpu->unpack_box(cpu_field, L, recv, staged);
  const std::vector<T> got = fetch(*gpu, field);
  CHECK(std::memcmp(got.data(), cpu_field.data(), got.size() * sizeof(T)) == 0);
}

template <typename T>
void check_edge_refill() {
  auto cpu = make_cpu_backend<T>();
  auto gpu = make_cuda_backend<T>(0);
  std::mt19937_64 gen(13);
  const Layout L = Layout::make(3, {19, 12, 9}, 128 / sizeof(T));
  const std::vector<T> start = random_values<T>(L.size, gen);
  HaloFillArgs<T> fill;
  fill.layout = L;
  fill.faces[2].rule = GhostRule::Mirror;
  fill.faces[2].offset = T(0.25);
  fill.faces[5].rule = GhostRule::Wrap;
  fill.edge_mask = 1u << 0 | 1u << 3;
  std::vector<T> ref = start;
  fill.field = ref.data();
  cpu->fill_halo(fill);
  Buffer<T> field = gpu->allocate(L.size);
  gpu->upload(field, start.data(), L.size);
  fill.field = field.data();
  gpu->transfers().after_sweeps();
  gpu->transfers().fill_halo(fill);
  gpu->transfers().before_sweeps();
  const std::vector<T> got = fetch(*gpu, field);
  CHECK(std::memcmp(got.data(), ref.data(), got.size() * sizeof(T)) == 0);
  CHECK(std::memcmp(ref.data(), start.data(), ref.size() * sizeof(T)) != 0);  // it did fill
}

}  // namespace

TEST_CASE("cuda: checked sweeps pending at once match one at a time, every variant") {
  for (int dims : {2, 3}) {
    check_pending_stats<float>(dims);
    check_pending_stats<double>(dims);
  }
}

TEST_CASE("cuda: packing, staging and unpacking on the transfer stream match the CPU") {
  for (int dims : {2, 3}) {
    check_transfer_queue<float>(dims);
    check_transfer_queue<double>(dims);
  }
}

TEST_CASE("cuda: the edge-only halo refill on the transfer stream matches the CPU") {
  check_edge_refill<float>();
  check_edge_refill<double>();
}

}  // namespace fdsolve
