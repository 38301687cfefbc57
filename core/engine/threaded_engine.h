// ThreadedEngine: MXNet's dependency engine (src/engine/threaded_engine.h).
//
// Note [Threaded engine design]
// Every var owns a queue of versioned blocks, one per pending access, in push
// order. Every op owns an atomic wait counter: the number of its vars that
// have not yet granted it access, plus one held by the pusher while it appends
// the op to its vars' queues. A var grants access to
//  * a read when no write is ahead of it in the queue (reads run together);
//  * a write when every access ahead of it has completed.
// Whoever brings the counter to zero (the pusher, or the worker that completed
// the last blocking op) dispatches the op to a worker lane of its device and
// FnProperty. When an op finishes, its vars release the next accesses in
// their queues. No thread ever waits for a var: all waiting is in queues.
//
// Note [Push atomicity]
// An op's blocks are appended to all its vars under one lock (push_lock_).
// Without it, two threads pushing ops A and B that both use vars x and y
// could append A before B on x but B before A on y, and each would wait for
// the other forever. The lock is held for a few dozen instructions per op
// and is never taken by workers completing ops.
#pragma once
#include <atomic>
#include <condition_variable>
#include <exception>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "core/engine/engine.h"
#include "core/engine/engine_internal.h"
#include "core/engine/worker_pool.h"

namespace weft {
namespace engine_internal {

class ThreadedVar;
class ThreadedEngine;

// One op in flight. Pooled (object_pool.h): the vectors and the name keep
// their capacity between uses, so pushing a reused block allocates nothing.
struct OprBlock {
  // Vars not yet granted + 1 while the pusher appends. The thread that brings
  // it to 0 dispatches the op; acq_rel makes every earlier grant (and the
  // pusher's initialisation of the fields below) visible to that thread.
  std::atomic<int> wait{0};
  SyncFn fn;  // empty for DeleteVar without on_delete
  Context ctx;
  FnProperty prop = FnProperty::kNormal;
  int priority = 0;
  // Runs even if a var carries an exception (WaitForVar's signal, DeleteVar).
  bool always_run = false;
  // Runs on the thread that satisfies its last dependency instead of a lane:
  // only for WaitForVar's signal, which is a few instructions.
  bool run_inline = false;
  // Runs on the pusher if no var makes it wait at push; queued otherwise
  // (Note [Small ops run at push] in inline_push.h).
  bool run_if_ready_at_push = false;
  ThreadedVar* delete_var = nullptr;  // DeleteVar: freed after completion
  std::vector<ThreadedVar*> const_vars;    // deduplicated, disjoint from mutable_vars
  std::vector<ThreadedVar*> mutable_vars;  // deduplicated
  std::string name;
  ThreadedEngine* engine = nullptr;  // set for GPU ops completed by a stream callback
  OprBlock* pool_next = nullptr;

  // Returns the counter after decrementing.
  int DecrWait() { return wait.fetch_sub(1, std::memory_order_acq_rel) - 1; }
};

// One pending access in a var's queue.
struct VersionedVarBlock {
  VersionedVarBlock* next = nullptr;
  OprBlock* trigger = nullptr;  // the op waiting for this access
  bool write = false;
  VersionedVarBlock* pool_next = nullptr;
};

// A var: the queue of accesses and the stored exception (Note [Engine
// semantics]). All queue state is guarded by lock_.
class ThreadedVar {
 public:
  // Resets a pooled var for use; gives it an empty sentinel block.
  void Init();
  // Returns the sentinel to the pool; the queue must be empty.
  void Release();

  // Called by the pusher (under the engine's push lock).
  void AppendRead(OprBlock* op);
  void AppendWrite(OprBlock* op);
  // Called when an op that read (wrote) this var completes; dispatches the
  // ops this releases through engine->OnReady.
  void CompleteRead(ThreadedEngine* engine);
  void CompleteWrite(ThreadedEngine* engine);

  // Cheap check for the common case: no exception stored.
  bool MayHaveException() const { return has_exception_.load(std::memory_order_acquire); }
  std::exception_ptr GetException();
  void SetException(std::exception_ptr e);
  std::exception_ptr TakeException();
  // KeepValidOnFailure: SetException does nothing from then on.
  void KeepValid() { keep_valid_.store(true, std::memory_order_release); }
  // Note [Write stamps] in engine.h. Renewed by CompleteWrite before the
  // accesses it releases are dispatched, which orders it before their reads.
  uint64_t write_stamp() const { return write_stamp_.load(std::memory_order_relaxed); }

  ThreadedVar* pool_next = nullptr;

 private:
  // num_pending_reads_ value once the pending write has been granted.
  static constexpr int kWriteGranted = -1;

  SpinLock lock_;
  // Invariants (under lock_):
  //  * head_ is an empty sentinel at the tail of the queue; an access is
  //    appended by filling in the sentinel and linking a new one after it.
  //  * pending_write_ == nullptr: no write is waiting or running, the queue
  //    holds only the sentinel, and num_pending_reads_ >= 0 reads are running.
  //  * pending_write_ != nullptr: it is the oldest write not yet completed;
  //    the blocks after it wait. Before it is granted, num_pending_reads_ >= 0
  //    counts the reads still running ahead of it; once granted,
  //    num_pending_reads_ == kWriteGranted.
  int num_pending_reads_ = 0;
  VersionedVarBlock* head_ = nullptr;
  VersionedVarBlock* pending_write_ = nullptr;

  // Set (release) after exception_ is stored; lets ops skip the lock when no
  // exception is stored, which is always on the fast path.
  std::atomic<bool> has_exception_{false};
  std::atomic<bool> keep_valid_{false};
  std::atomic<uint64_t> write_stamp_{0};
  std::exception_ptr exception_;  // guarded by lock_
};

// Adds/removes an engine from the set that the fork handlers stop and
// restart (fork_handlers.cc); the first call installs the handlers.
void RegisterForFork(ThreadedEngine* engine);
void UnregisterForFork(ThreadedEngine* engine);

class ThreadedEngine final : public Engine {
 public:
  ThreadedEngine();
  // Waits for all pushed ops, then stops and joins every worker.
  ~ThreadedEngine() override;

  VarHandle NewVar() override;
  void Push(SyncFn fn, Context ctx, const std::vector<VarHandle>& const_vars,
            const std::vector<VarHandle>& mutable_vars, FnProperty prop, int priority,
            const char* name) override;
  // Pushes a read of var that wakes the caller: returns once every write
  // pushed before it has completed (earlier reads may still be running).
  void WaitForVar(VarHandle var) override;
  void WaitForAll() override;
  void DeleteVar(std::function<void()> on_delete, Context ctx, VarHandle var) override;
  void KeepValidOnFailure(VarHandle var) override;
  uint64_t WriteStamp(VarHandle var) const override;
  void Shutdown() override;  // Note [Engine shutdown] in engine.h

  // Called when op's last dependency is granted: runs it inline or hands it
  // to its lane.
  void OnReady(OprBlock* op);
  // Releases op's vars and frees it; public for the GPU stream callback
  // (Note [GPU completion]).
  void OnComplete(OprBlock* op);

  // Note [Engine and fork]: pthread_atfork handlers (fork_handlers.cc) call
  // these on every live threaded engine. BeforeFork waits until the engine is
  // idle and joins its workers, so no worker holds a lock or is mid-op when
  // the process is copied; AfterFork restarts them, in parent and child.
  void BeforeFork();
  void AfterFork();

 private:
  OprBlock* NewOpr(SyncFn&& fn, Context ctx, const VarHandle* reads, size_t num_reads,
                   const VarHandle* writes, size_t num_writes, FnProperty prop, int priority,
                   const char* name);
  // Counts op as pending and appends it to its vars. `work`: a Push, refused
  // once the engine stops accepting work (Note [Engine shutdown]); then op is
  // freed and false returned. Waits and deletions are always accepted.
  bool PushOpr(OprBlock* op, bool work);
  // pending_ minus one, waking waiters when it reaches 0.
  void FinishPending();
  void WaitIdle();
  // Runs on a worker (or inline); never throws.
  void Execute(OprBlock* op);
  void RecordGlobalException(const std::exception_ptr& e);
  WorkerPool* GetPool(Context ctx, FnProperty prop);
  WorkerPool* CreatePool(Context ctx, FnProperty prop);

  // Lanes for dev_id < kFastDevIds are found without a lock; others through
  // slow_pools_. Index: ((dev_type_index * kFastDevIds) + dev_id) * 3 + prop.
  static constexpr int kFastDevIds = 64;
  static constexpr int kNumProps = 3;
  static constexpr int kNumDevTypes = 4;
  std::atomic<WorkerPool*> fast_pools_[kNumDevTypes * kFastDevIds * kNumProps] = {};
  std::mutex pools_mu_;  // guards creation of lanes, slow_pools_ and lanes_closed_
  bool lanes_closed_ = false;  // Shutdown: no lane is created any more
  std::map<std::pair<Context, int>, WorkerPool*> slow_pools_;
  std::vector<std::unique_ptr<WorkerPool>> all_pools_;  // owner, in creation order
  int num_cpu_workers_;

  SpinLock push_lock_;  // Note [Push atomicity]

  // Ops pushed and not yet completed. Incremented by the pusher before the op
  // can run, decremented after all its effects (grants to later ops) are done,
  // so 0 means the engine is idle.
  std::atomic<int64_t> pending_{0};
  std::mutex finish_mu_;
  std::condition_variable finish_cv_;

  std::mutex exception_mu_;
  std::exception_ptr global_exception_;  // first since the last WaitForAll

  // Note [Engine shutdown]. accepting_ is read by every push after it has
  // counted itself in pending_, and Shutdown clears it before waiting for
  // pending_ to reach 0 (both sequentially consistent): a push either sees
  // the flag cleared, or is counted before the wait and so waited for.
  std::atomic<bool> accepting_{true};
  std::mutex shutdown_mu_;  // one Shutdown at a time
  bool shut_down_ = false;  // guarded by shutdown_mu_
};

}  // namespace engine_internal
}  // namespace weft
