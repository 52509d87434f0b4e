// OpenMP's wait policy for the fdsolve process (issue 11). libgomp's threads spin at each
// barrier (300000 rounds when OMP_WAIT_POLICY is unset) before they sleep; when runs share
// cores, a spinning thread burns the time slice of the very thread it waits for, and a sweep
// of a few microseconds took milliseconds. Passive waiting costs a wake-up per parallel
// region (about 10 us), nothing next to a sweep big enough to be split (thread_policy.hpp).
#pragma once

namespace fdsolve {

/// Makes passive waiting the default when the user has set neither OMP_WAIT_POLICY nor
/// GOMP_SPINCOUNT. libgomp reads its environment once, in a constructor that runs before
/// main() (a setenv() in main() or in a .preinit_array function was measured to have no
/// effect), so this sets the variable and re-executes the program through /proc/self/exe;
/// it returns (and the run goes on with libgomp's default) when that is not possible. Only
/// for `run` and `bench`: the other commands sweep nothing.
/// Call first thing in main(), before any thread exists.
void default_to_passive_wait(char** argv);

}  // namespace fdsolve
