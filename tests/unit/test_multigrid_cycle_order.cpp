// The cycle driver's order of level operations (cycle_driver.hpp's visit, which follows
// kernels/level_walk.hpp) against the textbook recursion written out here (Briggs, Henson and
// McCormick, "A Multigrid Tutorial", ch. 3), for V and W cycles over 1 to 6 levels, with levels
// a rank does not hold and with the coarsest levels handed to one call.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "multigrid/cycle_driver.hpp"

using namespace fdsolve;
using namespace fdsolve::multigrid;

namespace {

/// Records every call the driver makes. Levels from `held_below` down are not this rank's;
/// from `one_call` down, a single visit_below call takes them.
class Recorder : public LevelHierarchy {
 public:
  Recorder(int coarsest, int held_below, int one_call)
      : coarsest_(coarsest), held_below_(held_below), one_call_(one_call) {}
  std::vector<std::string> calls;

  int coarsest() const override { return coarsest_; }
  bool here(int level) const override { return level < held_below_; }
  void zero(int l) override { log("zero", l); }
  void smooth(int l, int sweeps, bool zeroed) override {
    log("smooth", l, std::to_string(sweeps) + (zeroed ? "z" : ""));
  }
  void restrict_residual(int l) override { log("restrict", l); }
  void restrict_rhs(int l) override { log("restrict_rhs", l); }
  void correct_and_smooth(int l, int sweeps) override {
    log("correct", l, std::to_string(sweeps));
  }
  void interpolate(int l, bool) override { log("interpolate", l); }
  void solve_coarsest() override { log("bottom", coarsest_); }
  void solve_alone(int done) override { log("alone", 0, std::to_string(done)); }
  bool visits_below(int level) const override { return level >= one_call_; }
  void visit_below(int l, bool fresh) override { log("one_call", l, fresh ? "z" : ""); }

 private:
  void log(const char* what, int l, const std::string& extra = "") {
    calls.push_back(std::string(what) + " " + std::to_string(l) +
                    (extra.empty() ? "" : " " + extra));
  }
  int coarsest_, held_below_, one_call_;
};

/// The recursion as the textbook writes it, on the same recorder.
void reference_visit(Recorder& h, const CycleShape& shape, int level, bool fresh) {
  if (!h.here(level)) return;
  if (level < h.coarsest() && h.visits_below(level)) return h.visit_below(level, fresh);
  if (fresh) h.zero(level);
  if (level == h.coarsest()) return h.solve_coarsest();
  h.smooth(level, shape.pre, fresh);
  h.restrict_residual(level);
  reference_visit(h, shape, level + 1, true);
  if (shape.kind == CycleKind::W && level + 1 != h.coarsest())
    reference_visit(h, shape, level + 1, false);
  h.correct_and_smooth(level, shape.post);
}

}  // namespace

TEST_CASE("the cycle driver visits the levels in the textbook's order") {
  int compared = 0;
  for (const CycleKind kind : {CycleKind::V, CycleKind::W})
    for (int coarsest = 0; coarsest <= 5; ++coarsest)
      for (int held_below = 1; held_below <= coarsest + 1; ++held_below)
        for (int one_call = 1; one_call <= coarsest + 1; ++one_call)
          for (int start = 0; start <= coarsest; ++start)
            for (const bool fresh : {true, false}) {
              const CycleShape shape{kind, 2, 3};
              Recorder driver(coarsest, held_below, one_call), reference = driver;
              visit(driver, shape, start, fresh);
              reference_visit(reference, shape, start, fresh);
              INFO((kind == CycleKind::W ? "W" : "V"), " coarsest ", coarsest, " held below ",
                   held_below, " one call from ", one_call, " start ", start, " fresh ", fresh);
              REQUIRE(driver.calls == reference.calls);
              ++compared;
            }
  CHECK(compared > 300);
}

TEST_CASE("a W cycle over four levels visits the third level twice below the second") {
  // Written out by hand: W(2,3) from level 1 of a hierarchy whose coarsest is level 3.
  Recorder h(3, 4, 4);
  visit(h, CycleShape{CycleKind::W, 2, 3}, 1, true);
  const std::vector<std::string> expected{
      "zero 1",    "smooth 1 2z", "restrict 1", "zero 2",    "smooth 2 2z", "restrict 2",
      "zero 3",    "bottom 3",    "correct 2 3", "smooth 2 2", "restrict 2", "zero 3",
      "bottom 3",  "correct 2 3", "correct 1 3"};
  CHECK(h.calls == expected);
}
