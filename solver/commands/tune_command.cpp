// `fdsolve tune`: every sweep variant over the size ladder on this device, the winners written
// to the per-device tune cache that `run` reads (kernel_choice.hpp).
#include <fmt/format.h>

#include <filesystem>
#include <fstream>

#include "backend.hpp"
#include "commands.hpp"
#include "exit_codes.hpp"
#include "output_error.hpp"
#include "tuning/kernel_ladder.hpp"

namespace fdsolve {

int tune_command(const TuneOptions& options, std::ostream& out) {
  LadderOptions lo;
  lo.backend =
      options.backend.empty() ? (cuda_device_count() > 0 ? "cuda" : "cpu") : options.backend;
  if (lo.backend == "cuda" && cuda_device_count() == 0)
    throw BackendError("tune --backend cuda: no CUDA device is usable: " +
                       cuda_unavailable_reason());
  lo.dims = options.dims;
  lo.precision = options.precision;
  lo.quick = options.quick;
  const std::filesystem::path dir = tune_cache_directory();
  if (dir.empty()) throw output::OutputError("tune: neither XDG_CACHE_HOME nor HOME is set");
  const LadderResult result = measure_ladder(lo, &out);

  TuneCache cache;
  cache.backend = lo.backend;
  cache.device = result.identity;
  cache.version = fdsolve_version();
  cache.entries = ladder_winners(result.rows);
  out << fmt::format("{:<5} {:>6} {:<9} {:>8} {:<12} {:>10}\n", "dims", "points", "precision",
                     "size", "kernel", "us/sweep");
  for (const ChoiceEntry& e : cache.entries)
    out << fmt::format("{:<5} {:>6} {:<9} {:>8} {:<12} {:>10.2f}\n", e.dims, e.points, e.precision,
                       e.size, e.kernel, e.us_per_sweep);

  const std::filesystem::path path = tune_cache_path(dir, lo.backend, cache.device.model);
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw output::OutputError("tune: cannot create " + dir.string() + ": " + ec.message());
  // Through a temporary file and a rename: a run starting meanwhile reads the old cache or
  // the new one, never half of one.
  const std::filesystem::path tmp = path.string() + ".tmp";
  {
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    f << format_tune_cache(cache);
    if (!f.flush()) throw output::OutputError("tune: cannot write " + tmp.string());
  }
  std::filesystem::rename(tmp, path, ec);
  if (ec) throw output::OutputError("tune: cannot write " + path.string() + ": " + ec.message());
  out << "# tune cache written: " << path.string() << "\n";
  return kExitOk;
}

}  // namespace fdsolve
