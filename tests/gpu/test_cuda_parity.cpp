// Every CUDA kernel variant against the CPU reference: random data and weights, awkward sizes
// and sub-boxes, poisoned outputs, stats, a source field, and bit-for-bit determinism.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "backend.hpp"

namespace fdsolve {
namespace {

bool quick() {
  const char* q = std::getenv("FDSOLVE_GPU_TEST_QUICK");
  return q && std::atoi(q) >= 1;  // 1: memcheck, 2: racecheck
}

template <typename T>
constexpr double rel_tol() {
  return sizeof(T) == 4 ? 1e-5 : 1e-12;
}

struct Case {
  std::array<index_t, 3> n;  // owned nodes
  Box box;
};

/// The whole-owned box less one node on every side: what Dirichlet boundaries leave.
Case interior(index_t nx, index_t ny, index_t nz = 1) {
  const bool three = nz > 1;
  return {{nx, ny, nz}, Box{{1, 1, three ? 1 : 0}, {nx - 1, ny - 1, three ? nz - 1 : 1}}};
}
Case whole(index_t nx, index_t ny, index_t nz = 1) {
  return {{nx, ny, nz}, Box{{0, 0, 0}, {nx, ny, nz}}};
}

std::vector<Case> cases_2d() {
  std::vector<Case> c = {
      interior(3, 3),  // one interior node
      whole(1, 1),      whole(31, 7),
      whole(33, 9),     whole(63, 31),
      whole(65, 33),    whole(127, 3),
      whole(129, 17),   whole(255, 5),
      whole(257, 65),   whole(37, 53),
      whole(17, 31),    {{40, 30, 1}, Box{{2, 1, 0}, {37, 29, 1}}},  // strict sub-box
      interior(101, 67)};
  c.push_back(quick() ? whole(257, 259) : whole(1025, 1027));
  return c;
}

std::vector<Case> cases_3d() {
  std::vector<Case> c = {interior(3, 3, 3),  // one interior node
                         whole(1, 1, 1),
                         whole(31, 17, 23),
                         whole(33, 9, 5),
                         whole(65, 7, 9),
                         whole(31, 7, 70),
                         whole(129, 5, 3),
                         {{12, 9, 11}, Box{{2, 1, 3}, {11, 8, 10}}},
                         interior(40, 33, 35)};
  c.push_back(quick() ? whole(34, 35, 37) : whole(130, 131, 133));
  return c;
}

template <typename T>
std::vector<T> random_values(index_t n, std::mt19937_64& gen, double lo, double hi) {
  std::uniform_real_distribution<double> dist(lo, hi);
  std::vector<T> v(static_cast<std::size_t>(n));
  for (auto& x : v) x = static_cast<T>(dist(gen));
  return v;
}

StencilWeights random_weights(int dims, int points, std::mt19937_64& gen) {
  std::uniform_real_distribution<double> d(-0.5, 0.5);
  StencilWeights w;
  w.points = dims == 2 ? 5 : points;
  w.center = d(gen);
  w.face = {d(gen), d(gen), dims == 3 ? d(gen) : 0.0};
  w.edge = dims == 3 && points >= 19 ? d(gen) : 0.0;
  w.corner = dims == 3 && points == 27 ? d(gen) : 0.0;
  w.source = d(gen);
  return w;
}

/// Largest error a node may show: rel_tol times the sum of |weight * value| it can reach.
double scale(const StencilWeights& w) {
  return std::fabs(w.center) +
         2 * (std::fabs(w.face[0]) + std::fabs(w.face[1]) + std::fabs(w.face[2])) +
         12 * std::fabs(w.edge) + 8 * std::fabs(w.corner) + 1.0;
}

/// Whether buffer element `e` is a node of box `b` (elements are numbered from the padded
/// corner: plane, row, then `align` pad elements before owned x=0).
bool inside(const Layout& L, const Box& b, index_t align, index_t e) {
  const index_t k = e / L.plane - (L.dims == 3 ? 1 : 0);
  const index_t j = e % L.plane / L.pitch - 1;
  const index_t i = e % L.pitch - align;
  return i >= b.lo[0] && i < b.hi[0] && j >= b.lo[1] && j < b.hi[1] && k >= b.lo[2] && k < b.hi[2];
}

template <typename T>
bool same_bits(T a, T b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

template <typename T>
void check_case(Backend<T>& gpu, Backend<T>& cpu, int dims, int points, const Case& c,
                bool with_source, std::mt19937_64& gen) {
  const index_t align = static_cast<index_t>(128 / sizeof(T));
  const Layout L = Layout::make(dims, c.n, align);
  SweepArgs<T> args;
  args.layout = L;
  args.box = c.box;
  args.weights = random_weights(dims, points, gen);
  const std::vector<T> in = random_values<T>(L.size, gen, -1.0, 1.0);
  const std::vector<T> src = random_values<T>(L.size, gen, -1.0, 1.0);
  const T sentinel = T(12345.5);
  std::vector<T> poison(static_cast<std::size_t>(L.size), sentinel);
  for (index_t e = 0; e < L.size; ++e)
    if (inside(L, c.box, align, e)) poison[e] = std::numeric_limits<T>::quiet_NaN();

  // CPU reference.
  std::vector<T> ref = poison;
  SweepArgs<T> ca = args;
  ca.in = in.data();
  ca.out = ref.data();
  ca.source_field = with_source ? src.data() : nullptr;
  const SweepStats cs = cpu.sweep_with_stats(ca, cpu.find_kernel(dims, "omp"));

  Buffer<T> din = gpu.allocate(L.size), dout = gpu.allocate(L.size), dsrc = gpu.allocate(L.size);
  gpu.upload(din, in.data(), L.size);
  gpu.upload(dsrc, src.data(), L.size);
  SweepArgs<T> ga = args;
  ga.in = din.data();
  ga.out = dout.data();
  ga.source_field = with_source ? dsrc.data() : nullptr;
  const double tol = rel_tol<T>() * scale(args.weights);

  for (const std::string& name : gpu.kernels(dims)) {
    CAPTURE(name);
    const KernelId id = gpu.find_kernel(dims, name);
    std::vector<T> got(static_cast<std::size_t>(L.size)), again(got.size()), plain(got.size());
    gpu.upload(dout, poison.data(), L.size);
    const SweepStats gs = gpu.sweep_with_stats(ga, id);
    gpu.download(got.data(), dout, L.size);

    index_t bad = 0, first_bad = -1;
    for (index_t e = 0; e < L.size; ++e) {
      const bool ok = inside(L, c.box, align, e) ? std::fabs(double(got[e]) - double(ref[e])) <= tol
                                                 : same_bits(got[e], sentinel);
      if (!ok && bad++ == 0) first_bad = e;
    }
    INFO("first bad element ", first_bad, " of ", bad, ": gpu ",
         first_bad >= 0 ? double(got[first_bad]) : 0.0, " cpu ",
         first_bad >= 0 ? double(ref[first_bad]) : 0.0);
    CHECK(bad == 0);

    const double n = static_cast<double>(cs.count);
    const double srel = sizeof(T) == 4 ? 1e-5 : 1e-11;
    CHECK(gs.count == cs.count);
    CHECK(std::fabs(gs.sum_sq - cs.sum_sq) <= srel * (cs.sum_sq + n * tol));
    CHECK(std::fabs(gs.max_abs - cs.max_abs) <= 2 * tol);
    CHECK(std::fabs(gs.min - cs.min) <= tol);
    CHECK(std::fabs(gs.max - cs.max) <= tol);
    CHECK(std::fabs(gs.sum - cs.sum) <= n * tol + 1e-9);

    // Determinism: the same sweep again gives the same bits, stats and field; the unchecked
    // sweep computes the same field.
    gpu.upload(dout, poison.data(), L.size);
    const SweepStats gs2 = gpu.sweep_with_stats(ga, id);
    gpu.download(again.data(), dout, L.size);
    CHECK(same_bits(gs.sum_sq, gs2.sum_sq));
    CHECK(same_bits(gs.max_abs, gs2.max_abs));
    CHECK(same_bits(gs.min, gs2.min));
    CHECK(same_bits(gs.max, gs2.max));
    CHECK(same_bits(gs.sum, gs2.sum));
    gpu.upload(dout, poison.data(), L.size);
    gpu.sweep(ga, id);
    gpu.synchronize();
    gpu.download(plain.data(), dout, L.size);
    CHECK(std::memcmp(got.data(), again.data(), got.size() * sizeof(T)) == 0);
    CHECK(std::memcmp(got.data(), plain.data(), got.size() * sizeof(T)) == 0);
  }
}

template <typename T>
void run_all(int dims, const std::vector<int>& points_list) {
  auto gpu = make_cuda_backend<T>(0);
  auto cpu = make_cpu_backend<T>();
  std::mt19937_64 gen(2024 + dims * 7 + sizeof(T));
  const std::vector<Case> cases = dims == 2 ? cases_2d() : cases_3d();
  for (int points : points_list) {
    for (std::size_t i = 0; i < cases.size(); ++i) {
      const Case& c = cases[i];
      std::ostringstream what;
      what << dims << "D " << points << "-point, owned " << c.n[0] << "x" << c.n[1] << "x" << c.n[2]
           << ", box lo " << c.box.lo[0] << "," << c.box.lo[1] << "," << c.box.lo[2] << " hi "
           << c.box.hi[0] << "," << c.box.hi[1] << "," << c.box.hi[2];
      CAPTURE(what.str());
      check_case<T>(*gpu, *cpu, dims, points, c, i % 2 == 1, gen);
    }
  }
}

}  // namespace

TEST_CASE_TEMPLATE("gpu: 2D 5-point kernels match the CPU", T, float, double) {
  run_all<T>(2, {5});
}

TEST_CASE_TEMPLATE("gpu: 3D 7/19/27-point kernels match the CPU", T, float, double) {
  run_all<T>(3, {7, 19, 27});
}

}  // namespace fdsolve
