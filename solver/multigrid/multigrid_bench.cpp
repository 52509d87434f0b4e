// The multigrid bench (see multigrid_bench.hpp). The full solve is what `fdsolve run` does,
// less I/O and set-up: full multigrid, then probe + cycle until the algebraic error (against
// the converged discrete solution) is at most the discretization error (the converged
// solution's error against the exact one); the number of cycles is found in an untimed pass,
// then timed.
#include "multigrid_bench.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>

#include "case_reader.hpp"
#include "stencil_hierarchy.hpp"
#include "problem/boundary_conditions.hpp"
#include "problem/problem_setup.hpp"

namespace fdsolve::multigrid {
namespace {

constexpr int kRepetitions = 3;

struct Problem {
  int dims, stencil;
  std::string source;  // f = -lap u
  std::function<double(double, double, double)> exact;
};

/// The anchors' 2D problem (shared/anchors): u = exp(x+y) sin(pi x) sin(pi y); in 3D u =
/// sin(pi x) sin(pi y) sin(pi z).
Problem problem(int dims, int stencil) {
  if (dims == 2)
    return {2, 5,
            "exp(x+y)*(2*(pi^2-1)*sin(pi*x)*sin(pi*y) - 2*pi*(cos(pi*x)*sin(pi*y) + "
            "sin(pi*x)*cos(pi*y)))",
            [](double x, double y, double) {
              return std::exp(x + y) * std::sin(M_PI * x) * std::sin(M_PI * y);
            }};
  return {3, stencil, "3*pi^2*sin(pi*x)*sin(pi*y)*sin(pi*z)", [](double x, double y, double z) {
            return std::sin(M_PI * x) * std::sin(M_PI * y) * std::sin(M_PI * z);
          }};
}

/// A size that fills a device (launch-bound backends), or that a CPU cycles in a second.
std::int64_t default_size(const BackendTraits& traits, int dims) {
  if (traits.launch_bound) return dims == 2 ? 4097 : 513;
  return dims == 2 ? 1025 : 129;
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

template <typename T>
class Bench {
 public:
  Bench(Backend<T>& be, const Problem& p, std::int64_t n, bool fused = true)
      : be_(be), p_(p), c_(make_case(p, n)), levels_(build_hierarchy(fine_level(c_))),
        L_(levels_[0].layout(sizeof(T))), bounds_(c_, be, L_),
        cycles_(levels_, settings(c_, fused), be, be.find_kernel(p.dims, be.default_kernel(p.dims)),
                [this](Buffer<T>& x) { bounds_.before_sweep(x, x, 0, 0); }) {
    u_ = be.allocate(L_.size);
    next_ = be.allocate(L_.size);
    g_ = be.allocate(L_.size);
    be.upload(g_, source_values<T>(c_, L_, cycles_.op(0).rhs_scale).data(), L_.size);
    cycles_.set_fine_rhs(g_.data(), 0.0);
    initial_ = initial_field<T>(c_, L_);
  }

  /// StencilHierarchy::set_bottom_levels_cells (work recorded afterwards takes it).
  void set_bottom_levels_cells(index_t cells) { cycles_.set_bottom_levels_cells(cells); }
  /// StencilHierarchy::set_blocked_smoothing (work recorded afterwards takes it).
  void set_blocked_smoothing(bool on) { cycles_.set_blocked_smoothing(on); }
  bool blocked_smoothing() const { return cycles_.blocked_smoothing(0); }

  void reset() {
    be_.upload(u_, initial_.data(), L_.size);
    be_.upload(next_, initial_.data(), L_.size);
  }

  /// Seconds of one fine smoothing sweep (the fine level's Jacobi sweep with its source).
  double sweep_seconds() {
    reset();
    SweepArgs<T> a;
    a.layout = L_;
    a.box = levels_[0].box;
    a.weights = cycles_.op(0).smooth;
    a.source_field = g_.data();
    const KernelId id = be_.find_kernel(p_.dims, be_.default_kernel(p_.dims));
    const int count = 20;
    std::vector<double> secs;
    for (int rep = 0; rep <= kRepetitions; ++rep) {
      be_.synchronize();
      const auto t0 = std::chrono::steady_clock::now();
      for (int s = 0; s < count; ++s) {
        a.in = (s % 2 ? next_ : u_).data();
        a.out = (s % 2 ? u_ : next_).data();
        be_.sweep(a, id);
      }
      be_.synchronize();
      if (rep > 0) secs.push_back(seconds_since(t0) / count);  // rep 0 warms up
    }
    return median(secs);
  }

  /// Seconds of one whole cycle, replayed as the solver replays it.
  double cycle_seconds() {
    reset();
    auto replay = be_.record([this] { cycles_.cycle(u_, next_); });
    const int count = 10;
    std::vector<double> secs;
    for (int rep = 0; rep <= kRepetitions; ++rep) {
      be_.synchronize();
      const auto t0 = std::chrono::steady_clock::now();
      for (int s = 0; s < count; ++s) replay->run();
      be_.synchronize();
      if (rep > 0) secs.push_back(seconds_since(t0) / count);
    }
    return median(secs);
  }

  /// Full multigrid and `cycles` more probe + cycle steps, as the solver loop runs them (both
  /// recorded beforehand, as the solver records them before its loop: set-up, like building
  /// the hierarchy, is not timed, as the anchors time only their solves); the last probe's
  /// residual norm and the one before it give `factor`. Returns seconds.
  double solve(int cycles, double& factor) {
    reset();
    if (!rest_) {
      rest_ = be_.record([this] { cycles_.finish_cycle(u_, next_); });
      fmg_ = be_.record([this] { cycles_.full_multigrid(u_, next_); });
    }
    be_.synchronize();
    const auto t0 = std::chrono::steady_clock::now();
    double before = cycles_.probe(u_, next_).l2(), last = before;
    fmg_->run();
    for (int k = 0; k <= cycles; ++k) {
      before = last;
      last = cycles_.probe(u_, next_).l2();
      if (k < cycles) rest_->run();
    }
    be_.synchronize();
    factor = last / before;
    return seconds_since(t0);
  }

  /// The state now, on the host.
  std::vector<T> state() {
    std::vector<T> host(static_cast<std::size_t>(L_.size));
    be_.download(host.data(), u_, L_.size);
    return host;
  }

  /// max |u - exact| over every node, and max |u - reference| when a reference state is given.
  double max_error(const std::vector<T>* reference = nullptr) {
    const std::vector<T> host = state();
    double err = 0;
    for (index_t k = 0; k < L_.n[2]; ++k)
      for (index_t j = 0; j < L_.n[1]; ++j)
        for (index_t i = 0; i < L_.n[0]; ++i) {
          const index_t at = L_.at(i, j, k);
          const double other =
              reference ? double((*reference)[at])
                        : p_.exact(node_coordinate(c_, 0, i), node_coordinate(c_, 1, j),
                                   p_.dims == 3 ? node_coordinate(c_, 2, k) : 0.0);
          err = std::max(err, std::fabs(host[at] - other));
        }
    return err;
  }

 private:
  static Case make_case(const Problem& p, std::int64_t n) {
    const std::string N = std::to_string(n);
    const std::string yaml =
        "grid: {points: [" + N + ", " + N + (p.dims == 3 ? ", " + N : std::string()) +
        "], extent: [1, 1" + (p.dims == 3 ? ", 1" : std::string()) + "]}\n" +
        "problem: {equation: poisson, source: '" + p.source + "'}\nstencil: " +
        std::to_string(p.stencil) + "\nboundary: {default: {type: dirichlet, value: 0}}\n";
    return parse_case(yaml, "bench.yaml");
  }
  static CycleSettings settings(const Case& c, bool fused) {
    CycleSettings s;
    s.spec = c.solve.multigrid;
    s.fuse_residual_restriction = fused;
    return s;
  }

  Backend<T>& be_;
  Problem p_;
  Case c_;
  std::vector<LevelGeometry> levels_;
  Layout L_;
  Boundaries<T> bounds_;
  StencilHierarchy<T> cycles_;
  Buffer<T> u_, next_, g_;
  std::vector<T> initial_;
  std::unique_ptr<Replay> rest_, fmg_;
};

void print_header(std::ostream& out) {
  char line[256];
  std::snprintf(line, sizeof line, "%-7s %-9s %4s %7s %-9s %6s %6s %12s %10s %10s %10s %7s\n",
                "backend", "what", "dims", "stencil", "precision", "size", "cycles", "seconds",
                "work_units", "max_error", "disc_error", "factor");
  out << line << std::flush;
}

void print_row(std::ostream& out, const MultigridBenchRow& r) {
  char line[256];
  std::snprintf(line, sizeof line,
                "%-7s %-9s %4d %7d %-9s %6lld %6d %12.6f %10.2f %10.3e %10.3e %7.3f\n",
                r.backend.c_str(), r.what.c_str(), r.dims, r.stencil, r.precision.c_str(),
                static_cast<long long>(r.size), r.cycles, r.seconds, r.work_units, r.max_error,
                r.converged_error, r.factor);
  out << line << std::flush;
}

template <typename T>
void bench_problem(Backend<T>& be, const Problem& p, const BenchOptions& o,
                   std::vector<MultigridBenchRow>& rows, std::ostream& out) {
  const std::int64_t n = o.size > 0 ? o.size : default_size(be.traits(), p.dims);
  Bench<T> b(be, p, n, fused_restriction_pays(be.traits(), p.dims));
  MultigridBenchRow base;
  base.backend = be.name();
  base.dims = p.dims;
  base.stencil = p.stencil;
  base.precision = sizeof(T) == 4 ? "float" : "double";
  base.size = n;
  base.sweep_seconds = b.sweep_seconds();

  // The backend's default cycle, and the same cycle with the residual fused into the
  // restriction or not (the other choice): what the fusion saves.
  const bool fused = fused_restriction_pays(be.traits(), p.dims);
  MultigridBenchRow v = base;
  v.what = fused ? "v-fused" : "v-unfused";
  v.cycles = 1;
  v.seconds = b.cycle_seconds();
  v.work_units = v.seconds / v.sweep_seconds;

  // Untimed: the converged discrete solution and its error (the discretization error), then
  // the fewest cycles after FMG whose algebraic error (against that solution) is at most the
  // discretization error: "solved to the discretization error".
  double factor = 0;
  b.solve(30, factor);
  const std::vector<T> discrete = b.state();
  const double converged = b.max_error();
  int cycles = 0;
  double error = 0;
  for (; cycles <= 30; ++cycles) {
    b.solve(cycles, factor);
    error = b.max_error();
    if (b.max_error(&discrete) <= converged) break;
  }
  MultigridBenchRow s = base;
  s.what = "fmg-solve";
  s.cycles = cycles;
  std::vector<double> secs;
  for (int rep = 0; rep < kRepetitions; ++rep) secs.push_back(b.solve(cycles, factor));
  s.seconds = median(secs);
  s.work_units = s.seconds / s.sweep_seconds;
  s.max_error = error;
  s.converged_error = converged;
  s.factor = factor;
  v.converged_error = converged;
  MultigridBenchRow other = base;
  {
    Bench<T> alternative(be, p, n, !fused);
    other.what = fused ? "v-unfused" : "v-fused";
    other.cycles = 1;
    other.seconds = alternative.cycle_seconds();
    other.work_units = other.seconds / other.sweep_seconds;
  }
  std::vector<MultigridBenchRow> out_rows{v, other, s};
  // Where the backend visits the bottom levels in one call: the default cycle with them
  // visited one by one, which is what the call saves.
  if (const index_t cells = bottom_levels_cells(be.traits()); cells > 0) {
    MultigridBenchRow levels = base;
    levels.what = "v-levels";
    levels.cycles = 1;
    b.set_bottom_levels_cells(0);
    levels.seconds = b.cycle_seconds();
    b.set_bottom_levels_cells(cells);
    levels.work_units = levels.seconds / levels.sweep_seconds;
    out_rows.insert(out_rows.begin() + 1, levels);
  }
  // The default cycle with the other smoothing of the fine level: blocked passes
  // (StencilHierarchy::set_blocked_smoothing) where it runs single sweeps, and the other way round.
  if (!be.traits().smoothing_pass_kernel[p.dims].empty()) {
    const bool on = b.blocked_smoothing();
    MultigridBenchRow other_smoothing = base;
    other_smoothing.what = on ? "v-single-sweeps" : "v-blocked";
    other_smoothing.cycles = 1;
    b.set_blocked_smoothing(!on);
    other_smoothing.seconds = b.cycle_seconds();
    b.set_blocked_smoothing(blocked_smoothing_default(be.traits(), p.dims));
    other_smoothing.work_units = other_smoothing.seconds / other_smoothing.sweep_seconds;
    out_rows.insert(out_rows.begin() + 1, other_smoothing);
  }
  for (const auto& r : out_rows) {
    print_row(out, r);
    rows.push_back(r);
  }
}

template <typename T>
void bench_backend(Backend<T>& be, const BenchOptions& o, std::vector<MultigridBenchRow>& rows,
                   std::ostream& out) {
  for (const auto& [dims, stencil] : {std::pair{2, 5}, std::pair{3, 7}, std::pair{3, 27}}) {
    if (o.dims != 0 && o.dims != dims) continue;
    try {
      bench_problem<T>(be, problem(dims, stencil), o, rows, out);
    } catch (const BackendError& e) {
      out << "# " << be.name() << " " << dims << "D " << stencil << "-point: skipped: "
          << e.what() << "\n";
    }
  }
}

void write_json(const std::vector<MultigridBenchRow>& rows, const std::string& path) {
  const std::string tmp = path + ".tmp";
  {
    std::ofstream f(tmp);
    if (!f) throw std::runtime_error("cannot write " + tmp);
    f << "[\n";
    for (std::size_t i = 0; i < rows.size(); ++i) {
      const auto& r = rows[i];
      char line[512];
      std::snprintf(line, sizeof line,
                    "  {\"backend\": \"%s\", \"what\": \"%s\", \"dims\": %d, \"stencil\": %d, "
                    "\"precision\": \"%s\", \"size\": %lld, \"cycles\": %d, \"seconds\": %.6g, "
                    "\"sweep_seconds\": %.6g, \"work_units\": %.4g, \"max_error\": %.6g, "
                    "\"disc_error\": %.6g, \"factor\": %.4g}%s\n",
                    r.backend.c_str(), r.what.c_str(), r.dims, r.stencil, r.precision.c_str(),
                    static_cast<long long>(r.size), r.cycles, r.seconds, r.sweep_seconds,
                    r.work_units, r.max_error, r.converged_error, r.factor,
                    i + 1 < rows.size() ? "," : "");
      f << line;
    }
    f << "]\n";
    if (!f.flush()) throw std::runtime_error("cannot write " + tmp);
  }
  std::filesystem::rename(tmp, path);
}

}  // namespace

std::vector<MultigridBenchRow> run_multigrid_bench(const BenchOptions& o, std::ostream& out) {
  std::vector<MultigridBenchRow> rows;
  const auto each = [&](const std::string& name, auto make32, auto make64) {
    out << "# multigrid V(2,2), FMG start; work units = time / one fine Jacobi sweep\n";
    print_header(out);
    if (o.precision.empty() || o.precision == "float") {
      auto be = make32();
      out << "# " << name << ": " << be->device() << "\n";
      bench_backend(*be, o, rows, out);
    }
    if (o.precision.empty() || o.precision == "double") {
      auto be = make64();
      if (o.precision == "double") out << "# " << name << ": " << be->device() << "\n";
      bench_backend(*be, o, rows, out);
    }
  };
  if (o.backend.empty() || o.backend == "cuda") {
    if (cuda_device_count() > 0)
      each("cuda", [] { return make_cuda_backend<float>(0); },
           [] { return make_cuda_backend<double>(0); });
    else
      out << "# cuda: skipped: " << cuda_unavailable_reason() << "\n";
  }
  if (o.backend.empty() || o.backend == "cpu")
    each("cpu", [] { return make_cpu_backend<float>(); }, [] { return make_cpu_backend<double>(); });
  if (!o.json_path.empty()) write_json(rows, o.json_path);
  return rows;
}

}  // namespace fdsolve::multigrid
