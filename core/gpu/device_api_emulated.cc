// Note [Two GPU backends] (device_api.h): the host emulation of the GPU
// device layer, built when WEFT_USE_CUDA is off.
#include <unistd.h>

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>
#include <cstdlib>
#include <cstring>
#include <utility>
#include <vector>

#include "core/base/env.h"
#include "core/base/error.h"
#include "core/gpu/device_api.h"

namespace weft {
namespace gpu {

namespace {
// Distinct non-null tags so code that compares streams still sees two kinds.
char compute_tag, copy_tag;
}  // namespace

const char* BackendName() { return "emulated"; }

int DeviceCount() {
  static const int n = std::max(0, GetEnvInt("WEFT_GPU_EMULATE", 0));
  return n;
}

void CheckDevice(Context ctx) {
  const int n = DeviceCount();
  WEFT_CHECK(n > 0, kInvalidArgument)
      << "cannot use " << ctx.ToString()
      << ": this build has no CUDA support (configure with -DWEFT_USE_CUDA=ON); "
         "WEFT_GPU_EMULATE=N runs the GPU code path on the host for testing";
  WEFT_CHECK(ctx.dev_id >= 0 && ctx.dev_id < n, kInvalidArgument)
      << "cannot use " << ctx.ToString() << ": " << n << " emulated GPU device(s)";
}

void SetDevice(int) {}

void* DeviceAlloc(int, size_t bytes) {
  void* p = nullptr;
  return posix_memalign(&p, 256, bytes == 0 ? 1 : bytes) == 0 ? p : nullptr;
}
void DeviceFree(int, void* ptr) { std::free(ptr); }

void* PinnedAlloc(size_t bytes) {
  void* p = nullptr;
  return posix_memalign(&p, 64, bytes == 0 ? 1 : bytes) == 0 ? p : nullptr;
}
void PinnedFree(void* ptr) { std::free(ptr); }

Stream WorkerStream(int, bool copy) { return copy ? &copy_tag : &compute_tag; }

void* WorkerScratch(int, size_t bytes, Stream) {
  thread_local std::vector<char> buffer;
  if (buffer.size() < bytes) buffer.resize(bytes);
  return buffer.data();
}

void MemcpyAsync(void* dst, const void* src, size_t bytes, Stream) {
  if (bytes) std::memmove(dst, src, bytes);
}
void MemsetAsync(void* dst, int value, size_t bytes, Stream) {
  if (bytes) std::memset(dst, value, bytes);
}
void MemcpySync(void* dst, const void* src, size_t bytes) {
  if (bytes) std::memmove(dst, src, bytes);
}
void StreamSync(Stream) {}
namespace {

// Note [Emulated stream callbacks]
// CUDA runs cudaLaunchHostFunc callbacks on a runtime thread, not on the
// thread that queued them. The emulation does the same -- one callback thread,
// callbacks in queue order -- so the engine's GPU completion path (Note [GPU
// completion] in threaded_engine.cc) crosses threads here too and TSan and
// the tests see the real interleavings. Kernels themselves ran synchronously
// before the callback was queued, so ordering is as on a device.
class CallbackThread {
 public:
  void Enqueue(void (*fn)(void*), void* arg) {
    std::unique_lock<std::mutex> lk(mu_);
    if (owner_pid_ != getpid()) {
      // First use, or a forked child (threads do not survive fork): start one.
      // The old std::thread object (the parent's) is leaked, not detached:
      // its thread does not exist in a child.
      queue_.clear();
      owner_pid_ = getpid();
      thread_ = new std::thread([this] { Run(); });  // kept reachable: never joined, never a leak report
    }
    queue_.emplace_back(fn, arg);
    cv_.notify_one();
  }

 private:
  void Run() {
    std::unique_lock<std::mutex> lk(mu_);
    for (;;) {
      cv_.wait(lk, [this] { return !queue_.empty(); });
      auto item = queue_.front();
      queue_.pop_front();
      lk.unlock();
      item.first(item.second);
      lk.lock();
    }
  }

  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::pair<void (*)(void*), void*>> queue_;
  pid_t owner_pid_ = 0;
  std::thread* thread_ = nullptr;
};

}  // namespace

void OnStreamDone(Stream, void (*fn)(void*), void* arg) {
  // Leaked: callbacks may still be queued while static destructors run.
  static CallbackThread* callbacks = new CallbackThread;
  callbacks->Enqueue(fn, arg);
}
void CheckLastError(const char*) {}

}  // namespace gpu
}  // namespace weft
