// The dependency engine: the contract of docs/DESIGN.md. Every NDArray op, executor
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

// Note [Engine shutdown]
// A process must not run library destructors while an engine worker is still
// inside a kernel: exit() ends in _dl_fini, which runs OpenBLAS's
// gotoblas_quit, oneDNN's and libgomp's ELF destructors, and before it the
// C++ statics of every library are destroyed; a worker still computing a
// result nobody waited for then dies in freed state (issue 35, point 7: a
// script that ran a hybridized CNN four times without reading the result and
// returned crashed in 9 of 60 runs). So, as MXNet does with MXNotifyShutdown at
// Python's atexit, Shutdown:
//  1. stops accepting work: a Push from then on throws Error(kEngine) naming
//     the op, except a push made by a running op (its follow-up work, e.g. a
//     custom op's callback), which is part of what is being finished;
//  2. waits until every op pushed before is complete (a queued op that failed
//     leaves its error on its vars, which can still be read);
//  3. joins every worker thread; no lane is started again, and fork leaves
//     the engine alone (Note [Engine and fork]).
// What stays valid afterwards: DeleteVar (arrays freed by the interpreter's
// teardown give their memory back, on the caller), WaitForVar, WaitForAll,
// NewVar. Shutdown is idempotent, and throws Error(kEngine) when called from
// inside an op, which it would wait for forever.
//
// Who calls it, in order:
//  * Python: weft_shutdown at interpreter exit, from an atexit handler that the
//    package registers when it loads libweft (weft/base.py). Python runs atexit
//    handlers in reverse order of registration, so those of later imports and
//    of the user's script (which usually imports weft first) still run with a
//    working engine; one registered before `import weft` that pushes work gets
//    the error of 1. The interpreter's teardown afterwards only frees.
//  * R: a finalizer registered with onexit = TRUE, and .onUnload (the library
//    is unloaded then; its code must not run on a worker after that).
//  * Go: weft.Shutdown(), documented for main to defer. Go's os.Exit and a
//    return from main end the process without C's exit(), so no destructor
//    can run under a worker there; Shutdown is for finishing pushed work.
//  * C and anything else: weft_shutdown before returning from main, or the
//    fallback: the first Engine::Get registers a handler with std::atexit.
//    exit() runs such handlers in reverse order of registration and runs
//    _dl_fini (the ELF destructors above, registered by the loader before
//    main) after all of them, and the C++ statics constructed before the
//    engine (every library's namespace-scope objects, constructed at load)
//    are destroyed after the handler too. What it cannot order: function-local
//    statics first constructed after the engine (lazily, by a kernel on a
//    worker) are destroyed before it. Hence the explicit call in every binding,
//    and the handler as the net for C programs that forget it.

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
  // Note [Engine shutdown]: refuse new work, finish pushed work, join workers.
  virtual void Shutdown() = 0;

  // The process-wide engine, chosen once by WEFT_ENGINE (naive | threaded,
  // default threaded). Threaded pool size: WEFT_CPU_WORKER_NTHREADS, else the thread
  // budget's (Note [Thread budget] in core/base/thread_budget.cc: 1 by default).
  static Engine* Get();
  // Shuts down the process-wide engine if it was ever created (weft_shutdown
  // and the exit handler, Note [Engine shutdown]); creates none.
  static void ShutdownProcessEngine();
  // Makes a fresh engine of the given kind; for tests and benchmarks.
  static std::unique_ptr<Engine> Create(const std::string& kind);
};

}  // namespace weft
