// `fdsolve bench`: copy bandwidth, then every kernel variant of every available backend on
// random data, timed as the solver runs them (ping-pong, optional checked sweeps).
#include "bench.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>
#include <memory>
#include <random>
#include <vector>

#include "backend.hpp"
#include "cpu/thread_policy.hpp"

namespace fdsolve {

void write_bench_json(const std::vector<BenchRow>& rows, const std::string& path);

namespace {

constexpr int kRepetitions = 3;

/// Default nodes per axis. CUDA sizes fill an H100 (1 GiB float fields in 2D). CPU fields are
/// at least 200 MB, beyond the last-level cache of common server CPUs, so that they stream
/// from memory like the 256 MiB copy they are compared with (4096^2 floats fit in a 16-core
/// server's cache and showed 190% of copy).
std::int64_t default_size(const std::string& backend, int dims) {
  if (backend == "cuda") return dims == 2 ? 16384 : 512;
  return dims == 2 ? 8192 : 384;
}

/// Sweeps per repetition: about 2e10 cell updates on the GPU, 1e8 on the CPU, in [3, 200].
int default_iterations(const std::string& backend, double cells) {
  const double budget = backend == "cuda" ? 2e10 : 1e8;
  return static_cast<int>(std::clamp(budget / cells, 3.0, 200.0));
}

StencilWeights bench_weights(int dims, int points) {
  StencilWeights w;
  if (dims == 2) {
    w.points = 5;
    w.face = {0.25, 0.25, 0};
  } else if (points == 7) {
    w.points = 7;
    w.face = {1.0 / 6, 1.0 / 6, 1.0 / 6};
  } else if (points == 19) {  // the 19-point Laplace weights (faces 2/24, edges 1/24)
    w.points = 19;
    w.face = {2.0 / 24, 2.0 / 24, 2.0 / 24};
    w.edge = 1.0 / 24;
  } else {  // the 27-point Laplace weights (docs/numerics.md)
    w.points = 27;
    w.face = {14.0 / 128, 14.0 / 128, 14.0 / 128};
    w.edge = 3.0 / 128;
    w.corner = 1.0 / 128;
  }
  return w;
}

/// Random values in [-1, 1] over the whole buffer, halo included: never zeros, which would
/// hide unwritten nodes and can run faster than real data.
template <typename T>
std::vector<T> random_field(index_t n, unsigned seed) {
  std::vector<T> v(static_cast<std::size_t>(n));
  std::mt19937_64 gen(seed);
  const double scale = 2.0 / 18446744073709551616.0;
  for (auto& x : v) x = static_cast<T>(static_cast<double>(gen()) * scale - 1.0);
  return v;
}

void print_header(std::ostream& out) {
  char line[256];
  std::snprintf(line, sizeof line, "%-7s %-14s %4s %-9s %6s %10s %9s %9s %7s %10s\n", "backend",
                "kernel", "dims", "precision", "size", "iterations", "Gcell/s", "GB/s", "%copy",
                "norm_every");
  out << line << std::flush;
}

void print_row(std::ostream& out, const BenchRow& r) {
  char line[256];
  std::snprintf(line, sizeof line, "%-7s %-14s %4d %-9s %6lld %10d %9.2f %9.1f %7.1f %10d\n",
                r.backend.c_str(), r.kernel.c_str(), r.dims, r.precision.c_str(),
                static_cast<long long>(r.size), r.iterations, r.gcells_per_s, r.gb_per_s,
                r.pct_copy, r.norm_every);
  out << line << std::flush;
}

/// Seconds for `iterations` sweeps ping-ponging a and b; every norm_every-th sweep is checked.
/// With `halo`, the halo of the input is filled before each sweep, as Neumann and periodic
/// faces make the solver do.
template <typename T>
double time_sweeps(Backend<T>& be, SweepArgs<T> args, KernelId id, int iterations, int norm_every,
                   HaloFillArgs<T>* halo = nullptr) {
  const auto t0 = std::chrono::steady_clock::now();
  for (int it = 1; it <= iterations; ++it) {
    if (halo) {
      halo->field = const_cast<T*>(args.in);
      be.fill_halo(*halo);
    }
    if (norm_every > 0 && it % norm_every == 0)
      be.sweep_with_stats(args, id);
    else
      be.sweep(args, id);
    T* next_out = const_cast<T*>(args.in);  // the buffers trade roles, as in the solver
    args.in = args.out;
    args.out = next_out;
  }
  be.synchronize();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

/// Seconds for `iterations` sweeps (a multiple of `steps`) run `steps` at a time by the
/// temporally blocked `id`, the buffers trading roles after each call as in the solver.
template <typename T>
double time_steps(Backend<T>& be, SweepArgs<T> args, KernelId id, int iterations, int steps) {
  const auto t0 = std::chrono::steady_clock::now();
  for (int it = 0; it < iterations; it += steps) {
    be.smooth({args, steps, id, true});
    T* next_out = const_cast<T*>(args.in);
    args.in = args.out;
    args.out = next_out;
  }
  be.synchronize();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

/// Seconds for `iterations` check diagnostics of the pair (a, b), as the solver runs them at
/// every check: both fields read once, small results to the host.
template <typename T>
double time_diagnose(Backend<T>& be, const SweepArgs<T>& args, int iterations) {
  const auto t0 = std::chrono::steady_clock::now();
  for (int it = 0; it < iterations; ++it) be.diagnose(args.in, args.out, args.layout, args.box);
  be.synchronize();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

/// The flux rows' operator (flux_operator.hpp): a random positive coefficient in [0.5, 2.5] on
/// every face, uploaded into `faces`, and a smoothing sweep (keep 1, relax 0.8) with no source
/// field: u and `dims` face arrays read, u' written per node.
template <typename T>
FluxOperator<T> bench_flux(Backend<T>& be, const Layout& layout, std::vector<Buffer<T>>& faces) {
  FluxOperator<T> op;
  for (int a = 0; a < layout.dims; ++a) {
    std::vector<T> beta = random_field<T>(layout.size, 777u + a);
    for (auto& b : beta) b += T(1.5);
    faces.push_back(be.allocate(layout.size));
    be.upload(faces.back(), beta.data(), layout.size);
  }
  for (int a = 0; a < layout.dims; ++a) op.face[a] = faces[a].data();
  op.c = {1.0, 1.0, layout.dims == 3 ? 1.0 : 0.0};
  op.relax = 0.8;
  return op;
}

/// Every face mirrored: the most halo a case can ask for.
template <typename T>
HaloFillArgs<T> all_faces_mirrored(const Layout& layout) {
  HaloFillArgs<T> h;
  h.layout = layout;
  for (int f = 0; f < 2 * layout.dims; ++f) h.faces[f] = {GhostRule::Mirror, T(0.01), nullptr};
  return h;
}

/// All rows of one backend, dimension and precision.
template <typename T>
void bench_case(Backend<T>& be, const BenchOptions& o, int dims, double copy_bw,
                std::vector<BenchRow>& rows, std::ostream& out) {
  const std::string precision = sizeof(T) == 4 ? "float" : "double";
  const std::int64_t n = o.size > 0 ? o.size : default_size(be.name(), dims);
  const Layout layout =
      Layout::make(dims, {n, n, dims == 3 ? n : 1}, static_cast<index_t>(128 / sizeof(T)));
  // Besides the sweep variants: the default sweep with a halo fill before each sweep (the cost
  // of Neumann and periodic faces), the check diagnostics (two fields read per node) and the
  // variable-coefficient sweep (bench_flux: dims + 2 values per node).
  const std::string with_halo = be.default_kernel(dims) + "+halo";
  const std::string flux_name = dims == 2 ? "flux-5pt" : "flux-7pt";
  std::vector<std::string> names = be.kernels(dims);
  names.push_back(with_halo);
  names.push_back("diagnose");
  names.push_back(flux_name);
  // The blocked rows (the CPU's blocked "variant" is its single sweep: no rows).
  const auto step_names =
      be.name() == "cpu" ? std::vector<std::string>{} : be.step_kernels(dims);
  const bool step_row =
      std::find(names.begin(), names.end(), o.kernel) == names.end() &&
      std::any_of(step_names.begin(), step_names.end(), [&](const std::string& v) {
        return o.kernel == v || o.kernel == v + "/k" + std::to_string(o.steps);
      });
  if (step_row) {
    names.clear();
  } else if (!o.kernel.empty()) {
    if (std::find(names.begin(), names.end(), o.kernel) == names.end()) {
      out << "# " << be.name() << ": no " << dims << "D kernel '" << o.kernel << "'\n";
      return;
    }
    names = {o.kernel};
  }
  const std::size_t need = 2 * static_cast<std::size_t>(layout.size) * sizeof(T);
  if (be.free_memory() < need) {
    out << "# " << be.name() << " " << dims << "D " << precision << " " << n << ": skipped, needs "
        << need << " bytes\n";
    return;
  }
  const std::vector<T> init = random_field<T>(layout.size, 12345u + dims);
  Buffer<T> a = be.allocate(layout.size), b = be.allocate(layout.size);
  be.upload(a, init.data(), layout.size);
  be.upload(b, init.data(), layout.size);  // b's halo is read once the buffers swap

  SweepArgs<T> args;
  args.in = a.data();
  args.out = b.data();
  args.layout = layout;
  args.box = layout.owned_box();
  args.weights = bench_weights(dims, o.points);
  const double cells = static_cast<double>(args.box.cells());
  // One row: `iterations` sweeps of the box in `seconds` (the median of the repetitions),
  // moving `values` values per node.
  const auto add_row = [&](const std::string& name, int iterations, double seconds, int norm_every,
                           int values = 2) {
    BenchRow r;
    r.backend = be.name();
    r.kernel = name;
    r.dims = dims;
    r.precision = precision;
    r.size = n;
    r.iterations = iterations;
    r.gcells_per_s = cells * iterations / seconds / 1e9;
    r.gb_per_s = r.gcells_per_s * values * sizeof(T);
    r.copy_gb_per_s = copy_bw / 1e9;
    r.pct_copy = 100.0 * r.gb_per_s / r.copy_gb_per_s;
    r.norm_every = norm_every;
    print_row(out, r);
    rows.push_back(r);
  };
  const int iterations = o.iterations > 0 ? o.iterations : default_iterations(be.name(), cells);
  std::vector<int> norms =
      o.norm_every >= 0 ? std::vector<int>{o.norm_every} : std::vector<int>{0, 1};
  HaloFillArgs<T> halo = all_faces_mirrored<T>(layout);
  std::vector<Buffer<T>> faces;  // the flux rows' coefficients
  for (const std::string& name : names) {
    const bool diagnose = name == "diagnose", filled = name == with_halo, flux = name == flux_name;
    const KernelId id =
        be.find_kernel(dims, diagnose || filled || flux ? be.default_kernel(dims) : name);
    SweepArgs<T> row_args = args;
    if (flux) {
      if (be.free_memory() < dims * static_cast<std::size_t>(layout.size) * sizeof(T)) {
        out << "# " << be.name() << " " << dims << "D " << precision << " " << n << ": "
            << flux_name << " skipped, no memory for its coefficients\n";
        continue;
      }
      row_args.flux = bench_flux(be, layout, faces);
    }
    for (int norm_every : diagnose ? std::vector<int>{0} : norms) {
      const auto timed = [&](int count, int every) {
        return diagnose ? time_diagnose(be, args, count)
                        : time_sweeps(be, row_args, id, count, every, filled ? &halo : nullptr);
      };
      timed(2, norm_every > 0 ? 1 : 0);  // warm-up, checked path included
      std::vector<double> secs;
      for (int rep = 0; rep < kRepetitions; ++rep) secs.push_back(timed(iterations, norm_every));
      std::sort(secs.begin(), secs.end());
      add_row(name, iterations, secs[secs.size() / 2], norm_every, flux ? dims + 2 : 2);
    }
  }
  faces.clear();
  // Temporal blocking: `steps` sweeps per call, named <variant>/k<steps>; Gcell/s counts every
  // sweep, so %copy above 100 means fewer than one read and one write per node and sweep.
  const int steps = std::max(1, o.steps);
  const int step_iterations = std::max(1, iterations / steps) * steps;
  for (const std::string& variant : step_names) {
    const std::string name = variant + "/k" + std::to_string(steps);
    if (!o.kernel.empty() && o.kernel != name && o.kernel != variant) continue;
    const KernelId id = be.find_step_kernel(dims, variant);
    time_steps(be, args, id, steps, steps);  // warm-up
    std::vector<double> secs;
    for (int rep = 0; rep < kRepetitions; ++rep)
      secs.push_back(time_steps(be, args, id, step_iterations, steps));
    std::sort(secs.begin(), secs.end());
    add_row(name, step_iterations, secs[secs.size() / 2], 0);
  }
}

template <typename T>
void bench_precision(Backend<T>& be, const BenchOptions& o, double copy_bw,
                     std::vector<BenchRow>& rows, std::ostream& out) {
  for (int dims : {2, 3})
    if (o.dims == 0 || o.dims == dims) bench_case<T>(be, o, dims, copy_bw, rows, out);
}

using Factory32 = std::unique_ptr<Backend<float>> (*)();
using Factory64 = std::unique_ptr<Backend<double>> (*)();

void bench_backend(const std::string& name, Factory32 make32, Factory64 make64,
                   const BenchOptions& o, std::vector<BenchRow>& rows, std::ostream& out) {
  auto fb = make32();
  // 1 GiB per array: far beyond every cache, like the fields themselves.
  const std::size_t copy_bytes = name == "cuda" ? (std::size_t{1} << 30) : (std::size_t{1} << 28);
  const double copy_bw = fb->copy_bandwidth(copy_bytes);
  out << "# " << name << ": " << fb->device() << ", copy bandwidth " << copy_bw / 1e9
      << " GB/s (read + write)\n";
  print_header(out);
  if (o.precision.empty() || o.precision == "float") bench_precision(*fb, o, copy_bw, rows, out);
  fb.reset();
  if (o.precision.empty() || o.precision == "double") {
    auto db = make64();
    bench_precision(*db, o, copy_bw, rows, out);
  }
}

}  // namespace

std::vector<BenchRow> run_bench(const BenchOptions& options, std::ostream& out) {
  std::vector<BenchRow> rows;
  if (options.threads > 0) cpu::set_thread_policy(cpu::resolve_thread_policy(options.threads));
  const bool want_cuda = options.backend.empty() || options.backend == "cuda";
  const bool want_cpu = options.backend.empty() || options.backend == "cpu";
  if (want_cuda) {
    if (cuda_device_count() > 0)
      bench_backend(
          "cuda", [] { return make_cuda_backend<float>(0); },
          [] { return make_cuda_backend<double>(0); }, options, rows, out);
    else
      out << "# cuda: skipped: " << cuda_unavailable_reason() << "\n";
  }
  if (want_cpu)
    bench_backend(
        "cpu", [] { return make_cpu_backend<float>(); }, [] { return make_cpu_backend<double>(); },
        options, rows, out);
  if (!options.json_path.empty()) write_bench_json(rows, options.json_path);
  return rows;
}

}  // namespace fdsolve
