// The exit handler of Note [Engine shutdown] (core/engine/engine.h): a
// program that calls exit() without weft_shutdown still has the process
// engine finish its pushed work and join its workers before exit() goes on
// to the libraries' destructors. Checked in a child process, whose exit is
// the thing under test.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <string>
#include <thread>

#include "core/base/error.h"
#include "core/engine/engine.h"

namespace weft {
namespace {

TEST(EngineExit, ExitFinishesPushedWorkOfTheProcessEngine) {
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    close(fds[0]);
    Engine* e = Engine::Get();
    VarHandle v = e->NewVar();
    const int out = fds[1];
    // Nobody waits for this op: only the exit handler can make exit() wait.
    e->Push(
        [out](RunContext) {
          std::this_thread::sleep_for(std::chrono::milliseconds(300));
          if (write(out, "done", 4) != 4) _exit(5);
        },
        Context::CPU(), {}, {v}, FnProperty::kNormal, 0, "slow_unread");
    std::exit(0);
  }
  close(fds[1]);
  std::string got;
  char buf[16];
  for (ssize_t n; (n = read(fds[0], buf, sizeof(buf))) > 0;) got.append(buf, static_cast<size_t>(n));
  close(fds[0]);
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status)) << "child died of signal " << (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
  EXPECT_EQ(WEXITSTATUS(status), 0);
  EXPECT_EQ(got, "done") << "exit() did not wait for the pushed op";
}

TEST(EngineExit, PushAfterProcessShutdownFailsInChild) {
  pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    Engine* e = Engine::Get();
    VarHandle v = e->NewVar();
    Engine::ShutdownProcessEngine();
    int code = 1;
    try {
      e->Push([](RunContext) {}, Context::CPU(), {}, {v}, FnProperty::kNormal, 0, "after_shutdown");
    } catch (const Error& err) {
      code = err.status() == Status::kEngine ? 0 : 2;
    }
    e->DeleteVar(nullptr, Context::CPU(), v);  // still allowed
    std::exit(code);
  }
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0) << "1: the push was accepted, 2: wrong error status";
}

}  // namespace
}  // namespace weft
