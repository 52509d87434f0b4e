// The CPU backend's thread policy (see thread_policy.hpp).
#include "thread_policy.hpp"

#include <omp.h>
#include <sched.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <mutex>
#include <sstream>
#include <string>
#include <vector>

namespace fdsolve::cpu {
namespace {

/// The whitespace-separated words of a file (none when it is missing or unreadable).
std::vector<std::string> words_of(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::string> words;
  for (std::string w; in >> w;) words.push_back(w);
  return words;
}

double number(const std::string& text) {
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  return end != text.c_str() && *end == '\0' ? v : NAN;
}

/// The quota in CPUs that one cgroup directory sets, or 0.
double quota_in(const std::string& dir, bool v2) {
  double quota = NAN, period = NAN;
  if (v2) {
    const auto w = words_of(dir + "/cpu.max");  // "max 100000" or "200000 100000"
    if (w.size() == 2) quota = number(w[0]), period = number(w[1]);
  } else {
    const auto q = words_of(dir + "/cpu.cfs_quota_us");  // -1: none
    const auto p = words_of(dir + "/cpu.cfs_period_us");
    if (q.size() == 1 && p.size() == 1) quota = number(q[0]), period = number(p[0]);
  }
  return quota > 0 && period > 0 ? quota / period : 0.0;
}

/// The tightest quota along `path` and its ancestors below `mount`. Inside a container the
/// path named in /proc/self/cgroup may not exist under the mount (a cgroup namespace shows
/// the container's own cgroup as the root), which the walk up to "/" covers.
double tightest_quota(const std::string& mount, std::string path, bool v2) {
  double best = 0;
  for (;;) {
    const double q = quota_in(mount + (path == "/" ? "" : path), v2);
    if (q > 0 && (best == 0 || q < best)) best = q;
    if (path.empty() || path == "/") return best;
    const auto slash = path.find_last_of('/');
    path = slash == 0 || slash == std::string::npos ? "/" : path.substr(0, slash);
  }
}

int env_threads() {
  const char* s = std::getenv("OMP_NUM_THREADS");
  if (!s) return 0;
  const int n = std::atoi(s);  // "4,2" (nested levels) counts as 4
  return n > 0 ? n : 0;
}

std::mutex g_mutex;
ThreadPolicy* g_policy = nullptr;
// g_policy's numbers, read by every parallel region without the lock.
std::atomic<int> g_threads{0};
std::atomic<index_t> g_min_cells{kMinCellsPerThread};

}  // namespace

int affinity_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) != 0) return std::max(1, omp_get_num_procs());
  return std::max(1, CPU_COUNT(&set));
}

double cgroup_cpu_quota(const std::string& proc_cgroup, const std::string& root) {
  std::ifstream in(proc_cgroup);
  double best = 0;
  const auto tighter = [&](double q) {
    if (q > 0 && (best == 0 || q < best)) best = q;
  };
  for (std::string line; std::getline(in, line);) {
    // hierarchy-id:controllers:path
    const auto a = line.find(':'), b = line.find(':', a + 1);
    if (a == std::string::npos || b == std::string::npos) continue;
    const std::string controllers = line.substr(a + 1, b - a - 1), path = line.substr(b + 1);
    if (line.compare(0, a, "0") == 0 && controllers.empty()) {
      tighter(tightest_quota(root, path, true));
      continue;
    }
    std::stringstream list(controllers);
    for (std::string c; std::getline(list, c, ',');)
      if (c == "cpu") {
        // v1 mounts the cpu controller as cpu,cpuacct (with links cpu and cpuacct) or alone.
        tighter(tightest_quota(root + "/" + controllers, path, false));
        tighter(tightest_quota(root + "/cpu", path, false));
      }
  }
  return best;
}

ThreadPolicy resolve_thread_policy(int requested) {
  if (requested > 0) return {requested, "--threads"};
  if (const int n = env_threads()) return {n, "OMP_NUM_THREADS"};
  const int cpus = affinity_cpus();
  const double quota = cgroup_cpu_quota();
  if (quota > 0 && std::ceil(quota) < cpus)
    return {std::max(1, static_cast<int>(std::ceil(quota))), "cgroup CPU quota"};
  return {cpus, "affinity mask"};
}

void set_thread_policy(const ThreadPolicy& p) {
  std::lock_guard<std::mutex> lock(g_mutex);
  static ThreadPolicy storage;
  storage = p;
  g_policy = &storage;
  g_min_cells.store(std::max<index_t>(1, p.min_cells_per_thread));
  g_threads.store(p.threads);
  omp_set_num_threads(p.threads);
}

const ThreadPolicy& thread_policy() {
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    if (g_policy) return *g_policy;
  }
  set_thread_policy(resolve_thread_policy(0));
  return thread_policy();
}

void adopt_thread_policy() { omp_set_num_threads(thread_policy().threads); }

int team_size(index_t cells) {
  int threads = g_threads.load(std::memory_order_relaxed);
  if (threads == 0) threads = thread_policy().threads;
  const index_t by_size =
      std::max<index_t>(1, cells / g_min_cells.load(std::memory_order_relaxed));
  return static_cast<int>(std::min<index_t>(threads, by_size));
}

}  // namespace fdsolve::cpu
