// The dependency engine: the contract of DESIGN.md. Every NDArray op, executor
// op and KVStore push/pull is pushed here tagged with the vars it reads and
// writes; the engine runs whatever is ready.
//
// Note [Engine semantics]
//  * Reads of a var run concurrently; a write is exclusive and ordered with
//    every earlier read and write of that var (program order per var).
//  * A var listed in both const_vars and mutable_vars is treated as written.
//    Duplicates in either list are allowed and ignored.
//  * If fn throws, the exception is stored on every var in mutable_vars,
//    wrapped so its message names the op. An op whose inputs (read or written
//    vars) carry a stored exception does not run; it propagates the exception
//    to its own mutable vars. WaitForVar(v) rethrows v's stored exception and
//    clears it; WaitForAll rethrows the first exception stored since the last
//    WaitForAll and clears it, unless a WaitForVar already rethrew that one. The engine keeps running after any exception.
//  * A var marked with KeepValidOnFailure (a generator's state, a scratch
//    buffer) never stores an exception: an op that fails leaves it usable, so
//    one failing random op does not fail every later draw on its device.
//  * DeleteVar runs `on_delete` (may be empty) once all previously pushed ops
//    on the var have finished, then frees the var. The handle must not be used
//    after DeleteVar.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "core/base/context.h"

namespace weft {

// Opaque var; engines define the concrete type.
class Var;
using VarHandle = Var*;

struct RunContext {
  Context ctx;
  // GPU ops: the worker's stream (gpu::Stream) on which the op queues its
  // work. The engine completes the op when that stream has run it (Note [GPU
  // completion] in threaded_engine.cc), so fn returns without waiting.
  void* stream = nullptr;
};

// What kind of work an op is; decides which worker lane runs it.
enum class FnProperty : int {
  kNormal = 0,    // compute on ctx's worker pool
  kCopy = 1,      // device copies: the separate copy lane
  kAsync = 2,     // reserved for communication ops (KVStore)
};

using SyncFn = std::function<void(RunContext)>;

// Note [Write stamps]
// Every var carries a stamp drawn from one process-wide counter: at its
// creation and again whenever an op that writes it completes (before the
// ops waiting on it are released, so they see the new stamp). Two reads that
// see the same stamp of a var see the same contents, and a stamp is never
// reused, not even by another var at the same address later: kernels key
// caches of data derived from their inputs on (pointer, stamp) — the oneDNN
// weight layouts (Note [Weight layout cache] in core/op/common/weight_cache.h).
// Memory written outside the engine is not covered: NDArray gives stamp 0
// ("unknown") for chunks whose memory is shared with foreign code (DLPack).
uint64_t NextWriteStamp();

class Engine {
 public:
  virtual ~Engine() = default;
  virtual VarHandle NewVar() = 0;
  virtual void Push(SyncFn fn, Context ctx, const std::vector<VarHandle>& const_vars,
                    const std::vector<VarHandle>& mutable_vars,
                    FnProperty prop = FnProperty::kNormal, int priority = 0,
                    const char* name = "") = 0;
  // Blocks until all pushed ops writing (or reading, see ThreadedEngine) var
  // have completed; rethrows a stored exception (weft::Error, kEngine status
  // unless the original was a weft::Error, whose status is kept).
  virtual void WaitForVar(VarHandle var) = 0;
  virtual void WaitForAll() = 0;
  virtual void DeleteVar(std::function<void()> on_delete, Context ctx, VarHandle var) = 0;
  // Marks var as one that failed writers leave valid (Note [Engine semantics]);
  // call before pushing ops on it.
  virtual void KeepValidOnFailure(VarHandle var) = 0;
  // The var's write stamp (Note [Write stamps]): a process-wide unique value,
  // never 0, that changes when a write on the var completes. Read it from an
  // op that reads the var: it then names the contents that op sees.
  virtual uint64_t WriteStamp(VarHandle var) const = 0;

  // The process-wide engine, chosen once by WEFT_ENGINE (naive | threaded,
  // default threaded). Threaded pool size: WEFT_CPU_WORKER_NTHREADS (default 2).
  static Engine* Get();
  // Makes a fresh engine of the given kind; for tests and benchmarks.
  static std::unique_ptr<Engine> Create(const std::string& kind);
};

}  // namespace weft
