// The flux-form prolongation that adds the correction itself (AxisTransferArgs::accumulate):
// on the CPU backend, along every axis (x per node, y and z by rows) in 2D and 3D, it leaves
// `to` equal bit for bit to the plain prolongation added by hand at the nodes of the box that
// are not held, and untouched elsewhere.
#include <doctest/doctest.h>

#include <random>
#include <vector>

#include "backend.hpp"

using namespace fdsolve;

namespace {

template <typename T>
std::vector<T> random_values(const Layout& L, std::mt19937_64& gen, double lo, double hi) {
  std::uniform_real_distribution<double> value(lo, hi);
  std::vector<T> v(static_cast<std::size_t>(L.size));
  for (T& x : v) x = static_cast<T>(value(gen));
  return v;
}

template <typename T>
void check_axis(int dims, std::array<index_t, 3> n, int axis, std::mt19937_64& gen) {
  std::array<index_t, 3> coarse = n;
  coarse[axis] = (n[axis] + 1) / 2;  // n odd: fine node 2I is coarse node I
  const Layout from_layout = Layout::make(dims, coarse, 4);
  const Layout to_layout = Layout::make(dims, n, 4);
  const std::vector<T> from = random_values<T>(from_layout, gen, -1.0, 1.0);
  const std::vector<T> face = random_values<T>(to_layout, gen, 0.01, 100.0);
  std::vector<T> held = random_values<T>(to_layout, gen, -1.0, 3.0);  // a quarter negative
  const std::vector<T> base = random_values<T>(to_layout, gen, -1.0, 1.0);

  AxisTransferArgs<T> a;
  a.axis = axis;
  a.from = from.data();
  a.from_layout = from_layout;
  a.to_layout = to_layout;
  a.face = face.data();
  a.face_layout = to_layout;
  a.n_fine = n[axis];
  a.box = to_layout.owned_box();
  auto cpu = make_cpu_backend<T>();
  FluxOperations<T>& ops = *cpu->flux_operations();

  std::vector<T> plain(base.size(), T(0));
  a.to = plain.data();
  ops.transfer_axis(a);

  Box box = to_layout.owned_box();  // the updated nodes: one node in from every face
  for (int d = 0; d < dims; ++d) {
    box.lo[d] += 1;
    box.hi[d] -= 1;
  }
  std::vector<T> added = base;
  a.to = added.data();
  a.accumulate = true;
  a.held = held.data();
  a.box = box;
  ops.transfer_axis(a);

  int changed = 0, kept = 0;
  const Box owned = to_layout.owned_box();
  for (index_t k = owned.lo[2]; k < owned.hi[2]; ++k)
    for (index_t j = owned.lo[1]; j < owned.hi[1]; ++j)
      for (index_t i = owned.lo[0]; i < owned.hi[0]; ++i) {
        const index_t c = to_layout.at(i, j, k);
        const bool inside = i >= box.lo[0] && i < box.hi[0] && j >= box.lo[1] &&
                            j < box.hi[1] && k >= box.lo[2] && k < box.hi[2];
        const bool adds = inside && held[c] >= T(0);
        const T want = adds ? base[c] + plain[c] : base[c];
        adds ? ++changed : ++kept;
        if (added[c] != want)
          FAIL_CHECK("axis " << axis << " node (" << i << ", " << j << ", " << k << "): "
                             << added[c] << " != " << want);
      }
  CHECK(changed > 0);
  CHECK(kept > 0);
}

}  // namespace

TEST_CASE_TEMPLATE("flux transfer: the accumulating prolongation is the plain one added where "
                   "nodes are not held",
                   T, float, double) {
  std::mt19937_64 gen(5 + sizeof(T));
  for (int axis = 0; axis < 2; ++axis) check_axis<T>(2, {9, 7, 1}, axis, gen);
  for (int axis = 0; axis < 3; ++axis) check_axis<T>(3, {7, 9, 5}, axis, gen);
}
