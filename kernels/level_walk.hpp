// The order in which a multigrid cycle visits its levels, written once for the cycle driver
// (solver/multigrid/cycle_driver.hpp) and for the coarsest levels run in one device call
// (bottom_levels.hpp): from a first level down to the coarsest and back up, once below each
// level for V cycles and twice for W cycles (Briggs, Henson and McCormick, "A Multigrid
// Tutorial", ch. 3). One step at a time and without recursion, so that device code runs each
// step's code from one place.
#pragma once

#include "host_device.hpp"

namespace fdsolve {

/// The steps of a visit of `count` levels (0 the first, count - 1 the coarsest): Down(l, fresh)
/// starts level l (zero it when fresh, pre-smooth, restrict the residual), Bottom(fresh) solves
/// the coarsest, Up(l) corrects level l from l + 1 and post-smooths. Bit l of `again` marks a W
/// cycle's level whose second coarse visit has begun.
enum class LevelStep { Down, Bottom, Up };

struct LevelWalk {
  int last;
  bool w_cycle;
  bool fresh;  // whether the next Down or Bottom starts from zero
  int l = 0;
  bool up = false;
  unsigned again = 0;

  FDSOLVE_HOST_DEVICE LevelWalk(int count, bool w, bool first_fresh)
      : last(count - 1), w_cycle(w), fresh(first_fresh) {}

  /// The next step; false when the visit is complete.
  FDSOLVE_HOST_DEVICE bool next(LevelStep& step, int& level, bool& step_fresh) {
    if (up) {  // l has just finished
      if (--l < 0) return false;
      const unsigned bit = 1u << l;
      if (!(w_cycle && l + 1 != last && !(again & bit))) {
        again &= ~bit;
        step = LevelStep::Up;
        level = l;
        step_fresh = false;
        return true;
      }
      again |= bit;  // a W cycle visits l + 1 again, from its current correction
      ++l;
      fresh = false;
      up = false;
    }
    step = l < last ? LevelStep::Down : LevelStep::Bottom;
    level = l;
    step_fresh = fresh;
    fresh = true;  // every deeper visit starts from zero
    if (l < last)
      ++l;
    else
      up = true;
    return true;
  }

  /// Ends the visit of `level`, whose Down or Bottom step next() has just given, without the
  /// levels below it (a level this rank does not hold, or one whose visit is done elsewhere in
  /// one call); the walk goes on with what follows that visit.
  FDSOLVE_HOST_DEVICE void finish(int level) {
    l = level;
    up = true;
  }
};

}  // namespace fdsolve
