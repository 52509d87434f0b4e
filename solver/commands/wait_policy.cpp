// See wait_policy.hpp.
#include "wait_policy.hpp"

#include <unistd.h>

#include <cstdlib>
#include <cstring>

namespace fdsolve {

void default_spin_count(char** argv) {
  if (std::getenv("OMP_WAIT_POLICY") || std::getenv("GOMP_SPINCOUNT")) return;
  // Only the commands that sweep pay for the second start (a few ms: the shared libraries).
  bool sweeps = false;
  for (char** a = argv + 1; *a; ++a)
    sweeps = sweeps || std::strcmp(*a, "run") == 0 || std::strcmp(*a, "bench") == 0;
  if (!sweeps) return;
  if (setenv("GOMP_SPINCOUNT", kDefaultSpinCount, 0) != 0) return;
  // The variable is now set, so the new image does not come back here: no loop.
  execv("/proc/self/exe", argv);
  unsetenv("GOMP_SPINCOUNT");  // exec failed (no /proc): keep the user's environment as it was
}

}  // namespace fdsolve
