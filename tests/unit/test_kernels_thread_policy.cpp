// The CPU thread policy: the cgroup quota read from a fake cgroup tree written here, the order
// of --threads / OMP_NUM_THREADS / affinity, team sizes by box size, and sweeps that give the
// same bits however many threads split them.
#include <doctest/doctest.h>
#include <sched.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <vector>

#include "backend.hpp"
#include "cpu/stencil_cpu.hpp"
#include "cpu/thread_policy.hpp"

using namespace fdsolve;
namespace fs = std::filesystem;

namespace {

void write(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  std::ofstream(p) << text;
}

/// A scratch directory removed at the end of the test.
struct Scratch {
  fs::path dir = fs::temp_directory_path() /
                 ("fdsolve_thread_policy_" + std::to_string(::getpid()) + "_" +
                  std::to_string(std::random_device{}()));
  ~Scratch() { fs::remove_all(dir); }
};

/// Restores the policy and OMP_NUM_THREADS a test changed.
struct KeepPolicy {
  cpu::ThreadPolicy saved = cpu::thread_policy();
  const char* env = std::getenv("OMP_NUM_THREADS");
  std::string env_text = env ? env : "";
  ~KeepPolicy() {
    if (env)
      setenv("OMP_NUM_THREADS", env_text.c_str(), 1);
    else
      unsetenv("OMP_NUM_THREADS");
    cpu::set_thread_policy(saved);
  }
};

}  // namespace

TEST_CASE("kernels: cgroup v2 cpu.max, the tightest along the path") {
  Scratch s;
  write(s.dir / "proc", "0::/a/b\n");
  write(s.dir / "root/a/b/cpu.max", "max 100000\n");  // no limit here...
  write(s.dir / "root/a/cpu.max", "250000 100000\n");  // ...but 2.5 CPUs above
  write(s.dir / "root/cpu.max", "max 100000\n");
  CHECK(cpu::cgroup_cpu_quota((s.dir / "proc").string(), (s.dir / "root").string()) == 2.5);
  write(s.dir / "root/a/b/cpu.max", "50000 100000\n");
  CHECK(cpu::cgroup_cpu_quota((s.dir / "proc").string(), (s.dir / "root").string()) == 0.5);
}

TEST_CASE("kernels: cgroup v2 without a limit, and a path missing under the mount") {
  Scratch s;
  write(s.dir / "proc", "0::/not/mounted/here\n");
  write(s.dir / "root/cpu.max", "max 100000\n");
  CHECK(cpu::cgroup_cpu_quota((s.dir / "proc").string(), (s.dir / "root").string()) == 0);
  write(s.dir / "root/cpu.max", "300000 100000\n");  // a container's own root carries it
  CHECK(cpu::cgroup_cpu_quota((s.dir / "proc").string(), (s.dir / "root").string()) == 3);
  CHECK(cpu::cgroup_cpu_quota((s.dir / "missing").string(), (s.dir / "root").string()) == 0);
}

TEST_CASE("kernels: cgroup v1 cfs quota (cpu,cpuacct mount), -1 meaning none") {
  Scratch s;
  write(s.dir / "proc", "4:memory:/x\n3:cpu,cpuacct:/job\n0::/\n");
  write(s.dir / "root/cpu,cpuacct/job/cpu.cfs_quota_us", "-1\n");
  write(s.dir / "root/cpu,cpuacct/job/cpu.cfs_period_us", "100000\n");
  CHECK(cpu::cgroup_cpu_quota((s.dir / "proc").string(), (s.dir / "root").string()) == 0);
  write(s.dir / "root/cpu,cpuacct/job/cpu.cfs_quota_us", "150000\n");
  CHECK(cpu::cgroup_cpu_quota((s.dir / "proc").string(), (s.dir / "root").string()) == 1.5);
}

TEST_CASE("kernels: thread count from --threads, then OMP_NUM_THREADS, then the affinity mask") {
  KeepPolicy keep;
  setenv("OMP_NUM_THREADS", "3", 1);
  CHECK(cpu::resolve_thread_policy(5).threads == 5);
  CHECK(cpu::resolve_thread_policy(5).source == "--threads");
  CHECK(cpu::resolve_thread_policy(0).threads == 3);
  CHECK(cpu::resolve_thread_policy(0).source == "OMP_NUM_THREADS");
  unsetenv("OMP_NUM_THREADS");
  cpu_set_t set;
  CPU_ZERO(&set);
  REQUIRE(sched_getaffinity(0, sizeof set, &set) == 0);
  CHECK(cpu::affinity_cpus() == CPU_COUNT(&set));
  const cpu::ThreadPolicy automatic = cpu::resolve_thread_policy(0);
  CHECK(automatic.threads >= 1);
  CHECK(automatic.threads <= CPU_COUNT(&set));  // never more than the mask allows
}

TEST_CASE("kernels: team size grows with the box, one thread per min_cells_per_thread") {
  KeepPolicy keep;
  cpu::set_thread_policy({8, "test", 1000});
  CHECK(cpu::team_size(0) == 1);
  CHECK(cpu::team_size(1999) == 1);
  CHECK(cpu::team_size(2000) == 2);
  CHECK(cpu::team_size(7999) == 7);
  CHECK(cpu::team_size(1000000) == 8);
  cpu::set_thread_policy({2, "test", cpu::kMinCellsPerThread});
  CHECK(cpu::team_size(33 * 33) == 1);  // the small case: no team to wait for
}

TEST_CASE("kernels: CPU sweeps give the same bits on 1, 2, 3 and 7 threads") {
  KeepPolicy keep;
  std::mt19937_64 gen(11);
  std::uniform_real_distribution<double> u(-1, 1);
  for (const int points : {5, 7, 27}) {
    CAPTURE(points);
    const int dims = points == 5 ? 2 : 3;
    const Layout L = Layout::make(dims, {37, 29, dims == 3 ? 23 : 1}, 8);
    std::vector<double> in(L.size), src(L.size);
    for (auto& v : in) v = u(gen);
    for (auto& v : src) v = u(gen);
    SweepArgs<double> a;
    a.in = in.data();
    a.source_field = src.data();
    a.layout = L;
    a.box = Box{{1, 1, dims == 3 ? 1 : 0}, {36, 28, dims == 3 ? 22 : 1}};
    a.weights.points = points;
    a.weights.center = 0.3;
    a.weights.face = {0.1, 0.11, dims == 3 ? 0.12 : 0.0};
    a.weights.edge = points == 27 ? 0.01 : 0.0;
    a.weights.corner = points == 27 ? 0.002 : 0.0;
    std::vector<double> one(L.size, 0.0);
    a.out = one.data();
    cpu::set_thread_policy({1, "test", 1});
    SweepStats s1;
    cpu::sweep(a, &s1);
    for (const int threads : {2, 3, 7}) {
      CAPTURE(threads);
      cpu::set_thread_policy({threads, "test", 1});  // split even this small box
      std::vector<double> many(L.size, 0.0);
      a.out = many.data();
      SweepStats s;
      cpu::sweep(a, &s);
      CHECK(std::memcmp(one.data(), many.data(), one.size() * sizeof(double)) == 0);
      CHECK(std::memcmp(&s.sum_sq, &s1.sum_sq, sizeof s.sum_sq) == 0);
      CHECK(std::memcmp(&s.sum, &s1.sum, sizeof s.sum) == 0);
      CHECK(s.count == s1.count);
    }
  }
}
