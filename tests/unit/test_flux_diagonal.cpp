// The flux operator's per-node diagonal (FluxOperator::diagonal) on the CPU: an array equal to d
// everywhere with alpha 0 gives the bits of alpha = d in every form (faces 2D and 3D, the
// neighbour classes, the general stencil) and every sweep mode, and a varying array adds
// diagonal[i] u_i to A u as computed here by hand from the faces.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "backend.hpp"
#include "cpu/stencil_cpu.hpp"

using namespace fdsolve;

namespace {

template <typename T>
std::vector<T> random_values(index_t n, std::mt19937_64& gen, double lo, double hi) {
  std::uniform_real_distribution<double> dist(lo, hi);
  std::vector<T> v(static_cast<std::size_t>(n));
  for (auto& x : v) x = static_cast<T>(dist(gen));
  return v;
}

enum class Form { Faces, Neighbour, General };

struct Mode {
  const char* name;
  double keep, step, relax;
};

const Mode kModes[] = {{"smoothing", 1, 0, 0.8},
                       {"residual", 0, 1, 0},
                       {"explicit step", 1, 1e-3, 0},
                       {"apply", 0, -1, 0}};

/// Random faces (about one node in eight held), u, f, and a 3^dims general stencil whose
/// centres are positive (negative on the held rows).
template <typename T>
struct Data {
  Layout L;
  std::vector<T> u, f, face[3], stencil;
};

template <typename T>
Data<T> make_data(int dims, std::mt19937_64& gen) {
  Data<T> d;
  d.L = Layout::make(dims, {19, 13, dims == 3 ? 11 : 1}, static_cast<index_t>(128 / sizeof(T)));
  const index_t n = d.L.size;
  d.u = random_values<T>(n, gen, -1.0, 1.0);
  d.f = random_values<T>(n, gen, -1.0, 1.0);
  for (int a = 0; a < 3; ++a) d.face[a] = random_values<T>(n, gen, 0.25, 2.0);
  std::bernoulli_distribution held(0.125);
  for (index_t e = 0; e < n; ++e)
    if (held(gen)) d.face[0][e] = -d.face[0][e];
  const int points = dims == 2 ? 9 : 27;
  d.stencil = random_values<T>(n * points, gen, -0.3, 0.1);
  const int centre = stencil_centre(dims);
  for (index_t e = 0; e < n; ++e)
    d.stencil[centre * n + e] = d.face[0][e] < T(0) ? T(-1) : T(3) + std::fabs(d.face[1][e]);
  return d;
}

template <typename T>
FluxOperator<T> make_op(const Data<T>& d, Form form, const Mode& m) {
  FluxOperator<T> op;
  const int dims = d.L.dims;
  op.keep = m.keep;
  op.step = m.step;
  op.relax = m.relax;
  if (form == Form::General) {
    op.stencil = d.stencil.data();
    op.stencil_stride = d.L.size;
    return op;
  }
  for (int a = 0; a < dims; ++a) op.face[a] = d.face[a].data();
  op.c = {1.3, 0.7, dims == 3 ? 0.9 : 0.0};
  if (form == Form::Neighbour) op.neighbour = {0.4, 0.15, 0.05};
  return op;
}

template <typename T>
std::vector<T> sweep(const Data<T>& d, const FluxOperator<T>& op, bool source_field) {
  std::vector<T> out(static_cast<std::size_t>(d.L.size), T(-7));
  SweepArgs<T> a;
  a.in = d.u.data();
  a.out = out.data();
  a.layout = d.L;
  a.box = d.L.owned_box();
  a.weights.points = d.L.dims == 2 ? 5 : 7;
  a.weights.source = source_field ? 0.0 : 0.3;
  a.source_field = source_field ? d.f.data() : nullptr;
  a.flux = op;
  SweepStats s;
  cpu::sweep(a, &s);
  return out;
}

template <typename T>
void check_constant_diagonal(int dims, Form form) {
  std::mt19937_64 gen(31 + dims + 7 * static_cast<int>(form) + sizeof(T));
  const Data<T> d = make_data<T>(dims, gen);
  const double value = 2.75;
  // The general form has no alpha: its reference raises the centres by the same value.
  Data<T> raised = d;
  const int centre = stencil_centre(dims);
  for (index_t e = 0; e < d.L.size; ++e)
    if (raised.stencil[centre * d.L.size + e] > T(0))
      raised.stencil[centre * d.L.size + e] += T(value);
  const std::vector<T> diagonal(static_cast<std::size_t>(d.L.size), T(value));
  for (const Mode& m : kModes)
    for (bool field : {false, true}) {
      CAPTURE(std::string(m.name));
      CAPTURE(field);
      FluxOperator<T> with_alpha = make_op(form == Form::General ? raised : d, form, m);
      with_alpha.alpha = value;
      FluxOperator<T> with_array = make_op(d, form, m);
      with_array.diagonal = diagonal.data();
      const std::vector<T> want = sweep(form == Form::General ? raised : d, with_alpha, field);
      const std::vector<T> got = sweep(d, with_array, field);
      CHECK(std::memcmp(want.data(), got.data(), want.size() * sizeof(T)) == 0);
      // And the array changes the result (the test could fail).
      const std::vector<T> without = sweep(d, make_op(d, form, m), field);
      CHECK(std::memcmp(without.data(), got.data(), got.size() * sizeof(T)) != 0);
    }
}

}  // namespace

TEST_CASE_TEMPLATE("flux diagonal: a constant array gives the bits of alpha", T, float, double) {
  for (int dims : {2, 3}) {
    CAPTURE(dims);
    check_constant_diagonal<T>(dims, Form::Faces);
    check_constant_diagonal<T>(dims, Form::General);
  }
  check_constant_diagonal<T>(3, Form::Neighbour);
}

TEST_CASE("flux diagonal: a varying array adds diagonal[i] u_i to A u (by hand)") {
  std::mt19937_64 gen(5150);
  for (int dims : {2, 3}) {
    CAPTURE(dims);
    const Data<double> d = make_data<double>(dims, gen);
    const Layout& L = d.L;
    const std::vector<double> diagonal = random_values<double>(L.size, gen, 0.0, 5.0);
    const Mode apply{"apply", 0, -1, 0};
    FluxOperator<double> op = make_op(d, Form::Faces, apply);
    op.alpha = 0.5;
    op.diagonal = diagonal.data();
    const std::vector<double> got = sweep(d, op, false);  // f 0.3: out = A u - 0.3
    const index_t stride[3] = {1, L.pitch, L.plane};
    index_t checked = 0;
    for (index_t k = 0; k < L.n[2]; ++k)
      for (index_t j = 0; j < L.n[1]; ++j)
        for (index_t i = 0; i < L.n[0]; ++i) {
          const index_t c = L.at(i, j, k);
          if (d.face[0][c] < 0) {
            CHECK(got[c] == 0.0);  // held: keep 0
            continue;
          }
          double au = (0.5 + diagonal[c]) * d.u[c];
          for (int a = 0; a < dims; ++a) {
            const double lo = std::fabs(d.face[a][c - stride[a]]), hi = std::fabs(d.face[a][c]);
            au += op.c[a] * (lo * (d.u[c] - d.u[c - stride[a]]) + hi * (d.u[c] - d.u[c + stride[a]]));
          }
          CHECK(got[c] == doctest::Approx(au - 0.3).epsilon(1e-13));
          ++checked;
        }
    CHECK(checked > L.owned_cells() / 2);
  }
}
