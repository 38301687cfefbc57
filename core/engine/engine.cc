// Engine::Get / Engine::Create and helpers shared by the engines.
#include <atomic>
#include <cstdlib>
#include <string>

#include "core/base/env.h"
#include "core/base/error.h"
#include "core/engine/engine_internal.h"
#include "core/engine/inline_push.h"
#include "core/engine/push_count.h"

namespace weft {

uint64_t NextWriteStamp() {
  static std::atomic<uint64_t> next{1};
  return next.fetch_add(1, std::memory_order_relaxed);
}

namespace engine_internal {

std::exception_ptr WrapCurrentException(const char* name) {
  std::string prefix = name != nullptr && *name != '\0' ? std::string(name) + ": " : std::string();
  try {
    throw;
  } catch (const Error& e) {
    // Kernels name their op in their own messages; don't say it twice.
    const std::string what = e.what();
    if (!prefix.empty() && what.compare(0, prefix.size(), prefix) == 0) return std::current_exception();
    return std::make_exception_ptr(Error(e.status(), prefix + what));
  } catch (const std::exception& e) {
    return std::make_exception_ptr(Error(Status::kEngine, prefix + e.what()));
  } catch (...) {
    return std::make_exception_ptr(Error(Status::kEngine, prefix + "unknown exception"));
  }
}

}  // namespace engine_internal

namespace {
thread_local int inline_push_depth = 0;
thread_local int run_if_ready_depth = 0;
thread_local uint64_t pushes_from_this_thread = 0;
thread_local int running_op_depth = 0;
}  // namespace

// Note [Engine shutdown] (engine.h)
engine_internal::RunningOpScope::RunningOpScope() { ++running_op_depth; }
engine_internal::RunningOpScope::~RunningOpScope() { --running_op_depth; }
bool engine_internal::RunningOpScope::Active() { return running_op_depth > 0; }

void engine_internal::ThrowShutDown(const char* name) {
  WEFT_THROW(kEngine) << "cannot run '" << (name != nullptr && *name != '\0' ? name : "an operation")
                      << "': the engine was shut down (weft_shutdown, or the process is exiting), and no "
                         "work can be pushed after that";
}

void engine_internal::CheckShutdownCaller() {
  WEFT_CHECK(!RunningOpScope::Active(), kEngine)
      << "the engine cannot be shut down from inside one of its operations (a callback): it would wait "
         "for that operation to finish";
}

void engine_internal::CountPush() { ++pushes_from_this_thread; }
uint64_t PushesFromThisThread() { return pushes_from_this_thread; }

// Note [Inline pushes] (inline_push.h)
InlinePushScope::InlinePushScope() { ++inline_push_depth; }
InlinePushScope::~InlinePushScope() { --inline_push_depth; }
bool InlinePushScope::Active() { return inline_push_depth > 0; }

// Note [Small ops run at push] (inline_push.h)
RunIfReadyScope::RunIfReadyScope(bool active) : active_(active) { run_if_ready_depth += active_ ? 1 : 0; }
RunIfReadyScope::~RunIfReadyScope() { run_if_ready_depth -= active_ ? 1 : 0; }
bool RunIfReadyScope::Active() { return run_if_ready_depth > 0; }

std::unique_ptr<Engine> Engine::Create(const std::string& kind) {
  if (kind == "naive") return engine_internal::MakeNaiveEngine();
  if (kind == "threaded") return engine_internal::MakeThreadedEngine();
  WEFT_THROW(kInvalidArgument) << "unknown engine '" << kind << "' (expected naive or threaded)";
}

namespace {
std::atomic<Engine*> process_engine{nullptr};

// The fallback of Note [Engine shutdown] for programs that exit without
// weft_shutdown. An exit() from inside an op (a kernel or callback) cannot
// wait for that op: the workers are left running, as before.
void ShutdownAtExit() {
  if (engine_internal::RunningOpScope::Active()) return;
  try {
    Engine::ShutdownProcessEngine();
  } catch (...) {
    // Nothing to report to during exit.
  }
}
}  // namespace

Engine* Engine::Get() {
  // Leaked on purpose: never destroyed, so vars deleted by static destructors
  // or by a Python interpreter tearing down still find an engine. Its workers
  // are stopped before exit() runs library destructors (Note [Engine shutdown]).
  static Engine* engine = [] {
    Engine* e = Create(GetEnv("WEFT_ENGINE", "threaded")).release();
    process_engine.store(e, std::memory_order_release);
    std::atexit(ShutdownAtExit);
    return e;
  }();
  return engine;
}

void Engine::ShutdownProcessEngine() {
  if (Engine* e = process_engine.load(std::memory_order_acquire)) e->Shutdown();
}

}  // namespace weft
