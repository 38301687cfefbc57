// NaiveEngine: runs every op on the calling thread as it is pushed
// (WEFT_ENGINE=naive), for debugging and as the reference the threaded
// engine is tested against. Exceptions follow Note [Engine semantics]
// exactly as in the threaded engine: stored on the op's mutable vars and
// rethrown by the next wait, never thrown from Push.
#include <atomic>
#include <exception>
#include <mutex>

#include "core/base/error.h"
#include "core/gpu/device_api.h"
#include "core/engine/engine_internal.h"
#include "core/engine/push_count.h"
#include "core/engine/profiler.h"

namespace weft {
namespace engine_internal {
namespace {

struct NaiveVar {
  std::exception_ptr exception;  // guarded by NaiveEngine::mu_
  bool keep_valid = false;       // KeepValidOnFailure: never stores an exception
  // Note [Write stamps]; atomic because a reader on another thread (a kernel
  // pushed from a worker of a subgraph op) may load it while a write ends.
  std::atomic<uint64_t> stamp{NextWriteStamp()};
};

NaiveVar* ToVar(VarHandle h) { return reinterpret_cast<NaiveVar*>(h); }

class NaiveEngine final : public Engine {
 public:
  VarHandle NewVar() override { return reinterpret_cast<VarHandle>(new NaiveVar); }
  void KeepValidOnFailure(VarHandle var) override {
    std::lock_guard<std::mutex> lk(mu_);
    ToVar(var)->keep_valid = true;
  }

  uint64_t WriteStamp(VarHandle var) const override {
    return ToVar(var)->stamp.load(std::memory_order_relaxed);
  }

  void Push(SyncFn fn, Context ctx, const std::vector<VarHandle>& const_vars,
            const std::vector<VarHandle>& mutable_vars, FnProperty prop, int priority,
            const char* name) override {
    engine_internal::CountPush();
    if (name == nullptr) name = "";
    for (VarHandle v : const_vars) {
      WEFT_CHECK(v != nullptr, kInvalidArgument) << "Push(" << name << "): null var in const_vars";
    }
    for (VarHandle v : mutable_vars) {
      WEFT_CHECK(v != nullptr, kInvalidArgument) << "Push(" << name << "): null var in mutable_vars";
    }
    // Note [Engine shutdown]. Unordered with a Shutdown on another thread: a
    // push that wins the race runs on its own thread, like every naive op,
    // so there is no worker to stop under it.
    if (shut_down_.load(std::memory_order_acquire) && !RunningOpScope::Active()) ThrowShutDown(name);
    // The op's writes end when Push returns, whatever happens below.
    struct Stamp {
      const std::vector<VarHandle>& vars;
      ~Stamp() {
        for (VarHandle v : vars) ToVar(v)->stamp.store(NextWriteStamp(), std::memory_order_relaxed);
      }
    } stamp{mutable_vars};
    std::exception_ptr upstream;
    {
      std::lock_guard<std::mutex> lk(mu_);
      for (VarHandle v : const_vars) {
        if (!upstream) upstream = ToVar(v)->exception;
      }
      for (VarHandle v : mutable_vars) {
        if (!upstream) upstream = ToVar(v)->exception;
      }
    }
    if (upstream) {
      Store(upstream, mutable_vars);
      return;
    }
    if (!fn) return;
    profiler::MaybeProfileOp(&fn, name, ctx);
    try {
      std::lock_guard<std::recursive_mutex> run(run_mu_);
      RunContext rctx{ctx, nullptr};
      RunningOpScope running;
      if (ctx.dev_type == DevType::kGPU) {
        gpu::SetDevice(ctx.dev_id);
        rctx.stream = gpu::WorkerStream(ctx.dev_id, prop == FnProperty::kCopy);
      }
      fn(rctx);
      // Synchronous engine: the op is done when its stream is.
      if (rctx.stream != nullptr) {
        gpu::CheckLastError(name);
        gpu::StreamSync(rctx.stream);
      }
    } catch (...) {
      Store(WrapCurrentException(name), mutable_vars);
    }
  }

  void WaitForVar(VarHandle var) override {
    WEFT_CHECK(var != nullptr, kInvalidArgument) << "WaitForVar: null var";
    std::exception_ptr e;
    {
      std::lock_guard<std::mutex> lk(mu_);
      e = std::move(ToVar(var)->exception);
      ToVar(var)->exception = nullptr;
      // Reported here, so WaitForAll must not report the same error again.
      if (e && e == global_exception_) global_exception_ = nullptr;
    }
    if (e) std::rethrow_exception(e);
  }

  void WaitForAll() override {
    std::exception_ptr e;
    {
      std::lock_guard<std::mutex> lk(mu_);
      e = std::move(global_exception_);
      global_exception_ = nullptr;
    }
    if (e) std::rethrow_exception(e);
  }

  void Shutdown() override {
    CheckShutdownCaller();
    std::lock_guard<std::recursive_mutex> run(run_mu_);  // an op running on another thread ends first
    shut_down_.store(true, std::memory_order_release);
  }

  void DeleteVar(std::function<void()> on_delete, Context ctx, VarHandle var) override {
    WEFT_CHECK(var != nullptr, kInvalidArgument) << "DeleteVar: null var";
    if (on_delete) {
      try {
        std::lock_guard<std::recursive_mutex> run(run_mu_);
        on_delete();
      } catch (...) {
        std::exception_ptr e = WrapCurrentException("DeleteVar");
        std::lock_guard<std::mutex> lk(mu_);
        if (!global_exception_) global_exception_ = e;
      }
    }
    delete ToVar(var);
  }

 private:
  void Store(const std::exception_ptr& e, const std::vector<VarHandle>& mutable_vars) {
    std::lock_guard<std::mutex> lk(mu_);
    for (VarHandle v : mutable_vars) {
      if (!ToVar(v)->keep_valid) ToVar(v)->exception = e;
    }
    if (!global_exception_) global_exception_ = e;
  }

  // Ops pushed from several threads run one at a time, so writes stay
  // exclusive as the contract requires. Recursive: an op may push ops, which
  // run right away on the same thread.
  std::recursive_mutex run_mu_;
  // Guards the stored exceptions; not held while an op runs.
  std::mutex mu_;
  std::exception_ptr global_exception_;  // first since the last WaitForAll
  std::atomic<bool> shut_down_{false};
};

}  // namespace

std::unique_ptr<Engine> MakeNaiveEngine() { return std::make_unique<NaiveEngine>(); }

}  // namespace engine_internal
}  // namespace weft
