// How long OpenMP's idle threads spin for the fdsolve process (issue 11). libgomp's threads
// spin at each barrier (300000 rounds when OMP_WAIT_POLICY and GOMP_SPINCOUNT are unset)
// before they sleep; when runs share cores a spinning thread burns the time slice of the very
// thread it waits for. Sleeping at once (OMP_WAIT_POLICY=passive) cures that but costs a
// futex wake-up per sweep, measured at up to 65 us here: a 256x256 run 3.3x slower alone. A
// short spin, 1000 rounds (what libgomp itself uses when it knows it has more threads than
// CPUs, which it cannot know when the others are other processes), keeps the speed of the
// default alone and bounds what a waiting thread takes from others (docs/performance-history.md).
#pragma once

namespace fdsolve {

/// The spin count fdsolve run and bench use unless the user set OMP_WAIT_POLICY or
/// GOMP_SPINCOUNT.
inline constexpr const char* kDefaultSpinCount = "1000";

/// Sets GOMP_SPINCOUNT=kDefaultSpinCount when the user has set neither OMP_WAIT_POLICY nor
/// GOMP_SPINCOUNT. libgomp reads its environment once, in a constructor that runs before
/// main() (a setenv() in main() or in a .preinit_array function was measured to have no
/// effect), so this sets the variable and re-executes the program through /proc/self/exe;
/// it returns (and the run goes on with libgomp's default) when that is not possible. Only
/// for `run` and `bench`: the other commands sweep nothing. Call first thing in main().
void default_spin_count(char** argv);

}  // namespace fdsolve
