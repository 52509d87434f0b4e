// How blocked sweeps split into passes (kernels/step_passes.hpp): every sweep in some pass,
// none larger than the limit, an odd count (the result must end in the output buffer).
#include <doctest/doctest.h>

#include <numeric>

#include "step_passes.hpp"

TEST_CASE("step passes: odd count, within the limit, summing to the steps") {
  for (int max_steps : {2, 3, 4, 8, 16})
    for (int steps = 1; steps <= 100; ++steps) {
      CAPTURE(max_steps);
      CAPTURE(steps);
      const std::vector<int> p = fdsolve::step_passes(steps, max_steps);
      CHECK(p.size() % 2 == 1);
      CHECK(std::accumulate(p.begin(), p.end(), 0) == steps);
      for (int n : p) {
        CHECK(n >= 1);
        CHECK(n <= max_steps);
      }
      // As few passes as allow an odd count.
      const int fewest = (steps + max_steps - 1) / max_steps;
      CHECK(static_cast<int>(p.size()) == (fewest % 2 == 1 ? fewest : fewest + 1));
    }
  CHECK(fdsolve::step_passes(0, 8).empty());
  CHECK(fdsolve::step_passes(8, 4) == std::vector<int>{3, 3, 2});
  CHECK(fdsolve::step_passes(99, 8) == std::vector<int>{8, 8, 8, 8, 8, 8, 8, 8, 7, 7, 7, 7, 7});
}
