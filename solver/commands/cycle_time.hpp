// `check`'s prediction of a multigrid cycle's time on this machine.
#pragma once

#include <string>

#include "case.hpp"

namespace fdsolve {

/// "# expected time per cycle: ..." for a case solved by multigrid cycles (steady multigrid and
/// the implicit heat schemes): the cycle's work units times the bytes of one fine sweep, over
/// the copy bandwidth of the backend the run would use, measured now on 64 MiB arrays (a few
/// milliseconds). Empty for other methods.
std::string cycle_time_line(const Case& c);

}  // namespace fdsolve
