// How many threads the process computes on: the CPUs it may use, the engine's
// CPU workers, each kernel's OpenMP team, the BLAS's threads, and the OpenMP
// wait policy. Decided once, at first use; Note [Thread budget] in
// thread_budget.cc.
#pragma once
#include <functional>
#include <string>

namespace weft {

// Reads a whole file into *text; false when it cannot. Injectable so tests can
// feed fake /proc and /sys contents.
using FileReader = std::function<bool(const std::string& path, std::string* text)>;
// Looks an environment variable up; nullptr when unset. Injectable for tests.
using EnvLookup = std::function<const char*(const char* name)>;

// The CPU limit of the process's cgroup and its ancestors (v2 cpu.max "quota
// period", v1 cpu.cfs_quota_us / cpu.cfs_period_us), rounded up to whole CPUs;
// 0 when there is no quota (or no cgroup file can be read).
int CgroupCpuLimit(const FileReader& read);

// The CPUs the process may use: the affinity mask's count (0 = unknown, then
// `hardware_threads`) capped by a cgroup limit (0 = none); at least 1.
int UsableCpus(int affinity_cpus, int cgroup_limit, int hardware_threads);

struct ThreadBudget {
  int usable_cpus = 1;
  int cpu_workers = 1;     // the threaded engine's CPU compute workers
  int kernel_threads = 1;  // each kernel's OpenMP team (ParallelFor, oneDNN)
  int blas_threads = 1;    // openblas_set_num_threads
  // Where each count came from: "budget" (decided here) or the variable's name.
  std::string cpu_workers_from, kernel_threads_from, blas_threads_from;
  // The OpenMP wait policy libgomp was started with, as "NAME=value", or
  // "libgomp default" when neither OMP_WAIT_POLICY nor GOMP_SPINCOUNT was set.
  std::string wait_policy;
};

// The budget for `usable_cpus` and the environment; Note [Thread budget].
ThreadBudget DecideThreadBudget(int usable_cpus, const EnvLookup& env);

// This process's budget: its affinity and cgroup, its environment at first call.
const ThreadBudget& ProcessThreadBudget();

}  // namespace weft
