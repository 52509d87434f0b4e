// Temporal blocking (blocked passes, Backend::smooth): every blocked CUDA variant, k = 1..8
// sweeps, against k single sweeps of the plain kernel bit for bit (whole buffer: the box
// updated, everything else untouched) and against k CPU sweeps within rounding, at awkward
// sizes and sub-boxes.
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

/// FDSOLVE_GPU_TEST_QUICK: "1" (memcheck) drops the largest sizes and some k; "2" (racecheck,
/// which slows shared-memory kernels ~100x) also keeps only 3 of the 3D cases and k = 1, 4.
int quick_level() {
  const char* q = std::getenv("FDSOLVE_GPU_TEST_QUICK");
  return q ? std::atoi(q) : 0;
}
bool quick() { return quick_level() >= 1; }

struct Case {
  std::array<index_t, 3> n;
  Box box;
};

Case whole(index_t nx, index_t ny, index_t nz = 1) {
  return {{nx, ny, nz}, Box{{0, 0, 0}, {nx, ny, nz}}};
}
Case interior(index_t nx, index_t ny, index_t nz = 1) {
  const bool three = nz > 1;
  return {{nx, ny, nz}, Box{{1, 1, three ? 1 : 0}, {nx - 1, ny - 1, three ? nz - 1 : 1}}};
}

/// Sizes around the 2D tiles (128 and 256 wide, 64 and 128 high, outputs 128-2k and 64-2k),
/// primes, one node, a strict sub-box.
std::vector<Case> cases_2d() {
  std::vector<Case> c = {
      whole(1, 1),     interior(3, 3),    whole(127, 63),
      whole(129, 65),  whole(113, 49),    whole(37, 53),
      whole(257, 131), interior(101, 67), {{40, 30, 1}, Box{{2, 1, 0}, {37, 29, 1}}}};
  if (!quick()) c.push_back(whole(513, 515));
  return c;
}

/// Sizes around the 3D tiles (32 vectors = 128 float / 64 double nodes wide, 16 and 32 rows),
/// primes, one node, a strict sub-box, chunks of z.
std::vector<Case> cases_3d() {
  std::vector<Case> c = {whole(1, 1, 1),      interior(3, 3, 3),
                         whole(65, 17, 9),    whole(129, 15, 5),
                         whole(31, 33, 37),   {{12, 9, 11}, Box{{2, 1, 3}, {11, 8, 10}}},
                         interior(40, 33, 35)};
  if (quick_level() >= 2) return {c[1], c[2], c[5]};
  if (!quick()) c.push_back(whole(127, 70, 41));
  return c;
}

/// Random weights whose absolute sum is below 1, so that k sweeps of random data stay O(1) and
/// one tolerance fits every k.
StencilWeights contracting_weights(int dims, int points, std::mt19937_64& gen) {
  std::uniform_real_distribution<double> d(-1.0, 1.0);
  StencilWeights w;
  w.points = dims == 2 ? 5 : points;
  w.center = d(gen);
  w.face = {d(gen), d(gen), dims == 3 ? d(gen) : 0.0};
  w.edge = dims == 3 && points >= 19 ? d(gen) : 0.0;
  w.corner = dims == 3 && points == 27 ? d(gen) : 0.0;
  const double sum = std::fabs(w.center) +
                     2 * (std::fabs(w.face[0]) + std::fabs(w.face[1]) + std::fabs(w.face[2])) +
                     12 * std::fabs(w.edge) + 8 * std::fabs(w.corner);
  const double f = 0.9 / sum;
  w.center *= f;
  for (auto& x : w.face) x *= f;
  w.edge *= f;
  w.corner *= f;
  w.source = 0.1 * d(gen);
  return w;
}

template <typename T>
std::vector<T> random_values(index_t n, std::mt19937_64& gen) {
  std::uniform_real_distribution<double> dist(-1.0, 1.0);
  std::vector<T> v(static_cast<std::size_t>(n));
  for (auto& x : v) x = static_cast<T>(dist(gen));
  return v;
}

/// Element indices of the box's nodes.
std::vector<index_t> box_elements(const Layout& L, const Box& b) {
  std::vector<index_t> e;
  for (index_t k = b.lo[2]; k < b.hi[2]; ++k)
    for (index_t j = b.lo[1]; j < b.hi[1]; ++j)
      for (index_t i = b.lo[0]; i < b.hi[0]; ++i) e.push_back(L.at(i, j, k));
  return e;
}

constexpr int kMaxSteps = 8;

template <typename T>
void check_case(Backend<T>& gpu, Backend<T>& cpu, int dims, int points, const Case& c,
                bool with_source, std::mt19937_64& gen) {
  const Layout L = Layout::make(dims, c.n, static_cast<index_t>(128 / sizeof(T)));
  const std::size_t bytes = static_cast<std::size_t>(L.size) * sizeof(T);
  SweepArgs<T> args;
  args.layout = L;
  args.box = c.box;
  args.weights = contracting_weights(dims, points, gen);
  const std::vector<T> init = random_values<T>(L.size, gen);
  const std::vector<T> src = random_values<T>(L.size, gen);
  const std::vector<index_t> box = box_elements(L, c.box);

  // References after 1..kMaxSteps sweeps: the plain CUDA kernel ping-ponging two buffers that
  // start equal, and the CPU the same way.
  std::vector<std::vector<T>> plain(kMaxSteps + 1), host(kMaxSteps + 1);
  {
    Buffer<T> b[2] = {gpu.allocate(L.size), gpu.allocate(L.size)};
    Buffer<T> dsrc = gpu.allocate(L.size);
    gpu.upload(b[0], init.data(), L.size);
    gpu.upload(b[1], init.data(), L.size);
    gpu.upload(dsrc, src.data(), L.size);
    std::vector<T> h[2] = {init, init};
    const KernelId plain_id = gpu.find_kernel(dims, "plain");
    const KernelId omp = cpu.find_kernel(dims, "omp");
    for (int s = 1; s <= kMaxSteps; ++s) {
      SweepArgs<T> g = args;
      g.in = b[(s + 1) % 2].data();
      g.out = b[s % 2].data();
      g.source_field = with_source ? dsrc.data() : nullptr;
      gpu.sweep(g, plain_id);
      plain[s].resize(init.size());
      gpu.download(plain[s].data(), b[s % 2], L.size);
      SweepArgs<T> hc = args;
      hc.in = h[(s + 1) % 2].data();
      hc.out = h[s % 2].data();
      hc.source_field = with_source ? src.data() : nullptr;
      cpu.sweep(hc, omp);
      host[s] = h[s % 2];
    }
  }

  Buffer<T> din = gpu.allocate(L.size), dout = gpu.allocate(L.size), dsrc = gpu.allocate(L.size);
  gpu.upload(dsrc, src.data(), L.size);
  std::vector<T> poisoned = init;  // out's box starts as NaN: every box node must be written
  for (index_t e : box) poisoned[e] = std::numeric_limits<T>::quiet_NaN();
  const double tol = (sizeof(T) == 4 ? 2e-6 : 1e-14) * kMaxSteps;
  for (const std::string& name : gpu.step_kernels(dims)) {
    const KernelId id = gpu.find_step_kernel(dims, name);
    for (int k = 1; k <= kMaxSteps; ++k) {
      if (quick() && k != 1 && k != 2 && k != 5 && k != 8) continue;  // sanitizer runs
      if (quick_level() >= 2 && dims == 3 && k != 1 && k != 4) continue;
      CAPTURE(name);
      CAPTURE(k);
      gpu.upload(din, init.data(), L.size);
      gpu.upload(dout, poisoned.data(), L.size);
      SweepArgs<T> g = args;
      g.in = din.data();
      g.out = dout.data();
      g.source_field = with_source ? dsrc.data() : nullptr;
      gpu.smooth({g, k, id, true});
      std::vector<T> got(init.size());
      gpu.download(got.data(), dout, L.size);
      CHECK(std::memcmp(got.data(), plain[k].data(), bytes) == 0);
      index_t far = 0;
      for (index_t e : box)
        if (!(std::fabs(double(got[e]) - double(host[k][e])) <= tol)) ++far;
      CHECK(far == 0);
    }
  }

  // The CPU's blocked pass: k single sweeps, the same values as its own ping-pong.
  for (int k : {1, 2, 5}) {
    std::vector<T> a = init, b = init;
    SweepArgs<T> hc = args;
    hc.in = a.data();
    hc.out = b.data();
    hc.source_field = with_source ? src.data() : nullptr;
    cpu.smooth({hc, k, cpu.find_step_kernel(dims, "omp"), true});
    CHECK(std::memcmp(b.data(), host[k].data(), bytes) == 0);
  }
}

template <typename T>
void run_all(int dims, const std::vector<int>& points_list) {
  auto gpu = make_cuda_backend<T>(0);
  auto cpu = make_cpu_backend<T>();
  std::mt19937_64 gen(77 + dims * 5 + sizeof(T));
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

TEST_CASE_TEMPLATE("gpu: 2D blocked sweeps equal k plain sweeps", T, float, double) {
  run_all<T>(2, {5});
}

TEST_CASE_TEMPLATE("gpu: 3D blocked sweeps equal k plain sweeps", T, float, double) {
  run_all<T>(3, quick_level() >= 2 ? std::vector<int>{27}
                : quick()           ? std::vector<int>{7, 27}
                                    : std::vector<int>{7, 19, 27});
}

}  // namespace fdsolve
