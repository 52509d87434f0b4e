// A cycle's expected time (see cycle_time.hpp).
#include "cycle_time.hpp"

#include <fmt/format.h>

#include "backend_select.hpp"
#include "multigrid/cycle_work.hpp"
#include "multigrid/hierarchy.hpp"
#include "solve.hpp"

namespace fdsolve {
namespace {

template <typename T>
std::string line_typed(const Case& c, bool cuda) {
  const auto backend = make_backend<T>(cuda);
  const double bandwidth = backend->copy_bandwidth(std::size_t(64) << 20);
  const auto levels = multigrid::build_hierarchy(multigrid::fine_level(c));
  const double work = multigrid::cycle_work(c.solve.multigrid, levels).total;
  // A sweep reads and writes each node once, as a copy does; measured sweeps reach 50-95 % of
  // the copy bandwidth on the fine grid and less on the small coarse ones.
  const double sweep_bytes = 2.0 * sizeof(T) * static_cast<double>(levels[0].cells());
  const double seconds = work * sweep_bytes / bandwidth;
  return fmt::format(
      "# expected time per cycle: about {:.3g} s on {} ({:.1f} fine sweeps of {:.3g} MB at the "
      "copy bandwidth measured now, {:.1f} GB/s; sweeps reach 50-95 % of it)\n",
      seconds, backend->name(), work, sweep_bytes / 1e6, bandwidth / 1e9);
}

}  // namespace

std::string cycle_time_line(const Case& c) {
  if (!runs_multigrid(c)) return "";
  const bool cuda = c.backend != BackendChoice::Cpu && cuda_device_count() > 0;
  if (c.backend == BackendChoice::Cuda && !cuda) return "";
  return c.precision == Precision::Float ? line_typed<float>(c, cuda) : line_typed<double>(c, cuda);
}

}  // namespace fdsolve
