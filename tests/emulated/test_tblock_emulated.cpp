// The temporally blocked CUDA kernels' source run on the CPU (emulator.hpp: one cooperative
// fiber per CUDA thread, block barriers as phase ends) against k single sweeps of the shared
// per-node formulas (update_5pt, update_3d), bit for bit over the whole buffer. This checks the
// tiling, the shrinking valid regions, the z wavefront's plane rings and the barriers without a
// GPU; tests/gpu/test_cuda_tblock.cpp checks the same on the device against the plain kernel.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "coarse_correction.cuh"
#include "emulator.hpp"
#include "march2d_kernel.cuh"
#include "tblock2d_kernel.cuh"
#include "tblock3d_kernel.cuh"

namespace fdsolve::cuda {
// The blocks' dynamic shared memory (one block runs at a time).
alignas(16) unsigned char smem[256 * 1024];
}  // namespace fdsolve::cuda

namespace fdsolve {
namespace {

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

StencilWeights random_weights(int dims, int points, std::mt19937_64& gen) {
  std::uniform_real_distribution<double> d(-0.2, 0.2);
  StencilWeights w;
  w.points = dims == 2 ? 5 : points;
  w.center = d(gen);
  w.face = {d(gen), d(gen), dims == 3 ? d(gen) : 0.0};
  w.edge = dims == 3 && points >= 19 ? d(gen) / 4 : 0.0;
  w.corner = dims == 3 && points == 27 ? d(gen) / 4 : 0.0;
  w.source = d(gen);
  return w;
}

/// A field, its source, the reference after k single sweeps, and the kernel arguments.
template <typename T>
struct Problem {
  Layout L;
  Box box;
  StencilWeights weights;
  std::vector<T> init, src;
  bool with_source = false;
  /// The second sweep's weights (a two-weight pass: Chebyshev smoothing steps); else `weights`.
  std::optional<StencilWeights> second;

  Problem(int dims, int points, const Case& c, bool source, std::mt19937_64& gen)
      : L(Layout::make(dims, c.n, static_cast<index_t>(128 / sizeof(T)))),
        box(c.box),
        weights(random_weights(dims, points, gen)),
        with_source(source) {
    std::uniform_real_distribution<double> d(-1.0, 1.0);
    init.resize(static_cast<std::size_t>(L.size));
    src.resize(init.size());
    for (auto& x : init) x = static_cast<T>(d(gen));
    for (auto& x : src) x = static_cast<T>(d(gen));
  }

  /// k single sweeps ping-ponging two copies of init, in the formulas every backend shares.
  std::vector<T> reference(int k) const { return reference_from(init, k); }
  /// The same from `start`.
  std::vector<T> reference_from(std::vector<T> start, int k) const {
    std::vector<T> a = start, b = std::move(start);
    for (int s = 0; s < k; ++s) {
      const TypedWeights<T> w = typed<T>(s == 1 && second ? *second : weights);
      for (index_t z = box.lo[2]; z < box.hi[2]; ++z)
        for (index_t y = box.lo[1]; y < box.hi[1]; ++y)
          for (index_t x = box.lo[0]; x < box.hi[0]; ++x) {
            const index_t c = L.at(x, y, z);
            const T sv = with_source ? w.source_scale * src[c] : w.source;
            if (L.dims == 2)
              b[c] = update_5pt(a.data(), c, L.pitch, w, sv);
            else if (weights.points == 7)
              b[c] = update_3d<7>(a.data(), c, L.pitch, L.plane, w, sv);
            else if (weights.points == 19)
              b[c] = update_3d<19>(a.data(), c, L.pitch, L.plane, w, sv);
            else
              b[c] = update_3d<27>(a.data(), c, L.pitch, L.plane, w, sv);
          }
      a.swap(b);
    }
    return a;
  }

  /// init with the box's nodes poisoned: the kernel must write every one of them.
  std::vector<T> poisoned() const {
    std::vector<T> p = init;
    for (index_t z = box.lo[2]; z < box.hi[2]; ++z)
      for (index_t y = box.lo[1]; y < box.hi[1]; ++y)
        for (index_t x = box.lo[0]; x < box.hi[0]; ++x)
          p[L.at(x, y, z)] = std::numeric_limits<T>::quiet_NaN();
    return p;
  }

  cuda::DevArgs<T> args(const std::vector<T>& in, std::vector<T>& out) const {
    cuda::DevArgs<T> a{};
    a.in = in.data() + L.origin;
    a.out = out.data() + L.origin;
    a.src = with_source ? src.data() + L.origin : nullptr;
    a.pitch = L.pitch;
    a.plane = L.plane;
    for (int d = 0; d < 3; ++d) {
      a.lo[d] = box.lo[d];
      a.hi[d] = box.hi[d];
    }
    a.w = typed<T>(weights);
    a.w2 = typed<T>(second ? *second : weights);
    a.points = L.dims == 2 ? 5 : weights.points;
    return a;
  }
};

template <typename T>
bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
}

template <typename T, int W, int TY, int R>
void check_2d(const std::vector<Case>& cases, int max_k, std::mt19937_64& gen) {
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const Problem<T> p(2, 5, cases[i], i % 2 == 1, gen);
    for (int k = 1; k <= max_k; ++k) {
      CAPTURE(i);
      CAPTURE(k);
      std::vector<T> out = p.poisoned();
      const cuda::DevArgs<T> a = p.args(p.init, out);
      emu::launch(cuda::tblock2d_grid<W, TY * R>(a, k), dim3(W, TY),
                  [&] { cuda::tblock2d_kernel<T, W, TY, R>(a, k); });
      CHECK(same_bits(out, p.reference(k)));
    }
  }
}

template <typename T, int TY, int Points>
void check_3d(const std::vector<Case>& cases, std::mt19937_64& gen) {
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const Problem<T> p(3, Points, cases[i], i % 2 == 1, gen);
    for (int k = 1; k <= 4; ++k) {
      // Capacity 1: one z chunk; 1000: as many chunks of >= 4k planes as the depth allows.
      for (long long capacity : {1LL, 1000LL}) {
        CAPTURE(i);
        CAPTURE(k);
        CAPTURE(capacity);
        std::vector<T> out = p.poisoned();
        const cuda::DevArgs<T> a = p.args(p.init, out);
        long long chunk = 0;
        const dim3 grid = cuda::tblock3d_grid<T, TY>(a, k, capacity, chunk);
        REQUIRE(cuda::tblock3d_shared_bytes<T, TY>(k) <= sizeof(cuda::smem));
        emu::launch(grid, dim3(32, TY), [&] { cuda::tblock3d_kernel<T, TY, Points>(a, k, chunk); });
        CHECK(same_bits(out, p.reference(k)));
      }
    }
  }
}

/// The marching kernel against one and two single sweeps; `corrected`: its corrected form
/// (multigrid's prolongation fused into the first post-smoothing pass) against prolong_add's
/// formula applied to the box first; `two_weights`: the second sweep with weights of its own
/// (a source factor too), as Chebyshev smoothing steps run.
template <typename T, int BX>
void check_march2d(const std::vector<Case>& cases, std::mt19937_64& gen, bool corrected = false,
                   bool two_weights = false) {
  std::uniform_real_distribution<double> d(-1.0, 1.0);
  for (std::size_t i = 0; i < cases.size(); ++i) {
    Problem<T> p(2, 5, cases[i], i % 2 == (corrected ? 0 : 1), gen);
    if (two_weights) {
      p.second = random_weights(2, 5, gen);
      p.second->source_scale = 0.5;  // a power of two: the product is exact, fused or not
    }
    // Coarse node I on fine node 2I: enough coarse nodes for the box's last fine node.
    const Layout C = Layout::make(2, {p.L.n[0] / 2 + 1, p.L.n[1] / 2 + 1, 1},
                                  static_cast<index_t>(128 / sizeof(T)));
    std::vector<T> coarse(static_cast<std::size_t>(C.size));
    for (auto& x : coarse) x = corrected ? static_cast<T>(d(gen)) : T(0);
    const cuda::CoarseCorrection<T> correction{coarse.data(), strides_of(C)};
    std::vector<T> start = p.init;
    for (index_t y = p.box.lo[1]; corrected && y < p.box.hi[1]; ++y)
      for (index_t x = p.box.lo[0]; x < p.box.hi[0]; ++x)
        start[p.L.at(x, y, 0)] += prolong_node(coarse.data(), correction.strides, x, y, 0);
    for (int k = 1; k <= 2; ++k)
      // Chunks of 16 rows (several per column) and one chunk for the whole box.
      for (long long chunk : {16LL, 1000LL}) {
        CAPTURE(i);
        CAPTURE(k);
        CAPTURE(chunk);
        std::vector<T> out = p.poisoned();
        const cuda::DevArgs<T> a = p.args(p.init, out);
        REQUIRE(cuda::march2d_shared_bytes<T, BX>() <= sizeof(cuda::smem));
        emu::launch(cuda::march2d_grid<BX>(a, chunk), dim3(BX), [&] {
          if (corrected)
            cuda::march2d_kernel<T, BX, cuda::NoProbe<T>, cuda::CoarseCorrection<T>>(
                a, a.w2, k, chunk, nullptr, correction);
          else
            cuda::march2d_kernel<T, BX>(a, a.w2, k, chunk, nullptr);
        });
        // The kernel leaves its input uncorrected: outside the box `out` keeps init's values
        // (the nodes no sweep writes), which the reference took from `start` only inside.
        CHECK(same_bits(out, p.reference_from(start, k)));
      }
  }
}

std::vector<Case> cases_2d() {
  return {whole(1, 1),       interior(3, 3), whole(129, 65),
          whole(113, 49),    whole(37, 53),  {{40, 30, 1}, Box{{2, 1, 0}, {37, 29, 1}}},
          interior(140, 101)};
}

std::vector<Case> cases_3d() {
  return {whole(1, 1, 1),
          interior(3, 3, 3),
          whole(67, 17, 19),
          {{12, 9, 11}, Box{{2, 1, 3}, {11, 8, 10}}},
          interior(20, 26, 35)};
}

}  // namespace

TEST_CASE("emulated: 2D blocked kernel equals k single sweeps (float tiles)") {
  std::mt19937_64 gen(11);
  check_2d<float, 128, 8, 8>(cases_2d(), 8, gen);
  check_2d<float, 128, 8, 16>(cases_2d(), 16, gen);
  check_2d<float, 256, 4, 16>(cases_2d(), 8, gen);
}

TEST_CASE("emulated: 2D blocked kernel equals k single sweeps (double tiles)") {
  std::mt19937_64 gen(12);
  check_2d<double, 128, 8, 8>(cases_2d(), 8, gen);
  check_2d<double, 64, 16, 8>(cases_2d(), 16, gen);
}

TEST_CASE("emulated: 2D two-sweep marching kernel equals one and two single sweeps") {
  std::mt19937_64 gen(14);
  check_march2d<double, 32>(cases_2d(), gen);
  check_march2d<float, 128>(cases_2d(), gen);
}

TEST_CASE("emulated: 2D marching kernel with a second sweep's weights equals two single sweeps") {
  std::mt19937_64 gen(16);
  check_march2d<double, 32>(cases_2d(), gen, false, true);
  check_march2d<float, 128>(cases_2d(), gen, false, true);
  check_march2d<double, 32>(cases_2d(), gen, true, true);
}

TEST_CASE(
    "emulated: 2D marching kernel with the coarse correction equals prolongation, then sweeps") {
  std::mt19937_64 gen(15);
  check_march2d<double, 32>(cases_2d(), gen, true);
  check_march2d<float, 128>(cases_2d(), gen, true);
}

TEST_CASE("emulated: 3D blocked kernel equals k single sweeps") {
  std::mt19937_64 gen(13);
  check_3d<float, 16, 7>(cases_3d(), gen);
  check_3d<double, 16, 27>(cases_3d(), gen);
  check_3d<float, 32, 27>(cases_3d(), gen);
  check_3d<double, 32, 19>(cases_3d(), gen);
}

}  // namespace fdsolve
