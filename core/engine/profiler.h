// The profiler (MXNet's mx.profiler): what the engine ran, when and where.
//
// Note [Profiler recording]
// Each thread that runs or pushes work records into its own buffer (a list of
// fixed-size chunks that only it appends to, publishing each record with a
// release store of the chunk's count), so recording takes no lock. Readers
// (dump, dumps) drain every buffer under the profiler's mutex, copying the
// records into the trace and the aggregate table; a writer frees the chunks a
// reader has moved past. Recording is decided once per op, at push: when the
// profiler is off, Push pays one relaxed atomic load and a branch
// (MaybeProfileOp); when it is on, the op's function is wrapped so that the
// thread that runs it records name, device, start, end and the bytes it
// allocated. Whether an op is symbolic (pushed by an executor: SymbolicScope)
// or imperative decides whether profile_symbolic or profile_imperative
// applies. GPU ops are timed on the host: from launch to the return of fn.
#pragma once
#include <atomic>
#include <cstdint>
#include <string>

#include "core/base/context.h"
#include "core/engine/engine.h"

namespace weft {
namespace profiler {

// Bits of g_active: each is set only while the profiler runs and is not paused.
enum ActiveBits : int {
  kImperativeOps = 1,
  kSymbolicOps = 2,
  kMemory = 4,
  kApi = 8,
  kUserEvents = 16,
};
extern std::atomic<int> g_active;

inline int Active() { return g_active.load(std::memory_order_relaxed); }

// Replaces *fn by a wrapper that records the op when it runs (slow path).
void WrapOp(SyncFn* fn, const char* name, Context ctx);

// Called by Engine::Push implementations with the op about to be queued.
inline void MaybeProfileOp(SyncFn* fn, const char* name, Context ctx) {
  if (__builtin_expect((Active() & (kImperativeOps | kSymbolicOps)) != 0, 0)) WrapOp(fn, name, ctx);
}

// Ops pushed on this thread while one is alive are symbolic (an executor's).
class SymbolicScope {
 public:
  SymbolicScope();
  ~SymbolicScope();
  SymbolicScope(const SymbolicScope&) = delete;
  SymbolicScope& operator=(const SymbolicScope&) = delete;

 private:
  bool prev_;
};

// Steady-clock nanoseconds.
uint64_t NowNs();

// A C API call (category MXNET_C_API, as MXNet names it); RAII in WEFT_API_BEGIN.
void RecordApi(const char* name, uint64_t start_ns);
class ApiScope {
 public:
  explicit ApiScope(const char* name) {
    if (__builtin_expect((Active() & kApi) != 0, 0)) {
      name_ = name;
      start_ = NowNs();
    }
  }
  ~ApiScope() {
    if (name_ != nullptr) RecordApi(name_, start_);
  }
  ApiScope(const ApiScope&) = delete;
  ApiScope& operator=(const ApiScope&) = delete;

 private:
  const char* name_ = nullptr;
  uint64_t start_ = 0;
};

// Storage calls this on every allocation and free when kMemory is active:
// bytes is +size or -size, in_use the device's bytes in use afterwards.
void NoteMemory(Context ctx, int64_t bytes, int64_t in_use);

}  // namespace profiler
}  // namespace weft
