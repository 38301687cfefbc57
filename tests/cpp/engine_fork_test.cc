// Note [Engine and fork] (core/engine/fork_handlers.cc): a process that
// forks keeps a working engine, and so does the child, even when ops were
// pending and the workers had been running at the moment of fork().
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <thread>
#include <vector>

#include "core/engine/engine.h"

namespace weft {
namespace {

// Pushes `n` increments of `*counter` as writes of `var` (so they are
// serialised by the engine) and returns.
void PushIncrements(Engine* eng, VarHandle var, int* counter, int n, int sleep_us = 0) {
  for (int i = 0; i < n; ++i) {
    eng->Push(
        [counter, sleep_us](RunContext) {
          if (sleep_us > 0) std::this_thread::sleep_for(std::chrono::microseconds(sleep_us));
          ++*counter;
        },
        Context::CPU(0), {}, {var}, FnProperty::kNormal, 0, "increment");
  }
}

TEST(EngineFork, ParentAndChildKeepWorkingEngines) {
  std::unique_ptr<Engine> eng = Engine::Create("threaded");
  VarHandle var = eng->NewVar();
  int counter = 0;
  PushIncrements(eng.get(), var, &counter, 100);
  eng->WaitForAll();
  // Ops still pending when fork() is called: the prepare handler waits for them.
  PushIncrements(eng.get(), var, &counter, 50, 200);
  pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    // Child: everything pushed before fork ran; new work runs on new workers.
    int ok = counter == 150;
    PushIncrements(eng.get(), var, &counter, 25);
    eng->WaitForVar(var);
    ok = ok && counter == 175;
    _exit(ok ? 0 : 3);
  }
  PushIncrements(eng.get(), var, &counter, 10);
  eng->WaitForAll();
  EXPECT_EQ(counter, 160);
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status)) << "child did not exit normally";
  EXPECT_EQ(WEXITSTATUS(status), 0) << "child engine lost work or ran ops twice";
  eng->DeleteVar(nullptr, Context::CPU(0), var);
  eng->WaitForAll();
}

TEST(EngineFork, RepeatedForksFromABusyEngine) {
  std::unique_ptr<Engine> eng = Engine::Create("threaded");
  VarHandle var = eng->NewVar();
  int counter = 0;
  for (int round = 0; round < 20; ++round) {
    PushIncrements(eng.get(), var, &counter, 20);
    pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      PushIncrements(eng.get(), var, &counter, 1);
      eng->WaitForAll();
      _exit(counter == 20 * (round + 1) + 1 ? 0 : 3);
    }
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFEXITED(status));
    ASSERT_EQ(WEXITSTATUS(status), 0) << "round " << round;
  }
  eng->WaitForAll();
  EXPECT_EQ(counter, 400);
  eng->DeleteVar(nullptr, Context::CPU(0), var);
  eng->WaitForAll();
}

}  // namespace
}  // namespace weft
