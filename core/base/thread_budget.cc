#include "core/base/thread_budget.h"

#include <sched.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <thread>
#include <vector>

namespace weft {

// Note [Thread budget]
// Every thread that computes is counted against the CPUs the process may use
// (issue 38): the affinity mask (taskset, a container's cpuset) capped by the
// cgroup CPU quota (docker --cpus, Kubernetes limits), rounded up, at least 1.
// By default the engine runs ONE CPU compute worker whose kernels use a team
// of N - 1 threads (at least 1): one CPU is left to the thread that pushes
// (the Python caller, which dispatches and runs the small ops itself, Note
// [Small ops run at push]) and to whatever else runs on the machine. A big op
// (a convolution, a large GEMM) gets the team while small ops stay on one
// thread (ParallelFor's threshold, Note [ParallelFor threads] in op_util.cc;
// oneDNN's and OpenBLAS's own per-shape heuristics). MXNet 1.9.1 runs one
// worker too, with a team of half the CPUs (it assumes hyperthreads).
// Measured on benchmarks/gluon_vs_torch.py, 2 cores (AMD EPYC) shared with
// other jobs, median of 3 interleaved rounds, ms per step, MLP imperative /
// MLP hybridized / LeNet:
//   one thread (OMP_NUM_THREADS=1):            5.5 /  6.7 /  5.5
//   this default (team of N - 1 = 1), no var:  5.7 /  5.9 /  5.3 (busy: 8.1 / 7.9 / 7.1)
//   one worker, team of 2, passive:            49  /  65  /  44
//   the old default, 2 workers x team of 2:    63  /  64  /  42
//   MXNet out of the box (one thread here):   6.8 /  8.0 /  7.9
// A team's barrier waits for its slowest thread, so a team as wide as the
// machine runs at the pace of whichever core the neighbours hold: 8-10x
// slower than one thread, for every framework (MXNet with 2 threads: 32 / 37
// / 31). N workers of one thread each would not help these nets either: they
// are chains of layers, with little to run side by side.
//
// What the user sets wins, alone or together: WEFT_CPU_WORKER_NTHREADS (the
// workers), WEFT_OMP_THREADS, else OMP_NUM_THREADS (the team; its first entry
// when it is a list), OPENBLAS_NUM_THREADS (the BLAS; else the team's count).
// With only the workers set, the team is (N - 1) / workers (at least 1), so
// the sum still fits. A value that is not a positive integer is ignored.
//
// The wait policy (Note [OpenMP wait policy]): libgomp reads OMP_WAIT_POLICY
// and GOMP_SPINCOUNT once, in its own constructor, which runs before this
// library's (it is a dependency), so the library cannot choose it from C++.
// The Python binding sets OMP_WAIT_POLICY=PASSIVE, when neither variable is
// set, before it loads the library (weft/base.py); this records what libgomp
// got, so weft.runtime.thread_budget() shows it.

namespace {

bool ReadWholeFile(const std::string& path, std::string* text) {
  std::ifstream f(path);
  if (!f) return false;
  std::ostringstream s;
  s << f.rdbuf();
  *text = s.str();
  return true;
}

// A positive integer at the start of `s` (after blanks), else 0.
long long LeadingPositive(const std::string& s) {
  size_t i = s.find_first_not_of(" \t");
  if (i == std::string::npos || s[i] < '0' || s[i] > '9') return 0;
  errno = 0;
  char* end = nullptr;
  long long v = std::strtoll(s.c_str() + i, &end, 10);
  if (errno != 0 || v <= 0) return 0;
  return v;
}

int CeilDiv(long long quota, long long period) {
  if (quota <= 0 || period <= 0) return 0;
  long long cpus = (quota + period - 1) / period;
  return static_cast<int>(std::min<long long>(cpus, 1 << 20));
}

// "quota period" (v2 cpu.max); "max ..." means no limit.
int CpuMaxLimit(const std::string& text) {
  std::istringstream in(text);
  std::string quota, period;
  if (!(in >> quota >> period) || quota == "max") return 0;
  return CeilDiv(LeadingPositive(quota), LeadingPositive(period));
}

// The process's cgroup directory and its ancestors up to `root`, deepest first.
std::vector<std::string> CgroupDirs(const std::string& root, const std::string& path) {
  std::vector<std::string> dirs;
  std::string p = path;
  while (!p.empty() && p != "/") {
    dirs.push_back(root + p);
    size_t slash = p.find_last_of('/');
    p = slash == std::string::npos ? "" : p.substr(0, slash);
  }
  dirs.push_back(root);
  return dirs;
}

// The smallest non-zero of a and b (0 = no limit).
int MinLimit(int a, int b) { return a == 0 ? b : b == 0 ? a : std::min(a, b); }

// A positive thread count from a variable ("4", or an OpenMP list "4,2"); 0 if unset or bad.
int PositiveVar(const EnvLookup& env, const char* name) {
  const char* v = env(name);
  if (v == nullptr) return 0;
  return static_cast<int>(std::min<long long>(LeadingPositive(v), 1 << 16));
}

}  // namespace

int CgroupCpuLimit(const FileReader& read) {
  std::string self;
  if (!read("/proc/self/cgroup", &self)) return 0;
  int limit = 0;
  std::istringstream lines(self);
  std::string line;
  while (std::getline(lines, line)) {
    // "hierarchy-id:controllers:path"; v2 is "0::path".
    size_t a = line.find(':'), b = a == std::string::npos ? a : line.find(':', a + 1);
    if (b == std::string::npos) continue;
    const std::string controllers = line.substr(a + 1, b - a - 1), path = line.substr(b + 1);
    std::string text;
    if (controllers.empty()) {
      for (const std::string& dir : CgroupDirs("/sys/fs/cgroup", path))
        if (read(dir + "/cpu.max", &text)) limit = MinLimit(limit, CpuMaxLimit(text));
      continue;
    }
    std::istringstream names(controllers);
    std::string name;
    bool has_cpu = false;
    while (std::getline(names, name, ',')) has_cpu = has_cpu || name == "cpu";
    if (!has_cpu) continue;
    // v1 mounts the controller as "cpu,cpuacct" (with a "cpu" link) or "cpu".
    for (const std::string& mount : {std::string("/sys/fs/cgroup/cpu,cpuacct"), std::string("/sys/fs/cgroup/cpu")}) {
      bool found = false;
      for (const std::string& dir : CgroupDirs(mount, path)) {
        std::string quota, period;
        if (!read(dir + "/cpu.cfs_quota_us", &quota) || !read(dir + "/cpu.cfs_period_us", &period)) continue;
        found = true;
        limit = MinLimit(limit, CeilDiv(LeadingPositive(quota), LeadingPositive(period)));  // -1: none
      }
      if (found) break;
    }
  }
  return limit;
}

int UsableCpus(int affinity_cpus, int cgroup_limit, int hardware_threads) {
  int cpus = affinity_cpus > 0 ? affinity_cpus : hardware_threads;
  if (cgroup_limit > 0) cpus = std::min(cpus, cgroup_limit);
  return std::max(1, cpus);
}

ThreadBudget DecideThreadBudget(int usable_cpus, const EnvLookup& env) {
  ThreadBudget b;
  b.usable_cpus = std::max(1, usable_cpus);
  b.cpu_workers = PositiveVar(env, "WEFT_CPU_WORKER_NTHREADS");
  b.cpu_workers_from = b.cpu_workers > 0 ? "WEFT_CPU_WORKER_NTHREADS" : "budget";
  if (b.cpu_workers == 0) b.cpu_workers = 1;
  b.kernel_threads = PositiveVar(env, "WEFT_OMP_THREADS");
  b.kernel_threads_from = "WEFT_OMP_THREADS";
  if (b.kernel_threads == 0) {
    b.kernel_threads = PositiveVar(env, "OMP_NUM_THREADS");
    b.kernel_threads_from = "OMP_NUM_THREADS";
  }
  if (b.kernel_threads == 0) {
    b.kernel_threads = std::max(1, (b.usable_cpus - 1) / b.cpu_workers);  // one CPU for the caller
    b.kernel_threads_from = "budget";
  }
  b.blas_threads = PositiveVar(env, "OPENBLAS_NUM_THREADS");
  b.blas_threads_from = "OPENBLAS_NUM_THREADS";
  if (b.blas_threads == 0) {
    b.blas_threads = b.kernel_threads;
    b.blas_threads_from = b.kernel_threads_from;
  }
  const char* policy = env("OMP_WAIT_POLICY");
  const char* spin = env("GOMP_SPINCOUNT");
  if (policy != nullptr) b.wait_policy = std::string("OMP_WAIT_POLICY=") + policy;
  if (spin != nullptr) b.wait_policy += (b.wait_policy.empty() ? "" : " ") + std::string("GOMP_SPINCOUNT=") + spin;
  if (b.wait_policy.empty()) b.wait_policy = "libgomp default";
  return b;
}

const ThreadBudget& ProcessThreadBudget() {
  static const ThreadBudget budget = [] {
    cpu_set_t set;
    CPU_ZERO(&set);
    int affinity = sched_getaffinity(0, sizeof(set), &set) == 0 ? CPU_COUNT(&set) : 0;
    int cpus = UsableCpus(affinity, CgroupCpuLimit(ReadWholeFile),
                          static_cast<int>(std::thread::hardware_concurrency()));
    return DecideThreadBudget(cpus, [](const char* name) -> const char* { return std::getenv(name); });
  }();
  return budget;
}

}  // namespace weft
