// The interior/rim split of a rank's box (parallel/split_sweep.hpp): the pieces tile the box
// exactly, the interior reads no exchanged halo, sweeping the pieces gives the whole box's field
// bit for bit, and the edge-only halo refill writes exactly the ghosts beside a masked halo.
#include <doctest/doctest.h>

#include <cstring>
#include <random>
#include <vector>

#include "backend.hpp"
#include "parallel/split_sweep.hpp"

using namespace fdsolve;

namespace {

/// How many pieces hold each node of `L` (owned nodes only).
std::vector<int> coverage(const Layout& L, const std::vector<Box>& pieces) {
  std::vector<int> hits(static_cast<std::size_t>(L.owned_cells()), 0);
  for (const Box& b : pieces)
    for (index_t k = b.lo[2]; k < b.hi[2]; ++k)
      for (index_t j = b.lo[1]; j < b.hi[1]; ++j)
        for (index_t i = b.lo[0]; i < b.hi[0]; ++i) ++hits[(k * L.n[1] + j) * L.n[0] + i];
  return hits;
}

bool inside(const Box& outer, const Box& b) {
  for (int a = 0; a < 3; ++a)
    if (!b.empty() && (b.lo[a] < outer.lo[a] || b.hi[a] > outer.hi[a])) return false;
  return true;
}

}  // namespace

TEST_CASE("split_box: interior first, pieces tile the box, the interior keeps off exchanged faces") {
  std::mt19937 gen(7);
  for (int dims : {2, 3})
    for (int trial = 0; trial < 300; ++trial) {
      std::uniform_int_distribution<index_t> size(1, 7);
      std::array<index_t, 3> n{size(gen), size(gen), dims == 3 ? size(gen) : 1};
      const Layout L = Layout::make(dims, n, 8);
      // The update box: the owned box less a Dirichlet node on some faces.
      Box box = L.owned_box();
      std::array<bool, 6> exchanged{};
      for (int face = 0; face < 2 * dims; ++face) {
        const int a = face / 2;
        exchanged[face] = gen() % 2 == 0;
        if (!exchanged[face] && gen() % 2 == 0) {
          if (face % 2 == 0) box.lo[a] = std::min<index_t>(1, n[a]);
          else box.hi[a] = std::max<index_t>(box.lo[a], n[a] - 1);
        }
      }
      CAPTURE(dims);
      CAPTURE(trial);
      const std::vector<Box> pieces = split_box(box, L, exchanged);
      REQUIRE_FALSE(pieces.empty());
      const Box& interior = pieces.front();
      CHECK(inside(box, interior));
      for (int face = 0; face < 2 * dims; ++face) {
        if (!exchanged[face] || interior.empty()) continue;
        const int a = face / 2;
        // Node 0 (n-1) reads the exchanged halo at -1 (n): never in the interior.
        if (face % 2 == 0) CHECK(interior.lo[a] >= 1);
        else CHECK(interior.hi[a] <= n[a] - 1);
      }
      for (std::size_t p = 1; p < pieces.size(); ++p) CHECK_FALSE(pieces[p].empty());
      const std::vector<int> hits = coverage(L, pieces);
      const std::vector<int> want = coverage(L, {box});
      CHECK(hits == want);  // every node of the box once, nothing outside it
    }
}

TEST_CASE("split_box: no exchanged face leaves the box whole") {
  const Layout L = Layout::make(3, {6, 5, 4}, 8);
  const Box box{{1, 0, 0}, {5, 5, 3}};
  const std::vector<Box> pieces = split_box(box, L, {});
  REQUIRE(pieces.size() == 1);
  CHECK(pieces[0].lo == box.lo);
  CHECK(pieces[0].hi == box.hi);
}

TEST_CASE("sweeping the pieces gives the whole box's field bit for bit (CPU)") {
  auto cpu = make_cpu_backend<double>();
  std::mt19937_64 gen(11);
  std::uniform_real_distribution<double> d(-1, 1);
  for (int dims : {2, 3}) {
    const Layout L = Layout::make(dims, {13, 9, dims == 3 ? 7 : 1}, 16);
    std::vector<double> start(static_cast<std::size_t>(L.size));
    for (double& x : start) x = d(gen);
    Buffer<double> in = cpu->allocate(L.size), whole = cpu->allocate(L.size),
                   split = cpu->allocate(L.size);
    cpu->upload(in, start.data(), L.size);
    cpu->upload(whole, start.data(), L.size);
    cpu->upload(split, start.data(), L.size);
    SweepArgs<double> args;
    args.in = in.data();
    args.layout = L;
    args.box = L.owned_box();
    args.weights.points = dims == 2 ? 5 : 27;
    args.weights.center = 0.1;
    args.weights.face = {0.2, 0.15, 0.1};
    args.weights.edge = dims == 3 ? 0.01 : 0;
    args.weights.corner = dims == 3 ? 0.005 : 0;
    args.weights.source = 0.3;
    const KernelId k = cpu->find_kernel(dims, "omp");
    args.out = whole.data();
    const SweepStats all = cpu->sweep_with_stats(args, k);
    std::array<bool, 6> exchanged{true, true, false, true, true, false};
    args.out = split.data();
    SweepStats merged;
    const std::vector<Box> pieces = split_box(L.owned_box(), L, exchanged);
    for (const Box& b : pieces) {
      args.box = b;
      cpu->smooth({args, 1, k, false, nullptr, PassStats::Queued});
    }
    const std::vector<SweepStats> parts = cpu->collect_stats();
    REQUIRE(parts.size() == pieces.size());
    for (std::size_t p = 0; p < parts.size(); ++p) {
      CHECK(parts[p].count == pieces[p].cells());
      merged.merge(parts[p]);
    }
    CHECK(cpu->collect_stats().empty());  // collected once
    CHECK(std::memcmp(whole.data(), split.data(), sizeof(double) * L.size) == 0);
    CHECK(merged.count == all.count);
    CHECK(merged.max_abs == all.max_abs);  // a maximum: exact in any order
    CHECK(merged.min == all.min);
    CHECK(merged.sum_sq == doctest::Approx(all.sum_sq).epsilon(1e-12));
  }
}

TEST_CASE("halo fill with an edge mask writes only the ghosts beside the masked halo (CPU)") {
  auto cpu = make_cpu_backend<double>();
  const Layout L = Layout::make(3, {5, 4, 6}, 8);
  std::vector<double> start(static_cast<std::size_t>(L.size));
  std::mt19937_64 gen(3);
  std::uniform_real_distribution<double> d(-1, 1);
  for (double& x : start) x = d(gen);
  HaloFillArgs<double> fill;
  fill.layout = L;
  fill.faces[4].rule = GhostRule::Mirror;  // z_min, whose fill spans the x and y halo
  fill.faces[4].offset = 0.5;
  fill.faces[5].rule = GhostRule::Wrap;
  std::vector<double> full = start, edges = start;
  fill.field = full.data();
  cpu->fill_halo(fill);
  fill.field = edges.data();
  fill.edge_mask = 1u << 1 | 1u << 2;  // beside the x_max and y_min halos
  cpu->fill_halo(fill);
  int written = 0;
  for (index_t k : {index_t(-1), L.n[2]})
    for (index_t j = -1; j <= L.n[1]; ++j)
      for (index_t i = -1; i <= L.n[0]; ++i) {
        const std::size_t e = static_cast<std::size_t>(L.at(i, j, k));
        const bool beside = i == L.n[0] || j == -1;
        CAPTURE(i);
        CAPTURE(j);
        CAPTURE(k);
        CHECK(edges[e] == (beside ? full[e] : start[e]));
        written += beside && full[e] != start[e];
      }
  CHECK(written == 2 * (L.n[1] + 2 + L.n[0] + 2 - 1));  // both z faces: a column and a row
}
