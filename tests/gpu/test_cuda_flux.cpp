// The variable-coefficient operator (flux_operator.hpp) on the GPU against the CPU reference:
// random positive faces (halo included) with held nodes, every sweep mode, the statistics of
// checked sweeps over the nodes that are not held (whole and split), the masked linear
// combination and the weighted inner product, and bit-for-bit determinism; with a per-node
// diagonal (FluxOperator::diagonal) the same, and a constant one gives the bits of alpha.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "backend.hpp"

namespace fdsolve {
namespace {

template <typename T>
constexpr double eps() {
  return std::numeric_limits<T>::epsilon();
}

/// Relative tolerance of the statistics' sums (reduced in another order than the CPU's).
template <typename T>
constexpr double stats_rel() {
  return sizeof(T) == 4 ? 1e-5 : 1e-10;
}

/// Ulps of a node's scale (node_scale below) a GPU node may differ by: FMA contraction
/// rounds the dozen operations of the update differently from the CPU.
constexpr double kNodeUlps = 32;

template <typename T>
bool same_bits(T a, T b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

template <typename T>
std::vector<T> random_values(index_t n, std::mt19937_64& gen, double lo, double hi) {
  std::uniform_real_distribution<double> dist(lo, hi);
  std::vector<T> v(static_cast<std::size_t>(n));
  for (auto& x : v) x = static_cast<T>(dist(gen));
  return v;
}

struct Shape {
  int dims;
  std::array<index_t, 3> n;  // owned nodes
  Box box;
};

std::vector<Shape> shapes() {
  return {{2, {67, 45, 1}, Box{{0, 0, 0}, {67, 45, 1}}},
          {2, {67, 45, 1}, Box{{3, 2, 0}, {61, 44, 1}}},  // strict sub-box
          {3, {33, 29, 21}, Box{{0, 0, 0}, {33, 29, 21}}},
          {3, {33, 29, 21}, Box{{1, 2, 3}, {30, 29, 17}}}};
}

std::string describe(const Shape& s) {
  std::ostringstream what;
  what << s.dims << "D, owned " << s.n[0] << "x" << s.n[1] << "x" << s.n[2] << ", box lo "
       << s.box.lo[0] << "," << s.box.lo[1] << "," << s.box.lo[2] << " hi " << s.box.hi[0] << ","
       << s.box.hi[1] << "," << s.box.hi[2];
  return what.str();
}

/// One problem on the host: fields and faces over the whole buffer, halo included, and where
/// the box's nodes are.
template <typename T>
struct Problem {
  int dims = 2;
  Layout L;
  Box box;
  std::vector<T> u, f, face[3];
  std::vector<char> in_box;  // per element: a node of box
  index_t free_nodes = 0;    // box nodes that are not held

  bool held(index_t e) const { return face[0][e] < T(0); }
};

template <typename T>
Problem<T> make_problem(const Shape& s, std::mt19937_64& gen) {
  Problem<T> p;
  p.dims = s.dims;
  p.L = Layout::make(s.dims, s.n, static_cast<index_t>(128 / sizeof(T)));
  p.box = s.box;
  p.u = random_values<T>(p.L.size, gen, -1.0, 1.0);
  p.f = random_values<T>(p.L.size, gen, -1.0, 1.0);
  for (int a = 0; a < s.dims; ++a) p.face[a] = random_values<T>(p.L.size, gen, 0.25, 2.0);
  // About one owned node in eight held (the box's and those around it), the box's first node
  // always.
  std::bernoulli_distribution held(0.125);
  const Layout& L = p.L;
  for (index_t k = 0; k < L.n[2]; ++k)
    for (index_t j = 0; j < L.n[1]; ++j)
      for (index_t i = 0; i < L.n[0]; ++i)
        if (held(gen)) p.face[0][L.at(i, j, k)] *= T(-1);
  T& first = p.face[0][L.at(s.box.lo[0], s.box.lo[1], s.box.lo[2])];
  if (first > T(0)) first = -first;
  p.in_box.assign(static_cast<std::size_t>(L.size), 0);
  for (index_t k = s.box.lo[2]; k < s.box.hi[2]; ++k)
    for (index_t j = s.box.lo[1]; j < s.box.hi[1]; ++j)
      for (index_t i = s.box.lo[0]; i < s.box.hi[0]; ++i) {
        const index_t c = L.at(i, j, k);
        p.in_box[c] = 1;
        if (!p.held(c)) ++p.free_nodes;
      }
  return p;
}

/// The problem's arrays in device memory.
template <typename T>
struct DeviceProblem {
  Buffer<T> u, f, out, face[3];
};

template <typename T>
DeviceProblem<T> upload(Backend<T>& gpu, const Problem<T>& p) {
  DeviceProblem<T> d;
  const index_t n = p.L.size;
  d.u = gpu.allocate(n);
  d.f = gpu.allocate(n);
  d.out = gpu.allocate(n);
  gpu.upload(d.u, p.u.data(), n);
  gpu.upload(d.f, p.f.data(), n);
  for (int a = 0; a < p.dims; ++a) {
    d.face[a] = gpu.allocate(n);
    gpu.upload(d.face[a], p.face[a].data(), n);
  }
  return d;
}

/// A sweep mode (flux_operator.hpp) and where its f comes from.
enum class Source { Field, Constant, Zero };
struct Mode {
  const char* name;
  double keep, step, relax;
  Source source;
};

const Mode kModes[] = {{"smoothing", 1, 0, 0.8, Source::Field},
                       {"residual", 0, 1, 0, Source::Field},
                       {"explicit step", 1, 1e-3, 0, Source::Constant},
                       {"apply", 0, -1, 0, Source::Zero}};

constexpr double kConstantSource = 0.3;

template <typename T>
FluxOperator<T> flux_op(const T* fx, const T* fy, const T* fz, double alpha, const Mode& m) {
  FluxOperator<T> op;
  op.face[0] = fx;
  op.face[1] = fy;
  op.face[2] = fz;
  op.c = {1.3, 0.7, fz ? 0.9 : 0.0};
  op.alpha = alpha;
  op.keep = m.keep;
  op.step = m.step;
  op.relax = m.relax;
  return op;
}

/// The sum of the magnitudes of the terms of node c's update: the scale of its rounding error.
template <typename T>
double node_scale(const Problem<T>& p, const FluxOperator<T>& op, index_t c, double f) {
  const index_t stride[3] = {1, p.L.pitch, p.L.plane};
  double diag = op.alpha + (op.diagonal ? std::fabs(double(op.diagonal[c])) : 0.0), nb = 0;
  for (int a = 0; a < p.dims; ++a) {
    const double lo = std::fabs(double(p.face[a][c - stride[a]])),
                 hi = std::fabs(double(p.face[a][c]));
    diag += op.c[a] * (lo + hi);
    nb += op.c[a] *
          (lo * std::fabs(double(p.u[c - stride[a]])) + hi * std::fabs(double(p.u[c + stride[a]])));
  }
  const double coef = std::fabs(op.step + op.relax / diag);
  return std::fabs(op.keep * p.u[c]) +
         coef * (std::fabs(f) + diag * std::fabs(double(p.u[c])) + nb);
}

/// Every node of the box (held: bit-identical, else within kNodeUlps of its magnitude) and
/// the sentinel everywhere else; returns the largest node tolerance.
template <typename T>
double check_field(const Problem<T>& p, const FluxOperator<T>& hop, const Mode& m,
                   const std::vector<T>& got, const std::vector<T>& ref, T sentinel) {
  index_t bad = 0, first_bad = -1;
  double worst_tol = 0;
  for (index_t e = 0; e < p.L.size; ++e) {
    bool ok;
    if (!p.in_box[e]) {
      ok = same_bits(got[e], sentinel) && same_bits(ref[e], sentinel);
    } else if (p.held(e)) {
      ok = same_bits(got[e], ref[e]);
    } else {
      const double f = m.source == Source::Field      ? double(p.f[e])
                       : m.source == Source::Constant ? kConstantSource
                                                      : 0.0;
      const double tol = kNodeUlps * eps<T>() * node_scale(p, hop, e, f);
      worst_tol = std::max(worst_tol, tol);
      ok = std::fabs(double(got[e]) - double(ref[e])) <= tol;
    }
    if (!ok && bad++ == 0) first_bad = e;
  }
  INFO("first bad element ", first_bad, " of ", bad, ": gpu ",
       first_bad >= 0 ? double(got[first_bad]) : 0.0, " cpu ",
       first_bad >= 0 ? double(ref[first_bad]) : 0.0,
       first_bad >= 0 && p.held(first_bad) ? " (held)" : "");
  CHECK(bad == 0);
  return worst_tol;
}

/// GPU statistics against the CPU's; `tol` bounds a node's difference, `abs_sum` is the sum
/// of |u'| over the nodes counted.
void check_stats(const SweepStats& gs, const SweepStats& cs, double rel, double tol,
                 double abs_sum) {
  const double n = static_cast<double>(cs.count);
  CHECK(gs.count == cs.count);
  // sum of d^2 moves by at most 2 tol sum |d| <= 2 tol sqrt(n sum d^2).
  CHECK(std::fabs(gs.sum_sq - cs.sum_sq) <= rel * cs.sum_sq + 2 * tol * std::sqrt(n * cs.sum_sq));
  CHECK(std::fabs(gs.max_abs - cs.max_abs) <= rel * cs.max_abs + tol);
  CHECK(std::fabs(gs.min - cs.min) <= tol);
  CHECK(std::fabs(gs.max - cs.max) <= tol);
  CHECK(std::fabs(gs.sum - cs.sum) <= rel * abs_sum + n * tol);
}

template <typename T>
bool same_stats(const SweepStats& a, const SweepStats& b) {
  return a.count == b.count && same_bits(a.sum_sq, b.sum_sq) && same_bits(a.max_abs, b.max_abs) &&
         same_bits(a.min, b.min) && same_bits(a.max, b.max) && same_bits(a.sum, b.sum);
}

template <typename T>
void check_sweep(Backend<T>& gpu, Backend<T>& cpu, const Problem<T>& p, DeviceProblem<T>& d,
                 double alpha, const Mode& m, const T* host_diagonal = nullptr,
                 const T* device_diagonal = nullptr) {
  const Layout& L = p.L;
  const int dims = p.dims;
  SweepArgs<T> base;
  base.layout = L;
  base.box = p.box;
  base.weights.points = dims == 2 ? 5 : 7;
  base.weights.source = m.source == Source::Constant ? kConstantSource : 0.0;

  const T sentinel = T(12345.5);
  std::vector<T> poison(static_cast<std::size_t>(L.size), sentinel);
  for (index_t e = 0; e < L.size; ++e)
    if (p.in_box[e]) poison[e] = std::numeric_limits<T>::quiet_NaN();

  // CPU reference.
  FluxOperator<T> hop = flux_op<T>(p.face[0].data(), p.face[1].data(),
                                   dims == 3 ? p.face[2].data() : nullptr, alpha, m);
  hop.diagonal = host_diagonal;
  std::vector<T> ref = poison;
  SweepArgs<T> ca = base;
  ca.in = p.u.data();
  ca.out = ref.data();
  ca.source_field = m.source == Source::Field ? p.f.data() : nullptr;
  ca.flux = hop;
  const SweepStats cs = cpu.sweep_with_stats(ca, cpu.find_kernel(dims, "omp"));

  // The GPU: the variant named is ignored.
  SweepArgs<T> ga = base;
  ga.in = d.u.data();
  ga.out = d.out.data();
  ga.source_field = m.source == Source::Field ? d.f.data() : nullptr;
  ga.flux = flux_op<T>(d.face[0].data(), d.face[1].data(), dims == 3 ? d.face[2].data() : nullptr,
                       alpha, m);
  ga.flux.diagonal = device_diagonal;
  const KernelId id = gpu.find_kernel(dims, gpu.default_kernel(dims));
  std::vector<T> got(static_cast<std::size_t>(L.size)), again(got.size()), plain(got.size());
  gpu.upload(d.out, poison.data(), L.size);
  const SweepStats gs = gpu.sweep_with_stats(ga, id);
  gpu.download(got.data(), d.out, L.size);
  const double tol = check_field(p, hop, m, got, ref, sentinel);

  // Statistics over the nodes that are not held.
  double abs_sum = 0;
  for (index_t e = 0; e < L.size; ++e)
    if (p.in_box[e] && !p.held(e)) abs_sum += std::fabs(double(ref[e]));
  CHECK(cs.count == p.free_nodes);
  check_stats(gs, cs, stats_rel<T>(), tol, abs_sum);

  // Determinism, and the unchecked sweep writes the same field.
  gpu.upload(d.out, poison.data(), L.size);
  const SweepStats gs2 = gpu.sweep_with_stats(ga, id);
  gpu.download(again.data(), d.out, L.size);
  CHECK(same_stats<T>(gs, gs2));
  gpu.upload(d.out, poison.data(), L.size);
  gpu.sweep(ga, id);
  gpu.synchronize();
  gpu.download(plain.data(), d.out, L.size);
  CHECK(std::memcmp(got.data(), again.data(), got.size() * sizeof(T)) == 0);
  CHECK(std::memcmp(got.data(), plain.data(), got.size() * sizeof(T)) == 0);

  // Split into pieces: a constant-weight sweep of the whole box first (its statistics count
  // every node), then the two halves along y with an empty piece between: each slot keeps
  // its own kind.
  const index_t mid = (p.box.lo[1] + p.box.hi[1]) / 2;
  SweepArgs<T> lower = ga, upper = ga, empty = ga, weighted = ga;
  lower.box.hi[1] = mid;
  upper.box.lo[1] = mid;
  empty.box.hi[0] = empty.box.lo[0];
  weighted.flux = FluxOperator<T>{};
  weighted.weights.face = {0.2, 0.2, dims == 3 ? 0.2 : 0.0};
  for (const SweepArgs<T>* piece : {&weighted, &lower, &empty, &upper})
    gpu.smooth({*piece, 1, id, false, nullptr, PassStats::Queued});
  const std::vector<SweepStats> pieces = gpu.collect_stats();
  REQUIRE(pieces.size() == 4);
  CHECK(pieces[0].count == p.box.cells());
  CHECK(pieces[2].count == 0);
  SweepStats merged = pieces[1];
  merged.merge(pieces[3]);
  check_stats(merged, cs, stats_rel<T>(), tol, abs_sum);
  // The flux pieces wrote the same values as the whole sweep, over the weighted one's.
  gpu.download(plain.data(), d.out, L.size);
  index_t differ = 0;
  for (index_t e = 0; e < L.size; ++e)
    if (p.in_box[e] && !same_bits(plain[e], got[e])) ++differ;
  CHECK(differ == 0);

  // Single sweeps only.
  CHECK_THROWS_AS(
      gpu.smooth({ga, 2, gpu.find_step_kernel(dims, gpu.default_step_kernel(dims)), true}),
      BackendError);
}

template <typename T>
void check_combine(Backend<T>& gpu, Backend<T>& cpu, const Problem<T>& p, DeviceProblem<T>& d,
                   std::mt19937_64& gen, bool masked) {
  CAPTURE(masked);
  const index_t n = p.L.size;
  const std::vector<T> x = random_values<T>(n, gen, -1.0, 1.0);
  const std::vector<T> y0 = random_values<T>(n, gen, -1.0, 1.0);
  std::vector<T> ref = y0, got(y0.size());
  LinearCombinationArgs<T> h;
  h.y = ref.data();
  h.x = x.data();
  h.a = 0.7;
  h.b = -1.3;
  h.held_face = masked ? p.face[0].data() : nullptr;
  h.layout = p.L;
  h.box = p.box;
  cpu.flux_operations()->combine(h);

  Buffer<T> dx = gpu.allocate(n), dy = gpu.allocate(n);
  gpu.upload(dx, x.data(), n);
  gpu.upload(dy, y0.data(), n);
  LinearCombinationArgs<T> g = h;
  g.y = dy.data();
  g.x = dx.data();
  g.held_face = masked ? d.face[0].data() : nullptr;
  gpu.flux_operations()->combine(g);
  gpu.synchronize();
  gpu.download(got.data(), dy, n);

  index_t bad = 0, first_bad = -1, updated = 0;
  for (index_t e = 0; e < n; ++e) {
    bool ok;
    if (p.in_box[e] && !(masked && p.held(e))) {
      const double tol =
          4 * eps<T>() * (0.7 * std::fabs(double(x[e])) + 1.3 * std::fabs(double(y0[e])));
      ok = std::fabs(double(got[e]) - double(ref[e])) <= tol;
      ++updated;
    } else {
      ok = same_bits(got[e], y0[e]) && same_bits(ref[e], y0[e]);
    }
    if (!ok && bad++ == 0) first_bad = e;
  }
  INFO("first bad element ", first_bad, " of ", bad);
  CHECK(bad == 0);
  CHECK(updated == (masked ? p.free_nodes : p.box.cells()));
}

template <typename T>
void check_dot(Backend<T>& gpu, Backend<T>& cpu, const Problem<T>& p, std::mt19937_64& gen,
               const std::array<bool, 6>& half) {
  const index_t n = p.L.size;
  const std::vector<T> a = random_values<T>(n, gen, -1.0, 1.0);
  const std::vector<T> b = random_values<T>(n, gen, -1.0, 1.0);
  DotArgs<T> h;
  h.a = a.data();
  h.b = b.data();
  h.layout = p.L;
  h.box = p.box;
  h.half = half;
  // The terms summed exactly (exact_sum.hpp): the GPU's digits are the CPU's, bit for bit, at
  // the scale of the largest term and at a scale that rounds most terms away.
  const double largest = cpu.flux_operations()->dot_terms(h, 0).largest;
  Buffer<T> da = gpu.allocate(n), db = gpu.allocate(n);
  gpu.upload(da, a.data(), n);
  gpu.upload(db, b.data(), n);
  DotArgs<T> g = h;
  g.a = da.data();
  g.b = db.data();
  for (int scale : {78 - std::ilogb(largest), 3}) {
    const DotPartial want = cpu.flux_operations()->dot_terms(h, scale);
    const DotPartial got = gpu.flux_operations()->dot_terms(g, scale);
    CAPTURE(scale);
    for (int d = 0; d < 3; ++d) CHECK(got.digit[d] == want.digit[d]);
    CHECK(same_bits(got.largest, want.largest));
  }
  DotArgs<T> none = g;
  none.box.hi[1] = none.box.lo[1];
  const DotPartial empty = gpu.flux_operations()->dot_terms(none, 10);
  CHECK((empty.digit[0] == 0 && empty.digit[1] == 0 && empty.digit[2] == 0));
  CHECK(empty.largest == 0.0);
}

/// On the GPU, a diagonal array equal to `value` everywhere with alpha 0 writes the bits of
/// alpha = value, checked (one thread per node) and unchecked (the marching kernel).
template <typename T>
void check_constant_diagonal(Backend<T>& gpu, const Problem<T>& p, DeviceProblem<T>& d,
                             const Mode& m) {
  const double value = 2.75;
  const index_t n = p.L.size;
  const std::vector<T> constant(static_cast<std::size_t>(n), T(value));
  Buffer<T> dd = gpu.allocate(n);
  gpu.upload(dd, constant.data(), n);
  const T* fz = p.dims == 3 ? d.face[2].data() : nullptr;
  SweepArgs<T> a;
  a.layout = p.L;
  a.box = p.box;
  a.weights.points = p.dims == 2 ? 5 : 7;
  a.weights.source = m.source == Source::Constant ? kConstantSource : 0.0;
  a.in = d.u.data();
  a.out = d.out.data();
  a.source_field = m.source == Source::Field ? d.f.data() : nullptr;
  const KernelId id = gpu.find_kernel(p.dims, gpu.default_kernel(p.dims));
  const std::vector<T> zero(static_cast<std::size_t>(n), T(0));
  std::vector<T> results[4];
  int r = 0;
  for (bool array : {false, true})
    for (bool checked : {false, true}) {
      SweepArgs<T> s = a;
      s.flux = flux_op<T>(d.face[0].data(), d.face[1].data(), fz, array ? 0.0 : value, m);
      if (array) s.flux.diagonal = dd.data();
      gpu.upload(d.out, zero.data(), n);
      if (checked)
        gpu.sweep_with_stats(s, id);
      else
        gpu.sweep(s, id);
      gpu.synchronize();
      results[r].resize(static_cast<std::size_t>(n));
      gpu.download(results[r].data(), d.out, n);
      ++r;
    }
  const std::size_t bytes = static_cast<std::size_t>(n) * sizeof(T);
  CHECK(std::memcmp(results[0].data(), results[2].data(), bytes) == 0);  // unchecked
  CHECK(std::memcmp(results[1].data(), results[3].data(), bytes) == 0);  // checked
}

}  // namespace

TEST_CASE_TEMPLATE("gpu: the flux sweep with a per-node diagonal matches the CPU", T, float,
                   double) {
  auto gpu = make_cuda_backend<T>(0);
  auto cpu = make_cpu_backend<T>();
  std::mt19937_64 gen(8080 + sizeof(T));
  for (const Shape& s : shapes()) {
    CAPTURE(describe(s));
    const Problem<T> p = make_problem<T>(s, gen);
    DeviceProblem<T> d = upload(*gpu, p);
    const std::vector<T> diagonal = random_values<T>(p.L.size, gen, 0.0, 4.0);
    Buffer<T> dd = gpu->allocate(p.L.size);
    gpu->upload(dd, diagonal.data(), p.L.size);
    for (const Mode& m : kModes) {
      CAPTURE(std::string(m.name));
      check_sweep<T>(*gpu, *cpu, p, d, 0.5, m, diagonal.data(), dd.data());
      check_constant_diagonal<T>(*gpu, p, d, m);
    }
  }
}

TEST_CASE_TEMPLATE("gpu: the flux sweep matches the CPU in every mode", T, float, double) {
  auto gpu = make_cuda_backend<T>(0);
  auto cpu = make_cpu_backend<T>();
  std::mt19937_64 gen(4242 + sizeof(T));
  for (const Shape& s : shapes()) {
    CAPTURE(describe(s));
    const Problem<T> p = make_problem<T>(s, gen);
    DeviceProblem<T> d = upload(*gpu, p);
    for (double alpha : {0.0, 2.5}) {
      CAPTURE(alpha);
      for (const Mode& m : kModes) {
        CAPTURE(std::string(m.name));
        check_sweep<T>(*gpu, *cpu, p, d, alpha, m);
      }
    }
  }
}

TEST_CASE_TEMPLATE("gpu: flux combine and dot match the CPU", T, float, double) {
  auto gpu = make_cuda_backend<T>(0);
  auto cpu = make_cpu_backend<T>();
  std::mt19937_64 gen(977 + sizeof(T));
  for (const Shape& s : shapes()) {
    CAPTURE(describe(s));
    const Problem<T> p = make_problem<T>(s, gen);
    DeviceProblem<T> d = upload(*gpu, p);
    check_combine<T>(*gpu, *cpu, p, d, gen, false);
    check_combine<T>(*gpu, *cpu, p, d, gen, true);
    check_dot<T>(*gpu, *cpu, p, gen, {false, false, false, false, false, false});
    check_dot<T>(*gpu, *cpu, p, gen, {true, false, true, true, false, true});
  }
}

}  // namespace fdsolve
