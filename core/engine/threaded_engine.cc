// ThreadedEngine: pushing, lanes, execution and waiting. The var queues are
// in threaded_var.cc; the design is Note [Threaded engine design].
#include "core/engine/threaded_engine.h"

#include <algorithm>

#include "core/base/env.h"
#include "core/base/error.h"
#include "core/base/thread_budget.h"
#include "core/engine/inline_push.h"
#include "core/engine/object_pool.h"
#include "core/engine/push_count.h"
#include "core/engine/profiler.h"
#include "core/gpu/device_api.h"

namespace weft {
namespace engine_internal {

namespace {

using OprPool = ObjectPool<OprBlock>;
using VarPool = ObjectPool<ThreadedVar>;

ThreadedVar* ToVar(VarHandle h) { return reinterpret_cast<ThreadedVar*>(h); }

// Up to this many vars per op, duplicates are removed by linear scans (no
// allocation, and faster than sorting for the usual 1-4 vars).
constexpr size_t kSmallVarCount = 16;

bool Contains(const std::vector<ThreadedVar*>& vars, ThreadedVar* v) {
  return std::find(vars.begin(), vars.end(), v) != vars.end();
}

// Fills op's var lists: writes deduplicated; reads deduplicated and without
// the vars also written (Note [Engine semantics]: such a var is written).
void FillVars(OprBlock* op, const VarHandle* reads, size_t num_reads, const VarHandle* writes,
              size_t num_writes) {
  std::vector<ThreadedVar*>& w = op->mutable_vars;
  std::vector<ThreadedVar*>& r = op->const_vars;
  w.clear();
  r.clear();
  if (num_reads + num_writes <= kSmallVarCount) {
    for (size_t i = 0; i < num_writes; ++i) {
      if (!Contains(w, ToVar(writes[i]))) w.push_back(ToVar(writes[i]));
    }
    for (size_t i = 0; i < num_reads; ++i) {
      ThreadedVar* v = ToVar(reads[i]);
      if (!Contains(w, v) && !Contains(r, v)) r.push_back(v);
    }
    return;
  }
  for (size_t i = 0; i < num_writes; ++i) w.push_back(ToVar(writes[i]));
  std::sort(w.begin(), w.end());
  w.erase(std::unique(w.begin(), w.end()), w.end());
  for (size_t i = 0; i < num_reads; ++i) r.push_back(ToVar(reads[i]));
  std::sort(r.begin(), r.end());
  r.erase(std::unique(r.begin(), r.end()), r.end());
  r.erase(std::remove_if(r.begin(), r.end(),
                         [&w](ThreadedVar* v) { return std::binary_search(w.begin(), w.end(), v); }),
          r.end());
}

void CheckVars(const std::vector<VarHandle>& vars, const char* what, const char* name) {
  for (VarHandle v : vars) {
    WEFT_CHECK(v != nullptr, kInvalidArgument) << "Push(" << name << "): null var in " << what;
  }
}

int DevTypeIndex(DevType t) {
  switch (t) {
    case DevType::kCPU: return 0;
    case DevType::kGPU: return 1;
    case DevType::kCPUPinned: return 2;
    case DevType::kCPUShared: return 3;
  }
  return -1;
}

}  // namespace

ThreadedEngine::ThreadedEngine()
    // Note [Thread budget]; WEFT_CPU_WORKER_NTHREADS is read again for each engine made
    // (tests make engines of several sizes in one process), over the process's CPUs.
    : num_cpu_workers_(DecideThreadBudget(ProcessThreadBudget().usable_cpus, [](const char* name) {
        return static_cast<const char*>(std::getenv(name));
      }).cpu_workers) {
  RegisterForFork(this);
}

ThreadedEngine::~ThreadedEngine() {
  UnregisterForFork(this);
  try {
    WaitForAll();
  } catch (...) {
    // A stored exception nobody waited for; nothing is left to report it to.
  }
  // Join the workers before any other member goes away: a worker that just
  // completed the last op may still be notifying finish_cv_.
  all_pools_.clear();
}

VarHandle ThreadedEngine::NewVar() {
  ThreadedVar* v = VarPool::New();
  v->Init();
  return reinterpret_cast<VarHandle>(v);
}

OprBlock* ThreadedEngine::NewOpr(SyncFn&& fn, Context ctx, const VarHandle* reads,
                                 size_t num_reads, const VarHandle* writes, size_t num_writes,
                                 FnProperty prop, int priority, const char* name) {
  OprBlock* op = OprPool::New();
  op->fn = std::move(fn);
  op->ctx = ctx;
  op->prop = prop;
  op->priority = priority;
  op->always_run = false;
  op->run_inline = false;
  op->run_if_ready_at_push = false;
  op->delete_var = nullptr;
  op->name.assign(name != nullptr ? name : "");
  FillVars(op, reads, num_reads, writes, num_writes);
  return op;
}

bool ThreadedEngine::PushOpr(OprBlock* op, bool work) {
  // One count per var plus one held until every var has the op queued, so no
  // grant can dispatch a half-appended op.
  op->wait.store(static_cast<int>(op->const_vars.size() + op->mutable_vars.size()) + 1,
                 std::memory_order_relaxed);
  // Counted before the op can run, so pending_ cannot reach 0 early; and
  // before accepting_ is read (Note [Engine shutdown]).
  pending_.fetch_add(1, std::memory_order_seq_cst);
  if (work && !accepting_.load(std::memory_order_seq_cst) && !RunningOpScope::Active()) {
    op->fn = nullptr;
    OprPool::Delete(op);
    FinishPending();
    return false;
  }
  {
    std::lock_guard<SpinLock> lk(push_lock_);  // Note [Push atomicity]
    for (ThreadedVar* v : op->const_vars) v->AppendRead(op);
    for (ThreadedVar* v : op->mutable_vars) v->AppendWrite(op);
  }
  if (op->DecrWait() == 0) {
    if (op->run_if_ready_at_push) {
      Execute(op);  // Note [Small ops run at push]
    } else {
      OnReady(op);
    }
  }
  return true;
}

void ThreadedEngine::Push(SyncFn fn, Context ctx, const std::vector<VarHandle>& const_vars,
                          const std::vector<VarHandle>& mutable_vars, FnProperty prop,
                          int priority, const char* name) {
  engine_internal::CountPush();
  if (name == nullptr) name = "";
  CheckVars(const_vars, "const_vars", name);
  CheckVars(mutable_vars, "mutable_vars", name);
  profiler::MaybeProfileOp(&fn, name, ctx);  // Note [Profiler recording]
  OprBlock* op = NewOpr(std::move(fn), ctx, const_vars.data(), const_vars.size(), mutable_vars.data(),
                        mutable_vars.size(), prop, priority, name);
  op->run_inline = ctx.dev_type != DevType::kGPU && InlinePushScope::Active();  // Note [Inline pushes]
  op->run_if_ready_at_push = ctx.dev_type != DevType::kGPU && RunIfReadyScope::Active();
  if (!PushOpr(op, /*work=*/true)) ThrowShutDown(name);
}

void ThreadedEngine::OnReady(OprBlock* op) {
  if (op->run_inline) {
    Execute(op);
    return;
  }
  try {
    WorkerPool* pool = GetPool(op->ctx, op->prop);
    if (pool != nullptr && pool->Push(op, op->priority)) return;
  } catch (...) {
    // No lane could be started or the queue could not grow (out of threads
    // or memory); a failed Push has not queued the op. Running it here keeps
    // the engine consistent, and OnReady never throws into a worker.
  }
  // Also after Shutdown closed the lanes (no pool, or a refused Push): only
  // deletions and waits get here then, and they run on this thread.
  Execute(op);
}

WorkerPool* ThreadedEngine::GetPool(Context ctx, FnProperty prop) {
  int type = DevTypeIndex(ctx.dev_type);
  int p = static_cast<int>(prop);
  if (type >= 0 && ctx.dev_id >= 0 && ctx.dev_id < kFastDevIds && p >= 0 && p < kNumProps) {
    WorkerPool* pool =
        fast_pools_[(type * kFastDevIds + ctx.dev_id) * kNumProps + p].load(std::memory_order_acquire);
    if (pool != nullptr) return pool;
  }
  return CreatePool(ctx, prop);
}

WorkerPool* ThreadedEngine::CreatePool(Context ctx, FnProperty prop) {
  int type = DevTypeIndex(ctx.dev_type);
  int p = static_cast<int>(prop);
  if (p < 0 || p >= kNumProps) p = 0;  // unknown property: compute lane
  std::lock_guard<std::mutex> lk(pools_mu_);
  if (lanes_closed_) return nullptr;  // Note [Engine shutdown]: the caller runs the op
  std::atomic<WorkerPool*>* fast = nullptr;
  if (type >= 0 && ctx.dev_id >= 0 && ctx.dev_id < kFastDevIds) {
    fast = &fast_pools_[(type * kFastDevIds + ctx.dev_id) * kNumProps + p];
    if (WorkerPool* pool = fast->load(std::memory_order_acquire)) return pool;  // lost a race
  } else {
    auto it = slow_pools_.find({ctx, p});
    if (it != slow_pools_.end()) return it->second;
  }
  // Compute lanes get the configured pool; copies and communication get one
  // thread each, enough to overlap them with compute. A GPU's compute lane has
  // WEFT_GPU_WORKER_NTHREADS threads, each with its own stream.
  bool compute = p == static_cast<int>(FnProperty::kNormal);
  const int compute_threads =
      ctx.dev_type == DevType::kGPU ? std::max(1, GetEnvInt("WEFT_GPU_WORKER_NTHREADS", 2)) : num_cpu_workers_;
  static const char* const kSuffix[kNumProps] = {"", "-copy", "-comm"};
  auto pool = std::make_unique<WorkerPool>(
      compute ? compute_threads : 1, [this](OprBlock* op) { Execute(op); },
      ctx.ToString() + kSuffix[p]);
  WorkerPool* raw = pool.get();
  all_pools_.push_back(std::move(pool));
  if (fast != nullptr) {
    fast->store(raw, std::memory_order_release);  // published fully built
  } else {
    slow_pools_[{ctx, p}] = raw;
  }
  return raw;
}

void ThreadedEngine::Execute(OprBlock* op) {
  try {
    std::exception_ptr upstream;
    if (!op->always_run) {
      for (ThreadedVar* v : op->const_vars) {
        if (!upstream && v->MayHaveException()) upstream = v->GetException();
      }
      for (ThreadedVar* v : op->mutable_vars) {
        if (!upstream && v->MayHaveException()) upstream = v->GetException();
      }
    }
    if (upstream) {
      // Skipped: its outputs inherit the failure that made its inputs invalid,
      // message unchanged so it still names the op that failed.
      for (ThreadedVar* v : op->mutable_vars) v->SetException(upstream);
      RecordGlobalException(upstream);
    } else if (op->fn) {
      RunContext rctx{op->ctx, nullptr};
      RunningOpScope running;  // its pushes are its own work (Note [Engine shutdown])
      try {
        if (op->ctx.dev_type == DevType::kGPU) {
          gpu::SetDevice(op->ctx.dev_id);
          rctx.stream = gpu::WorkerStream(op->ctx.dev_id, op->prop == FnProperty::kCopy);
        }
        op->fn(rctx);
        if (rctx.stream != nullptr) gpu::CheckLastError(op->name.c_str());
      } catch (...) {
        std::exception_ptr e = WrapCurrentException(op->name.c_str());
        for (ThreadedVar* v : op->mutable_vars) v->SetException(e);
        RecordGlobalException(e);
      }
      if (rctx.stream != nullptr) {
        // Note [GPU completion]
        // fn only queued work on the stream. The op completes -- its vars
        // release the next accesses -- when the stream reaches this point,
        // signalled by a runtime callback, so this worker goes on to the next
        // op at once and no thread waits for the device. Later ops on other
        // streams or on the host start only after the callback, which orders
        // them after this op's kernels.
        op->engine = this;
        gpu::OnStreamDone(
            rctx.stream,
            [](void* p) {
              auto* o = static_cast<OprBlock*>(p);
              o->engine->OnComplete(o);
            },
            op);
        return;
      }
    }
  } catch (...) {
    // Only bad_alloc while wrapping can land here; the op still completes so
    // the engine does not hang, and the worker lives on.
  }
  OnComplete(op);
}

void ThreadedEngine::OnComplete(OprBlock* op) {
  // Release the closure's captures now rather than when the block is reused.
  op->fn = nullptr;
  for (ThreadedVar* v : op->const_vars) v->CompleteRead(this);
  for (ThreadedVar* v : op->mutable_vars) v->CompleteWrite(this);
  if (op->delete_var != nullptr) {
    // DeleteVar's write was the var's last access; nobody references it now.
    op->delete_var->Release();
    VarPool::Delete(op->delete_var);
    op->delete_var = nullptr;
  }
  // Keep pooled blocks small: an op with thousands of vars should not pin
  // that capacity forever.
  if (op->const_vars.capacity() > 64) std::vector<ThreadedVar*>().swap(op->const_vars);
  if (op->mutable_vars.capacity() > 64) std::vector<ThreadedVar*>().swap(op->mutable_vars);
  if (op->name.capacity() > 256) std::string().swap(op->name);
  OprPool::Delete(op);
  // Last: once pending_ is 0 a waiter may return (and destroy the engine).
  FinishPending();
}

void ThreadedEngine::FinishPending() {
  if (pending_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
    // Taking finish_mu_ orders this with a waiter between its check of
    // pending_ and its wait, so the notification cannot be lost. Notifying
    // under the lock matters for GPU ops, completed on a runtime thread the
    // destructor does not join: the waiter cannot return (and destroy the
    // engine) before this thread has let go of finish_mu_ for good.
    std::lock_guard<std::mutex> lk(finish_mu_);
    finish_cv_.notify_all();
  }
}

void ThreadedEngine::RecordGlobalException(const std::exception_ptr& e) {
  std::lock_guard<std::mutex> lk(exception_mu_);
  if (!global_exception_) global_exception_ = e;
}

void ThreadedEngine::KeepValidOnFailure(VarHandle var) { ToVar(var)->KeepValid(); }

uint64_t ThreadedEngine::WriteStamp(VarHandle var) const { return ToVar(var)->write_stamp(); }

void ThreadedEngine::WaitForVar(VarHandle var) {
  WEFT_CHECK(var != nullptr, kInvalidArgument) << "WaitForVar: null var";
  // A read of var that signals this thread. It runs inline on whichever
  // thread grants it (no lane hop) and even if var carries an exception.
  struct Signal {
    std::mutex mu;
    std::condition_variable cv;
    bool done = false;
  } sig;
  SyncFn signal = [&sig](RunContext) {
    // Notify under the lock: the waiter cannot return (destroying sig)
    // before this thread has released sig.mu for good.
    std::lock_guard<std::mutex> lk(sig.mu);
    sig.done = true;
    sig.cv.notify_all();
  };
  OprBlock* op = NewOpr(std::move(signal), Context::CPU(), &var, 1, nullptr, 0,
                        FnProperty::kNormal, 0, "WaitForVar");
  op->always_run = true;
  op->run_inline = true;
  PushOpr(op, /*work=*/false);
  {
    std::unique_lock<std::mutex> lk(sig.mu);
    sig.cv.wait(lk, [&sig] { return sig.done; });
  }
  if (std::exception_ptr e = ToVar(var)->TakeException()) {
    {
      // Reported here, so WaitForAll must not report the same error again.
      std::lock_guard<std::mutex> lk(exception_mu_);
      if (e == global_exception_) global_exception_ = nullptr;
    }
    std::rethrow_exception(e);
  }
}

void ThreadedEngine::BeforeFork() {
  WaitIdle();
  // Held until AfterFork: no lane is created while the workers are down.
  pools_mu_.lock();
  for (auto& pool : all_pools_) pool->StopThreads();
}

void ThreadedEngine::AfterFork() {
  for (auto& pool : all_pools_) pool->StartThreads();
  pools_mu_.unlock();
}

void ThreadedEngine::WaitIdle() {
  std::unique_lock<std::mutex> lk(finish_mu_);
  finish_cv_.wait(lk, [this] { return pending_.load(std::memory_order_acquire) == 0; });
}

void ThreadedEngine::Shutdown() {
  CheckShutdownCaller();
  std::lock_guard<std::mutex> once(shutdown_mu_);
  if (shut_down_) return;
  // A fork in progress finishes first; later forks leave this engine alone,
  // so nothing restarts its workers (Note [Engine and fork]).
  UnregisterForFork(this);
  accepting_.store(false, std::memory_order_seq_cst);
  WaitIdle();
  {
    std::lock_guard<std::mutex> lk(pools_mu_);
    lanes_closed_ = true;
  }
  // all_pools_ no longer grows. A deletion pushed meanwhile is either queued
  // before its lane closes (and run by it) or refused and run by its pusher.
  for (auto& pool : all_pools_) pool->Close();
  shut_down_ = true;
}

void ThreadedEngine::WaitForAll() {
  WaitIdle();
  std::exception_ptr e;
  {
    std::lock_guard<std::mutex> lk(exception_mu_);
    e = std::move(global_exception_);
    global_exception_ = nullptr;
  }
  if (e) std::rethrow_exception(e);
}

void ThreadedEngine::DeleteVar(std::function<void()> on_delete, Context ctx, VarHandle var) {
  WEFT_CHECK(var != nullptr, kInvalidArgument) << "DeleteVar: null var";
  SyncFn fn;
  if (on_delete) fn = [f = std::move(on_delete)](RunContext) { f(); };
  // A write: runs after every access pushed before it, and frees the var in
  // OnComplete. With nothing to call it needs no lane.
  OprBlock* op = NewOpr(std::move(fn), ctx, nullptr, 0, &var, 1, FnProperty::kNormal, 0, "DeleteVar");
  op->always_run = true;
  op->run_inline = !op->fn;
  op->run_if_ready_at_push = ctx.dev_type != DevType::kGPU && RunIfReadyScope::Active();
  op->delete_var = ToVar(var);
  PushOpr(op, /*work=*/false);
}

std::unique_ptr<Engine> MakeThreadedEngine() { return std::make_unique<ThreadedEngine>(); }

}  // namespace engine_internal
}  // namespace weft
