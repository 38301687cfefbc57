// The thread budget (Note [Thread budget] in core/base/thread_budget.cc): the
// cgroup CPU limit read through a fake file system, the usable CPUs, and the
// rules by which the environment overrides the budget.
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>

#include "core/base/thread_budget.h"

namespace weft {
namespace {

FileReader FakeFiles(std::map<std::string, std::string> files) {
  return [files](const std::string& path, std::string* text) {
    auto it = files.find(path);
    if (it == files.end()) return false;
    *text = it->second;
    return true;
  };
}

EnvLookup FakeEnv(std::map<std::string, std::string> vars) {
  // The map is owned by the lambda, so the returned pointers stay valid while it lives.
  auto owned = std::make_shared<std::map<std::string, std::string>>(std::move(vars));
  return [owned](const char* name) -> const char* {
    auto it = owned->find(name);
    return it == owned->end() ? nullptr : it->second.c_str();
  };
}

TEST(CgroupCpuLimit, V2QuotaRoundsUp) {
  auto read = FakeFiles({{"/proc/self/cgroup", "0::/docker/abc\n"},
                         {"/sys/fs/cgroup/docker/abc/cpu.max", "150000 100000\n"}});
  EXPECT_EQ(CgroupCpuLimit(read), 2);
}

TEST(CgroupCpuLimit, V2MaxMeansNoLimit) {
  auto read = FakeFiles({{"/proc/self/cgroup", "0::/\n"}, {"/sys/fs/cgroup/cpu.max", "max 100000\n"}});
  EXPECT_EQ(CgroupCpuLimit(read), 0);
}

TEST(CgroupCpuLimit, V2TheSmallestAncestorLimitWins) {
  auto read = FakeFiles({{"/proc/self/cgroup", "0::/a/b\n"},
                         {"/sys/fs/cgroup/a/b/cpu.max", "max 100000\n"},
                         {"/sys/fs/cgroup/a/cpu.max", "300000 100000\n"},
                         {"/sys/fs/cgroup/cpu.max", "50000 100000\n"}});
  EXPECT_EQ(CgroupCpuLimit(read), 1);  // half a CPU is still one thread
}

TEST(CgroupCpuLimit, V1QuotaAndPeriod) {
  auto read = FakeFiles({{"/proc/self/cgroup", "5:memory:/x\n4:cpu,cpuacct:/x\n"},
                         {"/sys/fs/cgroup/cpu,cpuacct/x/cpu.cfs_quota_us", "400000\n"},
                         {"/sys/fs/cgroup/cpu,cpuacct/x/cpu.cfs_period_us", "100000\n"}});
  EXPECT_EQ(CgroupCpuLimit(read), 4);
}

TEST(CgroupCpuLimit, V1MinusOneMeansNoLimit) {
  auto read = FakeFiles({{"/proc/self/cgroup", "4:cpu:/\n"},
                         {"/sys/fs/cgroup/cpu/cpu.cfs_quota_us", "-1\n"},
                         {"/sys/fs/cgroup/cpu/cpu.cfs_period_us", "100000\n"}});
  EXPECT_EQ(CgroupCpuLimit(read), 0);
}

TEST(CgroupCpuLimit, UnreadableOrMalformedFilesMeanNoLimit) {
  EXPECT_EQ(CgroupCpuLimit(FakeFiles({})), 0);
  EXPECT_EQ(CgroupCpuLimit(FakeFiles({{"/proc/self/cgroup", "garbage"}})), 0);
  auto read = FakeFiles({{"/proc/self/cgroup", "0::/\n"}, {"/sys/fs/cgroup/cpu.max", "abc def"}});
  EXPECT_EQ(CgroupCpuLimit(read), 0);
  auto zero = FakeFiles({{"/proc/self/cgroup", "0::/\n"}, {"/sys/fs/cgroup/cpu.max", "100000 0"}});
  EXPECT_EQ(CgroupCpuLimit(zero), 0);
}

TEST(UsableCpus, AffinityCappedByTheCgroup) {
  EXPECT_EQ(UsableCpus(8, 0, 64), 8);
  EXPECT_EQ(UsableCpus(8, 2, 64), 2);
  EXPECT_EQ(UsableCpus(2, 8, 64), 2);
  EXPECT_EQ(UsableCpus(0, 0, 16), 16);  // affinity unknown: the hardware's count
  EXPECT_EQ(UsableCpus(0, 0, 0), 1);    // nothing known: one
}

TEST(ThreadBudget, DefaultIsOneWorkerWithATeamOfAllButOneCpu) {
  for (int cpus : {1, 2, 4, 16}) {
    ThreadBudget b = DecideThreadBudget(cpus, FakeEnv({}));
    const int team = cpus == 1 ? 1 : cpus - 1;  // one CPU left to the caller
    EXPECT_EQ(b.usable_cpus, cpus);
    EXPECT_EQ(b.cpu_workers, 1);
    EXPECT_EQ(b.kernel_threads, team);
    EXPECT_EQ(b.blas_threads, team);
    EXPECT_LE(b.cpu_workers * b.kernel_threads, cpus);
    EXPECT_EQ(b.cpu_workers_from, "budget");
    EXPECT_EQ(b.kernel_threads_from, "budget");
    EXPECT_EQ(b.wait_policy, "libgomp default");
  }
}

TEST(ThreadBudget, WorkersSetAloneShareTheCpus) {
  ThreadBudget b = DecideThreadBudget(5, FakeEnv({{"WEFT_CPU_WORKER_NTHREADS", "2"}}));
  EXPECT_EQ(b.cpu_workers, 2);
  EXPECT_EQ(b.cpu_workers_from, "WEFT_CPU_WORKER_NTHREADS");
  EXPECT_EQ(b.kernel_threads, 2);
  b = DecideThreadBudget(2, FakeEnv({{"WEFT_CPU_WORKER_NTHREADS", "3"}}));
  EXPECT_EQ(b.cpu_workers, 3);
  EXPECT_EQ(b.kernel_threads, 1);
}

TEST(ThreadBudget, OmpNumThreadsSetsTheTeamAndTheBlas) {
  ThreadBudget b = DecideThreadBudget(2, FakeEnv({{"OMP_NUM_THREADS", "1"}}));
  EXPECT_EQ(b.kernel_threads, 1);
  EXPECT_EQ(b.kernel_threads_from, "OMP_NUM_THREADS");
  EXPECT_EQ(b.blas_threads, 1);
  EXPECT_EQ(b.blas_threads_from, "OMP_NUM_THREADS");
  EXPECT_EQ(b.cpu_workers, 1);
  // The user may ask for more than the CPUs: what is set wins.
  b = DecideThreadBudget(2, FakeEnv({{"OMP_NUM_THREADS", "8,2"}}));
  EXPECT_EQ(b.kernel_threads, 8);
}

TEST(ThreadBudget, WeftOmpThreadsWinsOverOmpNumThreads) {
  ThreadBudget b = DecideThreadBudget(4, FakeEnv({{"OMP_NUM_THREADS", "3"}, {"WEFT_OMP_THREADS", "2"}}));
  EXPECT_EQ(b.kernel_threads, 2);
  EXPECT_EQ(b.kernel_threads_from, "WEFT_OMP_THREADS");
}

TEST(ThreadBudget, OpenblasNumThreadsSetsOnlyTheBlas) {
  ThreadBudget b = DecideThreadBudget(4, FakeEnv({{"OPENBLAS_NUM_THREADS", "1"}}));
  EXPECT_EQ(b.blas_threads, 1);
  EXPECT_EQ(b.blas_threads_from, "OPENBLAS_NUM_THREADS");
  EXPECT_EQ(b.kernel_threads, 3);
}

TEST(ThreadBudget, BadValuesAreIgnored) {
  for (const char* bad : {"0", "-2", "abc", "", " "}) {
    ThreadBudget b = DecideThreadBudget(
        2, FakeEnv({{"OMP_NUM_THREADS", bad}, {"WEFT_CPU_WORKER_NTHREADS", bad}, {"OPENBLAS_NUM_THREADS", bad}}));
    EXPECT_EQ(b.cpu_workers, 1) << bad;
    EXPECT_EQ(b.kernel_threads, 1) << bad;
    EXPECT_EQ(b.blas_threads, 1) << bad;
    EXPECT_EQ(b.kernel_threads_from, "budget") << bad;
  }
}

TEST(ThreadBudget, ReportsTheWaitPolicyLibgompGot) {
  EXPECT_EQ(DecideThreadBudget(2, FakeEnv({{"OMP_WAIT_POLICY", "PASSIVE"}})).wait_policy, "OMP_WAIT_POLICY=PASSIVE");
  EXPECT_EQ(DecideThreadBudget(2, FakeEnv({{"GOMP_SPINCOUNT", "1000"}})).wait_policy, "GOMP_SPINCOUNT=1000");
}

TEST(ThreadBudget, TheProcessBudgetFitsItsCpus) {
  const ThreadBudget& b = ProcessThreadBudget();
  EXPECT_GE(b.usable_cpus, 1);
  EXPECT_GE(b.cpu_workers, 1);
  EXPECT_GE(b.kernel_threads, 1);
  EXPECT_EQ(&b, &ProcessThreadBudget());  // decided once
}

}  // namespace
}  // namespace weft
