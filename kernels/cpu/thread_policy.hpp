// How many OpenMP threads the CPU backend uses. The limit is resolved once per process from
// what the process may really use (not what the machine has), and each parallel region uses
// fewer threads when its box is too small to pay for a team: libgomp's threads spin at every
// barrier, and when runs share cores a spinning thread burns the time slice of the thread it
// waits for (issue 11: four 33x33 runs on 2 cores took 55 s instead of 0.2 s).
#pragma once

#include <string>

#include "../layout.hpp"

namespace fdsolve::cpu {

/// Nodes a thread must have for a sweep to be worth splitting: below 2x this a sweep runs on
/// one thread. Measured in docs/performance-history.md (sweep time against threads and grid size).
inline constexpr index_t kMinCellsPerThread = 32768;

struct ThreadPolicy {
  int threads = 1;     // the most threads one parallel region uses
  std::string source;  // why: "--threads", "OMP_NUM_THREADS", "affinity mask", "cgroup CPU quota"
  index_t min_cells_per_thread = kMinCellsPerThread;  // tests lower it to split small boxes
};

/// The policy for `requested` threads (0: automatic): `requested` when > 0, else
/// OMP_NUM_THREADS when set to a positive number, else the CPUs of this process's affinity
/// mask, capped by a cgroup CPU quota (v2 cpu.max or v1 cfs_quota_us, rounded up) where set.
ThreadPolicy resolve_thread_policy(int requested);

/// Makes `p` the process's policy (and OpenMP's default team size).
void set_thread_policy(const ThreadPolicy& p);

/// The process's policy; resolve_thread_policy(0) until set_thread_policy is called.
const ThreadPolicy& thread_policy();

/// Gives the calling thread, one not started by OpenMP, the policy's team size: OpenMP keeps
/// the size set_thread_policy chose per thread, and a new thread starts from its default.
void adopt_thread_policy();

/// Threads for a parallel region over `cells` nodes: at most the policy's, at most one per
/// min_cells_per_thread nodes, at least one.
int team_size(index_t cells);

/// The CPUs of this process's affinity mask.
int affinity_cpus();

/// The tightest cgroup CPU quota, in CPUs, over the process's cgroup and its ancestors (0:
/// none), read from `proc_cgroup` (/proc/self/cgroup) under the cgroup mount `root`
/// (/sys/fs/cgroup): v2 cpu.max, or v1 cpu.cfs_quota_us / cpu.cfs_period_us.
double cgroup_cpu_quota(const std::string& proc_cgroup = "/proc/self/cgroup",
                        const std::string& root = "/sys/fs/cgroup");

}  // namespace fdsolve::cpu
