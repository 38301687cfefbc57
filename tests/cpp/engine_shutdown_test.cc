// Note [Engine shutdown] (core/engine/engine.h), under both engines: Shutdown
// finishes the work pushed before it, joins the workers, and from then on
// refuses new work with an error while frees and waits keep working. Also
// built with ThreadSanitizer (weft_engine_tsan_tests).
#include <dirent.h>
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <fstream>
#include <memory>
#include <string>
#include <thread>

#include "core/base/error.h"
#include "core/engine/engine.h"

namespace weft {
namespace {

class EngineShutdownTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override { engine_ = Engine::Create(GetParam()); }
  Engine& eng() { return *engine_; }
  std::unique_ptr<Engine> engine_;
};

// Expects `fn` to throw a weft::Error with `status` whose message contains
// `needle`.
template <typename Fn>
void ExpectError(Fn fn, Status status, const std::string& needle) {
  try {
    fn();
    ADD_FAILURE() << "expected an exception containing '" << needle << "'";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), status) << e.what();
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
  }
}

// Threads of this process whose name starts with `prefix` (the engine names
// its lanes "<device>/<i>", e.g. "cpu(7)/0").
int ThreadsNamed(const std::string& prefix) {
  int n = 0;
  DIR* dir = opendir("/proc/self/task");
  if (dir == nullptr) return -1;
  while (dirent* d = readdir(dir)) {
    if (d->d_name[0] == '.') continue;
    std::ifstream comm(std::string("/proc/self/task/") + d->d_name + "/comm");
    std::string name;
    if (std::getline(comm, name) && name.compare(0, prefix.size(), prefix) == 0) ++n;
  }
  closedir(dir);
  return n;
}

TEST_P(EngineShutdownTest, FinishesPushedWorkThenRefusesPushes) {
  VarHandle v = eng().NewVar();
  int count = 0;
  for (int i = 0; i < 200; ++i) {
    eng().Push(
        [&count, i](RunContext) {
          if (i % 50 == 0) std::this_thread::sleep_for(std::chrono::milliseconds(5));
          ++count;
        },
        Context::CPU(i % 2), {}, {v}, FnProperty::kNormal, 0, "inc");
  }
  eng().Shutdown();
  EXPECT_EQ(count, 200) << "Shutdown returned before the work pushed earlier was done";
  bool ran = false;
  ExpectError([&] { eng().Push([&ran](RunContext) { ran = true; }, Context::CPU(), {}, {v}, FnProperty::kNormal, 0,
                               "late_op"); },
              Status::kEngine, "cannot run 'late_op': the engine was shut down");
  EXPECT_FALSE(ran);
  // Reading, waiting and freeing still work.
  EXPECT_NO_THROW(eng().WaitForVar(v));
  EXPECT_NO_THROW(eng().WaitForAll());
  bool freed = false;
  eng().DeleteVar([&freed] { freed = true; }, Context::CPU(), v);
  EXPECT_TRUE(freed) << "a deletion after shutdown must run on the caller";
  EXPECT_NO_THROW(eng().Shutdown());  // idempotent
}

TEST_P(EngineShutdownTest, JoinsTheWorkers) {
  VarHandle v = eng().NewVar();
  eng().Push([](RunContext) {}, Context::CPU(7), {}, {v}, FnProperty::kNormal, 0, "start_lane");
  eng().WaitForVar(v);
  const int before = ThreadsNamed("cpu(7)");
  eng().Shutdown();
  EXPECT_EQ(ThreadsNamed("cpu(7)"), 0) << "workers still alive after Shutdown";
  if (GetParam() == "threaded") {
    EXPECT_GT(before, 0) << "the lane had no threads to stop";
  }
  // A device never used before gets no lane after shutdown: its deletion
  // runs on the caller.
  bool freed = false;
  eng().DeleteVar([&freed] { freed = true; }, Context::CPU(9), v);
  EXPECT_TRUE(freed);
  EXPECT_EQ(ThreadsNamed("cpu(9)"), 0);
}

TEST_P(EngineShutdownTest, ErrorsOfPushedWorkStayOnTheirVars) {
  VarHandle v = eng().NewVar();
  eng().Push([](RunContext) { WEFT_THROW(kShape) << "bad shape in kernel"; }, Context::CPU(), {}, {v},
             FnProperty::kNormal, 0, "failing_op");
  EXPECT_NO_THROW(eng().Shutdown());
  ExpectError([&] { eng().WaitForVar(v); }, Status::kShape, "bad shape in kernel");
  eng().DeleteVar(nullptr, Context::CPU(), v);
}

TEST_P(EngineShutdownTest, RefusedFromInsideAnOp) {
  VarHandle v = eng().NewVar();
  std::string message;
  Status status = Status::kOk;
  eng().Push(
      [&](RunContext) {
        try {
          eng().Shutdown();
        } catch (const Error& e) {
          status = e.status();
          message = e.what();
        }
      },
      Context::CPU(), {}, {v}, FnProperty::kNormal, 0, "calls_shutdown");
  eng().WaitForVar(v);
  EXPECT_EQ(status, Status::kEngine);
  EXPECT_NE(message.find("from inside one of its operations"), std::string::npos) << message;
  // The engine was left working.
  int x = 0;
  eng().Push([&x](RunContext) { x = 1; }, Context::CPU(), {}, {v}, FnProperty::kNormal, 0, "after");
  eng().WaitForVar(v);
  EXPECT_EQ(x, 1);
  eng().DeleteVar(nullptr, Context::CPU(), v);
  eng().Shutdown();
}

INSTANTIATE_TEST_SUITE_P(Engines, EngineShutdownTest, ::testing::Values("naive", "threaded"),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

// Threaded only: the naive engine runs an op on the thread that pushes it,
// so no op of another thread's can be queued behind a shutdown.
TEST(EngineShutdown, RunningOpsMayPushWhileOthersAreRefused) {
  std::unique_ptr<Engine> e = Engine::Create("threaded");
  VarHandle a = e->NewVar(), b = e->NewVar(), probe = e->NewVar();
  std::atomic<bool> release{false};
  std::atomic<int> follow_up{0};
  e->Push(
      [&](RunContext) {
        while (!release.load()) std::this_thread::sleep_for(std::chrono::microseconds(100));
        // Part of this op's work: accepted although Shutdown has begun.
        e->Push([&follow_up](RunContext) { follow_up = 1; }, Context::CPU(), {}, {b}, FnProperty::kNormal, 0,
                "follow_up");
      },
      Context::CPU(), {}, {a}, FnProperty::kNormal, 0, "blocked");
  std::thread stopper([&] { e->Shutdown(); });
  // Pushes from outside succeed until Shutdown stops accepting, then fail.
  bool refused = false;
  for (int i = 0; i < 100000 && !refused; ++i) {
    try {
      e->Push([](RunContext) {}, Context::CPU(), {}, {probe}, FnProperty::kNormal, 0, "probe");
      std::this_thread::sleep_for(std::chrono::microseconds(100));
    } catch (const Error& err) {
      refused = err.status() == Status::kEngine;
    }
  }
  EXPECT_TRUE(refused);
  release = true;
  stopper.join();
  EXPECT_EQ(follow_up.load(), 1) << "the follow-up pushed by a running op was lost";
  for (VarHandle v : {a, b, probe}) e->DeleteVar(nullptr, Context::CPU(), v);
}

}  // namespace
}  // namespace weft
