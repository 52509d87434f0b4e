// Sweeps that write the x faces' ghosts themselves (SweepArgs::x_ghosts) against the halo
// fill's x pass: every kernel variant, mirrored and wrapped faces, constant and per-node
// offsets; and the Jacobi loop with and without them, bit for bit. Compiled into the unit
// tests (CPU) and the GPU tests (CUDA), as the other problem tests.
#include <random>

#include "solve_support.hpp"

using namespace fdsolve;
using namespace fdsolve::test;

TEST_SUITE_BEGIN("problems");

namespace {

struct Faces {
  const char* what;
  GhostRule lo, hi;
  bool per_node;  // per-node offsets on the mirrored faces
};

template <typename T>
std::vector<T> random_field(index_t n, std::mt19937_64& gen) {
  std::uniform_real_distribution<double> d(-1.0, 1.0);
  std::vector<T> v(static_cast<std::size_t>(n));
  for (T& x : v) x = static_cast<T>(d(gen));
  return v;
}

StencilWeights weights_for(int dims, int points) {
  StencilWeights w;
  w.points = points;
  w.center = 0.125;
  w.face = {0.11, 0.07, dims == 3 ? 0.05 : 0.0};
  w.edge = points >= 19 ? 0.013 : 0.0;
  w.corner = points == 27 ? 0.004 : 0.0;
  w.source = 0.3;
  return w;
}

/// One variant, one face pair: the sweep writing the ghosts against the same sweep followed by
/// the fill of the swept rows, over the whole buffer; and every written ghost against the
/// rule evaluated here from the swept values.
template <typename T>
void check_variant(Backend<T>& be, int dims, int points, const std::string& kernel,
                   const Faces& f, std::mt19937_64& gen) {
  const std::array<index_t, 3> n = dims == 2 ? std::array<index_t, 3>{70, 13, 1}
                                             : std::array<index_t, 3>{70, 11, 9};
  const Layout L = Layout::make(dims, n, static_cast<index_t>(128 / sizeof(T)));
  // Mirrored x faces update their boundary nodes, wrapped ones every node; y and z keep
  // Dirichlet rows (not updated: their ghosts must stay as they were).
  Box box;
  box.lo = {0, 1, dims == 3 ? 1 : 0};
  box.hi = {n[0], n[1] - 1, dims == 3 ? n[2] - 1 : 1};
  const HaloAxis hx = halo_axis(L, 0);
  std::vector<T> offsets_host = random_field<T>(hx.face_size(), gen);
  Buffer<T> offsets = be.allocate(hx.face_size());
  be.upload(offsets, offsets_host.data(), hx.face_size());

  SweepArgs<T> args;
  args.layout = L;
  args.box = box;
  args.weights = weights_for(dims, points);
  const GhostRule rules[2] = {f.lo, f.hi};
  for (int side = 0; side < 2; ++side) {
    args.x_ghosts[side].rule = rules[side];
    args.x_ghosts[side].offset = static_cast<T>(side == 0 ? 0.25 : -0.5);
    args.x_ghosts[side].offsets = f.per_node ? offsets.data() : nullptr;
  }
  const std::vector<T> in = random_field<T>(L.size, gen), out0 = random_field<T>(L.size, gen);
  Buffer<T> din = be.allocate(L.size), fused = be.allocate(L.size), after = be.allocate(L.size);
  be.upload(din, in.data(), L.size);
  be.upload(fused, out0.data(), L.size);
  be.upload(after, out0.data(), L.size);
  const KernelId id = be.find_kernel(dims, kernel);

  SweepArgs<T> a = args;
  a.in = din.data();
  a.out = fused.data();
  be.sweep(a, id);
  SweepArgs<T> b = args;
  b.in = din.data();
  b.out = after.data();
  b.x_ghosts = {};
  be.sweep(b, id);
  b.x_ghosts = args.x_ghosts;
  be.fill_halo(x_ghost_fill(b));
  std::vector<T> got(static_cast<std::size_t>(L.size)), want(got.size());
  be.download(got.data(), fused, L.size);
  be.download(want.data(), after, L.size);
  CHECK(got == want);

  // The rule itself, from the swept values: ghosts of box rows written, others untouched.
  long long written = 0, wrong = 0, touched = 0;
  for (index_t k = 0; k < n[2]; ++k)
    for (index_t j = 0; j < n[1]; ++j)
      for (int side = 0; side < 2; ++side) {
        const index_t ghost = L.at(side == 0 ? -1 : n[0], j, k);
        const bool in_box = j >= box.lo[1] && j < box.hi[1] && k >= box.lo[2] && k < box.hi[2];
        if (rules[side] == GhostRule::None || !in_box) {
          touched += got[static_cast<std::size_t>(ghost)] != out0[static_cast<std::size_t>(ghost)];
          continue;
        }
        const bool wrap = rules[side] == GhostRule::Wrap;
        const index_t from = wrap ? (side == 0 ? n[0] - 1 : 0) : (side == 0 ? 1 : n[0] - 2);
        const T add = wrap          ? T(0)
                      : f.per_node ? offsets_host[static_cast<std::size_t>(hx.face_index(j, k))]
                                    : args.x_ghosts[side].offset;
        const T expect = static_cast<T>(got[static_cast<std::size_t>(L.at(from, j, k))] + add);
        ++written;
        wrong += got[static_cast<std::size_t>(ghost)] != expect;
      }
  CHECK(written > 0);
  CHECK(wrong == 0);
  CHECK(touched == 0);
}

}  // namespace

PROBLEM_TEST("x ghosts written by the sweep equal the fill's x pass, every variant") {
  const std::vector<Faces> faces = {{"mirror both", GhostRule::Mirror, GhostRule::Mirror, false},
                                    {"wrap", GhostRule::Wrap, GhostRule::Wrap, false},
                                    {"mirror x_min per node", GhostRule::Mirror, GhostRule::None,
                                     true},
                                    {"mirror x_max per node", GhostRule::None, GhostRule::Mirror,
                                     true}};
  std::mt19937_64 gen(11);
  for (int dims : {2, 3}) {
    for (int points : dims == 2 ? std::vector<int>{5} : std::vector<int>{7, 27}) {
      auto be_f = backend_for_test<float>();
      auto be_d = backend_for_test<double>();
      for (const std::string& kernel : be_f->kernels(dims))
        for (const Faces& f : faces) {
          CAPTURE(dims);
          CAPTURE(points);
          CAPTURE(kernel);
          CAPTURE(f.what);
          check_variant<float>(*be_f, dims, points, kernel, f, gen);
          check_variant<double>(*be_d, dims, points, kernel, f, gen);
        }
    }
  }
}

namespace {

template <typename T>
void check_loop_same(const std::string& yaml) {
  SolveOptions filled;
  filled.sweeps_write_x_ghosts = false;
  const Solved a = solve_text<T>(yaml, filled);
  const Solved b = solve_text<T>(yaml, SolveOptions{});
  CHECK(a.result.iterations == b.result.iterations);
  CHECK(a.result.norm_l2 == b.result.norm_l2);
  CHECK(a.result.norm_linf == b.result.norm_linf);
  CHECK(a.u() == b.u());
}

}  // namespace

PROBLEM_TEST("x ghosts in the sweep: the 3D loop is bit-identical to filling them") {
  const std::string base =
      "grid: {points: [37, 14, 11]}\n"
      "problem: {equation: poisson, source: \"x - y*z\"}\n"
      "solve: {method: jacobi, tolerance: 0, max_iterations: 203, check_every: 50}\n";
  // Neumann x faces (a constant and a varying gradient) beside Dirichlet and Neumann y/z faces;
  // a periodic x axis beside Neumann z faces; 7 and 27 points (edges and corners read them).
  const std::vector<std::string> boundaries = {
      "boundary:\n"
      "  default: {type: dirichlet, value: \"x + 2*y\"}\n"
      "  x_min: {type: neumann, gradient: 0.5}\n"
      "  x_max: {type: neumann, gradient: \"y - z\"}\n"
      "  y_min: {type: neumann, gradient: 0}\n",
      "boundary:\n"
      "  default: {type: neumann, gradient: \"0.1*y\"}\n"
      "  x_min: {type: periodic}\n"
      "  x_max: {type: periodic}\n"
      "  y_max: {type: dirichlet, value: 1}\n"};
  for (const std::string& b : boundaries)
    for (const char* stencil : {"7", "27"}) {
      CAPTURE(b);
      CAPTURE(stencil);
      check_loop_same<double>(base + b + "stencil: " + stencil + "\n");
      check_loop_same<float>(base + b + "stencil: " + stencil + "\n");
    }
}
