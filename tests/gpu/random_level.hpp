// A 2D level of random values for the tests of the two-sweep pass's forms (the checked pair,
// the correction inside the pass): u in [-1, 1] and a source field in [-0.1, 0.1] on an
// nx x ny grid, the smoothing weights both use, and the sweep of the interior box.
#pragma once

#include <random>
#include <vector>

#include "backend.hpp"

namespace fdsolve::test {

template <typename T>
struct RandomLevel {
  Layout layout;
  Box box;
  std::vector<T> u, g;
  StencilWeights weights;

  RandomLevel(index_t nx, index_t ny, unsigned seed)
      : layout(Layout::make(2, {nx, ny, 1}, static_cast<index_t>(128 / sizeof(T)))),
        box{{1, 1, 0}, {nx - 1, ny - 1, 1}},
        u(static_cast<std::size_t>(layout.size)),
        g(u.size()) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> unit(-1.0, 1.0);
    for (auto& x : u) x = static_cast<T>(unit(rng));
    for (auto& x : g) x = static_cast<T>(0.1 * unit(rng));
    weights.points = 5;
    weights.center = 0.2;
    weights.face = {0.2, 0.2, 0.0};
    weights.source = 0.05;
  }

  /// The level in `be`'s memory: `in` and `out` hold u, `src` holds g.
  struct Fields {
    Buffer<T> in, out, src;
  };
  Fields upload(Backend<T>& be) const {
    Fields f{be.allocate(layout.size), be.allocate(layout.size), be.allocate(layout.size)};
    be.upload(f.in, u.data(), layout.size);
    be.upload(f.out, u.data(), layout.size);
    be.upload(f.src, g.data(), layout.size);
    return f;
  }

  /// A sweep of the box from f.in into f.out, with the source field or the constant source.
  SweepArgs<T> args(Fields& f, bool with_source) const {
    SweepArgs<T> a;
    a.in = f.in.data();
    a.out = f.out.data();
    a.source_field = with_source ? f.src.data() : nullptr;
    a.layout = layout;
    a.box = box;
    a.weights = weights;
    return a;
  }
};

}  // namespace fdsolve::test
