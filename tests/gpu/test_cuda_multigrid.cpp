// Multigrid on CUDA against the CPU: the transfers on random fields (2D and 3D, odd sizes,
// periodic wraps through the halo), and whole cycles (full multigrid, then V and W cycles) for
// each stencil and face type, within rounding of each other; CUDA repeats bit-identical.
#include <doctest/doctest.h>

#include <cmath>
#include <random>
#include <vector>

#include "case_reader.hpp"
#include "loop/jacobi.hpp"
#include "multigrid/stencil_hierarchy.hpp"
#include "problem/boundary_conditions.hpp"
#include "tuning/case_kernel.hpp"

namespace fdsolve {
namespace {

template <typename T>
std::vector<T> random_values(index_t n, unsigned seed) {
  std::vector<T> v(static_cast<std::size_t>(n));
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  for (auto& x : v) x = static_cast<T>(unit(rng));
  return v;
}

/// Runs a transfer on `be` from random `from` onto a `to` prefilled with random values.
template <typename T>
std::vector<T> transfer_on(Backend<T>& be, TransferArgs<T> t, bool restrict, index_t from_size,
                           index_t to_size) {
  Buffer<T> from = be.allocate(from_size), to = be.allocate(to_size);
  be.upload(from, random_values<T>(from_size, 1).data(), from_size);
  be.upload(to, random_values<T>(to_size, 2).data(), to_size);
  t.from = from.data();
  t.to = to.data();
  if (restrict)
    be.restrict_to_coarse(t);
  else if (t.rules[0] != GhostRule::None || t.rules[1] != GhostRule::None)
    be.prolong_cubic_add(t);
  else
    be.prolong_add(t);
  std::vector<T> out(static_cast<std::size_t>(to_size));
  be.download(out.data(), to, to_size);
  return out;
}

template <typename T>
void check_transfers(int dims, index_t n) {
  auto cpu = make_cpu_backend<T>();
  auto gpu = make_cuda_backend<T>(0);
  const index_t nc = (n - 1) / 2 + 1;
  TransferArgs<T> t;
  t.fine = Layout::make(dims, {n, n + 2, dims == 3 ? n : 1}, 128 / sizeof(T));
  t.coarse = Layout::make(dims, {nc, nc + 1, dims == 3 ? nc : 1}, 128 / sizeof(T));
  t.scale = 0.25;
  const double tol = sizeof(T) == 4 ? 1e-6 : 1e-14;
  for (const bool restrict : {true, false}) {
    const Layout& to = restrict ? t.coarse : t.fine;
    const Layout& from = restrict ? t.fine : t.coarse;
    t.box = to.owned_box();  // reaches into the source's halo: random values there too
    const auto a = transfer_on(*cpu, t, restrict, from.size, to.size);
    const auto b = transfer_on(*gpu, t, restrict, from.size, to.size);
    double worst = 0;
    for (std::size_t i = 0; i < a.size(); ++i) worst = std::max(worst, std::fabs(double(a[i]) - b[i]));
    INFO(dims, "D n = ", n, restrict ? " restriction" : " prolongation");
    CHECK(worst <= tol);
    if (!restrict) {
      // Cubic prolongation, folding beyond mirrored x faces and odd Dirichlet y faces.
      TransferArgs<T> c = t;
      c.rules[0] = c.rules[1] = GhostRule::Mirror;
      const auto ca = transfer_on(*cpu, c, false, from.size, to.size);
      const auto cb = transfer_on(*gpu, c, false, from.size, to.size);
      double cubic_worst = 0;
      for (std::size_t i = 0; i < ca.size(); ++i)
        cubic_worst = std::max(cubic_worst, std::fabs(double(ca[i]) - cb[i]));
      INFO(dims, "D n = ", n, " cubic prolongation");
      CHECK(cubic_worst <= 4 * tol);
      // Boxes that start and end on odd and even fine nodes: the kernel's threads take a
      // coarse cell's fine nodes each, and skip those outside the box. Nodes outside stay.
      for (const Box box : {Box{{1, 1, dims == 3 ? 1 : 0}, {n - 1, n + 1, dims == 3 ? n - 1 : 1}},
                            Box{{2, 3, dims == 3 ? 3 : 0}, {n - 2, n - 1, dims == 3 ? n - 2 : 1}}}) {
        TransferArgs<T> part = t;
        part.box = box;
        const auto pa = transfer_on(*cpu, part, false, from.size, to.size);
        const auto pb = transfer_on(*gpu, part, false, from.size, to.size);
        double part_worst = 0;
        for (std::size_t i = 0; i < pa.size(); ++i)
          part_worst = std::max(part_worst, std::fabs(double(pa[i]) - pb[i]));
        INFO(dims, "D n = ", n, " prolongation on the box from ", box.lo[0], ",", box.lo[1], ",",
             box.lo[2]);
        CHECK(part_worst <= tol);
      }
    }
  }
}

/// The fine field after full multigrid and `cycles` more cycles of the case `yaml`, on `be`.
template <typename T>
std::vector<T> cycled(Backend<T>& be, const std::string& yaml, int cycles) {
  const Case c = parse_case(yaml, "t.yaml");
  const auto levels = multigrid::build_hierarchy(multigrid::fine_level(c));
  const Layout L = levels[0].layout(sizeof(T));
  std::vector<T> u = random_values<T>(L.size, 3);
  for (int face = 0; face < 2 * c.grid.dims; ++face)
    if (c.boundary[face].type == BoundaryType::Dirichlet) {
      // Zero Dirichlet nodes, as the case's boundary values say.
      const int axis = face / 2;
      for (index_t k = 0; k < L.n[2]; ++k)
        for (index_t j = 0; j < L.n[1]; ++j)
          for (index_t i = 0; i < L.n[0]; ++i) {
            const index_t idx[3] = {i, j, k};
            if (idx[axis] == (face % 2 ? L.n[axis] - 1 : 0)) u[L.at(i, j, k)] = T(0);
          }
    }
  Buffer<T> cur = be.allocate(L.size), next = be.allocate(L.size);
  be.upload(cur, u.data(), L.size);
  be.upload(next, u.data(), L.size);
  Boundaries<T> bounds(c, be, L);
  multigrid::CycleSettings s;
  s.spec = c.solve.multigrid;
  multigrid::StencilHierarchy<T> cy(levels, s, be, choose_kernel(c, be),
                          [&](Buffer<T>& x) { bounds.before_sweep(x, x, 0, 0); });
  cy.set_fine_rhs(nullptr, cy.op(0).rhs_scale);  // f = 1
  cy.full_multigrid(cur, next);
  for (int k = 0; k < cycles; ++k) {
    cy.probe(cur, next);
    cy.finish_cycle(cur, next);
  }
  be.download(u.data(), cur, L.size);
  return u;
}

template <typename T>
void check_cycles(const std::string& yaml) {
  auto cpu = make_cpu_backend<T>();
  auto gpu = make_cuda_backend<T>(0);
  const auto a = cycled(*cpu, yaml, 2);
  const auto b = cycled(*gpu, yaml, 2);
  const auto b2 = cycled(*gpu, yaml, 2);
  double worst = 0, scale = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    worst = std::max(worst, std::fabs(double(a[i]) - b[i]));
    scale = std::max(scale, std::fabs(double(a[i])));
  }
  INFO(yaml);
  CHECK(worst <= (sizeof(T) == 4 ? 1e-4 : 1e-11) * scale);
  CHECK(b == b2);
}

std::string grid_case(const std::string& points, int stencil, const std::string& faces,
                      const std::string& extra = "") {
  return "grid: {points: " + points + "}\nproblem: {equation: laplace}\nstencil: " +
         std::to_string(stencil) + "\n" + faces + extra;
}

const char* kDirichlet = "boundary: {default: {type: dirichlet, value: 0}}\n";
const char* kNeumann =
    "boundary:\n  default: {type: neumann, gradient: 0}\n  y_min: {type: dirichlet, value: 0}\n";
const char* kPeriodic =
    "boundary:\n  default: {type: dirichlet, value: 0}\n  x_min: {type: periodic}\n"
    "  x_max: {type: periodic}\n";

}  // namespace

TEST_CASE("gpu: multigrid transfers match the CPU") {
  for (const index_t n : {5, 9, 33, 129}) {
    check_transfers<float>(2, n);
    check_transfers<double>(2, n);
  }
  for (const index_t n : {5, 17, 33}) {
    check_transfers<float>(3, n);
    check_transfers<double>(3, n);
  }
}

// Whole cycles are solver-level runs of kernels the transfer test and the parity tests cover:
// in the "problems" suite, which the slow racecheck leaves out (tools/device-test.sh).
TEST_CASE("gpu: multigrid cycles match the CPU, every stencil and face type" *
          doctest::test_suite("problems")) {
  for (const char* faces : {kDirichlet, kNeumann, kPeriodic}) {
    // A periodic x axis has an even node count; the others n - 1 even.
    const bool periodic = faces == kPeriodic;
    const std::string p2 = periodic ? "[64, 65]" : "[65, 65]";
    const std::string w2 = periodic ? "[128, 129]" : "[129, 129]";
    const std::string p3 = periodic ? "[32, 33, 33]" : "[33, 33, 33]";
    check_cycles<double>(grid_case(p2, 5, faces));
    check_cycles<float>(grid_case(p2, 5, faces));
    check_cycles<double>(grid_case(w2, 5, faces, "solve: {multigrid: {cycle: w}}\n"));
    for (const int stencil : {7, 19, 27}) {
      check_cycles<double>(grid_case(p3, stencil, faces));
      check_cycles<float>(grid_case(p3, stencil, faces));
    }
  }
}

}  // namespace fdsolve
