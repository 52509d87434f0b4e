// Blocks of sweeps between checks: where the loop must stop for the host, and a block's fields
// bit-identical to the same sweeps run one by one (CPU backend; the CUDA graphs are compared
// by the problems test "recorded sweeps" on the GPU).
#include <doctest/doctest.h>

#include <vector>

#include "loop/sweep_block.hpp"

using namespace fdsolve;

namespace {

/// The loop's own conditions for host work after iteration `it`, written out independently.
bool host_work(std::int64_t it, const LoopMarks& m) {
  if (it == 1 || it == m.total) return true;
  if (it % m.check_every == 0) return true;
  if (m.checkpoint_every > 0 && it % m.checkpoint_every == 0) return true;
  return m.output_every > 0 && it % m.output_every == 0;
}

}  // namespace

TEST_CASE("sweep block: the run length stops before every iteration that needs the host") {
  for (std::int64_t total : {1, 2, 7, 100, 301})
    for (std::int64_t check : {1, 2, 3, 10, 100, 100000})
      for (std::int64_t checkpoint : {0, 7, 50})
        for (std::int64_t output : {0, 1, 9, 64}) {
          const LoopMarks m{total, check, checkpoint, output};
          for (std::int64_t done = 0; done < total; ++done) {
            std::int64_t expect = 0;
            while (done + expect + 1 <= total && !host_work(done + expect + 1, m)) ++expect;
            CHECK(needs_host(done + 1, m) == host_work(done + 1, m));
            REQUIRE_MESSAGE(plain_run_length(done, m) == expect,
                            "total " << total << " check " << check << " checkpoint " << checkpoint
                                     << " output " << output << " done " << done);
          }
        }
}

TEST_CASE("sweep block: a block is bit-identical to the sweeps one by one") {
  auto be = make_cpu_backend<double>();
  const Layout L = Layout::make(2, {37, 23, 1}, 16);
  std::vector<double> init(static_cast<std::size_t>(L.size));
  for (std::size_t i = 0; i < init.size(); ++i)
    init[i] = static_cast<double>((i * 7919) % 1000) / 999.0;
  HaloFillArgs<double> fill;
  fill.layout = L;
  fill.faces[0] = {GhostRule::Mirror, 0.25, nullptr};  // Neumann x_min: the ghosts matter
  const auto fill_ghosts = [&](Buffer<double>& f) {
    fill.field = f.data();
    be->fill_halo(fill);
  };
  SweepArgs<double> args;
  args.layout = L;
  args.box = L.owned_box();
  args.weights.points = 5;
  args.weights.center = 0.1;
  args.weights.face = {0.2, 0.25, 0};
  args.weights.source = 0.01;
  const KernelId id = be->find_kernel(2, be->default_kernel(2));
  for (std::int64_t count : {1, 2, 3, 8, 255, 256, 257, 600, 1025, 2051}) {
    Buffer<double> a = be->allocate(L.size), b = be->allocate(L.size);
    Buffer<double> c = be->allocate(L.size), d = be->allocate(L.size);
    for (Buffer<double>* f : {&a, &b, &c, &d}) be->upload(*f, init.data(), L.size);
    for (std::int64_t i = 0; i < count; ++i) {  // the reference: the loop's turns
      fill_ghosts(a);
      SweepArgs<double> s = args;
      s.in = a.data();
      s.out = b.data();
      be->sweep(s, id);
      a.swap(b);
    }
    SweepBlock<double> block(*be, id, fill_ghosts);
    double* const c_before = c.data();
    std::int64_t ran = 0;
    while (ran < count) {
      const std::int64_t step = block.run(c, d, args, count - ran);
      CHECK(step == std::min(count - ran, SweepBlock<double>::kMaxAhead));
      ran += step;
    }
    be->synchronize();
    // The buffers traded places as often as the loop's did.
    CHECK((c.data() == c_before) == (count % 2 == 0));
    std::vector<double> want(init.size()), got(init.size());
    be->download(want.data(), a, L.size);
    be->download(got.data(), c, L.size);
    CHECK_MESSAGE(want == got, "count " << count);
    // A second run reuses the recordings and still matches two loops' worth.
    for (std::int64_t i = 0; i < count; ++i) {
      fill_ghosts(a);
      SweepArgs<double> s = args;
      s.in = a.data();
      s.out = b.data();
      be->sweep(s, id);
      a.swap(b);
    }
    for (std::int64_t left = count; left > 0;) left -= block.run(c, d, args, left);
    be->download(want.data(), a, L.size);
    be->download(got.data(), c, L.size);
    CHECK_MESSAGE(want == got, "count " << count << ", second run");
  }
}

TEST_CASE("sweep block: blocked recordings give the same state and keep the one before it") {
  // Temporal blocking (use_blocked): the CPU's blocked variant runs single sweeps, so the
  // fields must match the loop's turns bit for bit, and the other buffer must hold u before
  // the last sweep (a snapshot's update field after an interrupt reads it).
  auto be = make_cpu_backend<double>();
  const Layout L = Layout::make(2, {29, 31, 1}, 16);
  std::vector<double> init(static_cast<std::size_t>(L.size));
  for (std::size_t i = 0; i < init.size(); ++i)
    init[i] = static_cast<double>((i * 6007) % 997) / 996.0;
  SweepArgs<double> args;
  args.layout = L;
  args.box = Box{{1, 1, 0}, {28, 30, 1}};  // Dirichlet faces: no ghost fills
  args.weights.points = 5;
  args.weights.center = 0.2;
  args.weights.face = {0.2, 0.2, 0};
  args.weights.source = -0.03;
  const KernelId id = be->find_kernel(2, "omp");
  for (std::int64_t count : {1, 2, 3, 8, 256, 257, 600}) {
    CAPTURE(count);
    Buffer<double> a = be->allocate(L.size), b = be->allocate(L.size);
    Buffer<double> c = be->allocate(L.size), d = be->allocate(L.size);
    for (Buffer<double>* f : {&a, &b, &c, &d}) be->upload(*f, init.data(), L.size);
    for (std::int64_t i = 0; i < count; ++i) {
      SweepArgs<double> s = args;
      s.in = a.data();
      s.out = b.data();
      be->sweep(s, id);
      a.swap(b);
    }
    SweepBlock<double> block(*be, id, {});
    block.use_blocked(be->find_step_kernel(2, "omp"));
    for (std::int64_t left = count; left > 0;) left -= block.run(c, d, args, left);
    std::vector<double> want(init.size()), got(init.size());
    be->download(want.data(), a, L.size);
    be->download(got.data(), c, L.size);
    CHECK(want == got);
    be->download(want.data(), b, L.size);
    be->download(got.data(), d, L.size);
    CHECK(want == got);
  }
}
