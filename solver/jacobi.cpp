// The time-stepping Jacobi loop on any backend. Only the statistics of checked sweeps cross
// to the host during a solve; fields cross only for snapshots.
#include "jacobi.hpp"

#include <spdlog/spdlog.h>

#include <chrono>
#include <cmath>

#include "case_reader.hpp"
#include "halo_exchange.hpp"
#include "problem_setup.hpp"
#include "progress.hpp"
#include "weights.hpp"

namespace fdsolve {
namespace {

bool needs_source_field(const Case& c) {
  return c.problem.equation == Equation::Poisson && !c.problem.source.is_constant();
}

/// Writes snapshots with the fields the case asks for. The source never changes, so its
/// dense copy is made once.
template <typename T>
class SnapshotWriter {
 public:
  SnapshotWriter(const Case& c, Backend<T>& backend, const Layout& L, output::RunOutput& out)
      : c_(c), backend_(backend), L_(L), out_(out), host_(static_cast<std::size_t>(L.size)) {
    for (const auto& name : c.output.fields)
      if (name == "source") source_ = owned_dense(source_values<T>(c, L), L);
  }

  /// Downloads `cur` (and `prev` for the update field) and writes snapshot `iteration`.
  void write(const Buffer<T>& cur, const Buffer<T>& prev, std::int64_t iteration) {
    backend_.download(host_.data(), cur, L_.size);
    const std::vector<T> u = owned_dense(host_, L_);
    std::vector<T> update;
    std::vector<output::FieldRef<T>> fields;
    for (const auto& name : c_.output.fields) {
      if (name == "u") {
        fields.push_back({"u", u.data()});
      } else if (name == "update") {
        backend_.download(host_.data(), prev, L_.size);
        update = owned_dense(host_, L_);
        for (std::size_t i = 0; i < update.size(); ++i) update[i] = u[i] - update[i];
        fields.push_back({"update", update.data()});
      } else if (name == "source") {
        fields.push_back({"source", source_.data()});
      }
    }
    // Steady solves have no physical time: the iteration stands in so ParaView can step.
    out_.snapshot<T>(iteration, static_cast<double>(iteration), fields);
  }

 private:
  const Case& c_;
  Backend<T>& backend_;
  const Layout& L_;
  output::RunOutput& out_;
  std::vector<T> host_;    // staging buffer for downloads, allocated once
  std::vector<T> source_;  // dense source, when the case writes it
};

/// Min, max and sum of the nodes a sweep never updates (the Dirichlet faces), so the history
/// can report the whole field from the sweep's statistics of the updated nodes alone.
template <typename T>
SweepStats fixed_node_stats(const std::vector<T>& field, const Layout& L, const Box& box) {
  SweepStats s;
  for (index_t k = 0; k < L.n[2]; ++k)
    for (index_t j = 0; j < L.n[1]; ++j)
      for (index_t i = 0; i < L.n[0]; ++i) {
        const bool inside = i >= box.lo[0] && i < box.hi[0] && j >= box.lo[1] && j < box.hi[1] &&
                            k >= box.lo[2] && k < box.hi[2];
        if (!inside) {
          const double v = field[L.at(i, j, k)];
          s.add(v, v);
        }
      }
  return s;
}

}  // namespace

const char* to_string(SolveStatus s) {
  switch (s) {
    case SolveStatus::Converged:
      return "converged";
    case SolveStatus::Diverged:
      return "diverged";
    default:
      return "max_iterations";
  }
}

std::size_t required_memory(const Case& c) {
  const std::size_t value = c.precision == Precision::Float ? sizeof(float) : sizeof(double);
  const Layout L = field_layout(c, value);
  const std::size_t fields = needs_source_field(c) ? 3 : 2;
  return fields * static_cast<std::size_t>(L.size) * value;
}

template <typename T>
KernelId choose_kernel(const Case& c, const Backend<T>& backend) {
  const int dims = c.grid.dims;
  if (c.tuning.kernel.empty()) return backend.find_kernel(dims, backend.default_kernel(dims));
  try {
    return backend.find_kernel(dims, c.tuning.kernel);
  } catch (const std::invalid_argument& e) {
    throw InputError(c.where("tuning.kernel") + "tuning.kernel: " + e.what());
  }
}

template <typename T>
SolveResult solve_jacobi(const Case& c, Backend<T>& backend, output::RunOutput& out,
                         const SolveOptions& options) {
  const KernelId kernel = choose_kernel(c, backend);
  const Layout L = field_layout(c, sizeof(T));
  const Box box = update_box(c);
  const EquationWeights eq = equation_weights(c);

  const std::vector<T> initial = initial_field<T>(c, L);
  Buffer<T> cur = backend.allocate(L.size);
  Buffer<T> next = backend.allocate(L.size);
  backend.upload(cur, initial.data(), L.size);
  backend.upload(next, initial.data(), L.size);  // Dirichlet nodes must hold in both buffers
  Buffer<T> source;
  if (needs_source_field(c)) {
    source = backend.allocate(L.size);
    backend.upload(source, source_values<T>(c, L, eq.source_scale).data(), L.size);
  }
  const SweepStats fixed = fixed_node_stats(initial, L, box);
  const double all_nodes = static_cast<double>(L.owned_cells());

  SweepArgs<T> args;
  args.layout = L;
  args.box = box;
  args.weights = eq.weights;
  args.source_field = source.data();

  HaloExchange<T> halo(L);
  SnapshotWriter<T> snapshots(c, backend, L, out);
  Progress progress(options.live_progress, c.solve.max_iterations, box.cells());
  SolveResult r;
  r.kernel = backend.kernels(c.grid.dims)[kernel.index];
  const auto start = std::chrono::steady_clock::now();
  double target = 0;
  std::int64_t last_snapshot = -1;

  for (std::int64_t it = 1; it <= c.solve.max_iterations; ++it) {
    halo.exchange(cur);
    args.in = cur.data();
    args.out = next.data();
    const bool check = it == 1 || it % c.solve.check_every == 0 || it == c.solve.max_iterations;
    SweepStats stats;
    if (check)
      stats = backend.sweep_with_stats(args, kernel);
    else
      backend.sweep(args, kernel);
    cur.swap(next);
    r.iterations = it;

    if (check) {
      const double norm = c.solve.norm == NormKind::L2 ? stats.l2() : stats.linf();
      if (it == 1) {
        r.first_norm = norm;
        target = std::max(c.solve.absolute_tolerance, c.solve.tolerance * norm);
      }
      r.norm_l2 = stats.l2();
      r.norm_linf = stats.linf();
      SweepStats whole = stats;
      whole.merge(fixed);
      const double wall =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      out.add_history({it, static_cast<double>(it), r.norm_l2, r.norm_linf, whole.min, whole.max,
                       (stats.sum + fixed.sum) / all_nodes, wall});
      progress.check(it, norm, target);
      if (!std::isfinite(norm) || !std::isfinite(stats.sum) ||
          norm > c.solve.divergence_factor * r.first_norm) {
        r.status = SolveStatus::Diverged;
        break;
      }
      if (norm <= target) {
        r.status = SolveStatus::Converged;
        break;
      }
    }
    if (c.output.every > 0 && it % c.output.every == 0) {
      snapshots.write(cur, next, it);
      out.flush_history();
      last_snapshot = it;
    }
  }
  backend.synchronize();
  progress.finish();
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  r.cells_per_second =
      r.seconds > 0 ? static_cast<double>(box.cells()) * r.iterations / r.seconds : 0;
  if (last_snapshot != r.iterations) snapshots.write(cur, next, r.iterations);
  out.flush_history();
  return r;
}

template KernelId choose_kernel<float>(const Case&, const Backend<float>&);
template KernelId choose_kernel<double>(const Case&, const Backend<double>&);
template SolveResult solve_jacobi<float>(const Case&, Backend<float>&, output::RunOutput&,
                                         const SolveOptions&);
template SolveResult solve_jacobi<double>(const Case&, Backend<double>&, output::RunOutput&,
                                          const SolveOptions&);

}  // namespace fdsolve
