// Note [Two GPU backends] (device_api.h): the GPU device layer over the CUDA
// runtime API. Plain C++ (only cuda_runtime.h), built when WEFT_USE_CUDA is on.
#include <cuda_runtime.h>

#include <mutex>
#include <utility>
#include <vector>

#include "core/base/error.h"
#include "core/gpu/device_api.h"

namespace weft {
namespace gpu {

namespace {

void Check(cudaError_t e, const char* what) {
  WEFT_CHECK(e == cudaSuccess, kEngine) << what << ": CUDA error " << cudaGetErrorName(e) << ": "
                                        << cudaGetErrorString(e);
}

// Streams of one worker thread, per device; destroyed with the thread.
struct ThreadStreams {
  std::vector<cudaStream_t> compute, copy;
  ~ThreadStreams() {
    // The runtime may already be torn down at process exit; errors are moot.
    for (cudaStream_t s : compute)
      if (s) cudaStreamDestroy(s);
    for (cudaStream_t s : copy)
      if (s) cudaStreamDestroy(s);
  }
};

}  // namespace

const char* BackendName() { return "cuda"; }

int DeviceCount() {
  static const int n = [] {
    int c = 0;
    if (cudaGetDeviceCount(&c) != cudaSuccess) {
      cudaGetLastError();  // no driver or no device: clear the sticky error
      return 0;
    }
    return c;
  }();
  return n;
}

void CheckDevice(Context ctx) {
  const int n = DeviceCount();
  WEFT_CHECK(n > 0, kInvalidArgument) << "cannot use " << ctx.ToString()
                                      << ": no CUDA device is present (or no driver)";
  WEFT_CHECK(ctx.dev_id >= 0 && ctx.dev_id < n, kInvalidArgument)
      << "cannot use " << ctx.ToString() << ": this machine has " << n << " CUDA device(s)";
}

void SetDevice(int dev) { Check(cudaSetDevice(dev), "cudaSetDevice"); }

void* DeviceAlloc(int dev, size_t bytes) {
  SetDevice(dev);
  void* p = nullptr;
  if (cudaMalloc(&p, bytes == 0 ? 1 : bytes) != cudaSuccess) {
    cudaGetLastError();  // out of memory is not sticky; clear it for the next call
    return nullptr;
  }
  return p;
}

void DeviceFree(int dev, void* ptr) {
  if (ptr == nullptr) return;
  cudaSetDevice(dev);
  cudaFree(ptr);
}

void* PinnedAlloc(size_t bytes) {
  void* p = nullptr;
  if (cudaHostAlloc(&p, bytes == 0 ? 1 : bytes, cudaHostAllocPortable) != cudaSuccess) {
    cudaGetLastError();
    return nullptr;
  }
  return p;
}

void PinnedFree(void* ptr) {
  if (ptr) cudaFreeHost(ptr);
}

Stream WorkerStream(int dev, bool copy) {
  thread_local ThreadStreams streams;
  std::vector<cudaStream_t>& v = copy ? streams.copy : streams.compute;
  if (static_cast<int>(v.size()) <= dev) v.resize(static_cast<size_t>(dev) + 1, nullptr);
  if (v[static_cast<size_t>(dev)] == nullptr) {
    SetDevice(dev);
    // Non-blocking: no implicit ordering with the legacy default stream; all
    // ordering comes from the engine.
    Check(cudaStreamCreateWithFlags(&v[static_cast<size_t>(dev)], cudaStreamNonBlocking),
          "cudaStreamCreateWithFlags");
  }
  return v[static_cast<size_t>(dev)];
}

namespace {
struct ThreadScratch {
  std::vector<std::pair<void*, size_t>> blocks;  // per device
  ~ThreadScratch() {
    for (size_t d = 0; d < blocks.size(); ++d)
      if (blocks[d].first) cudaFree(blocks[d].first);
  }
};
}  // namespace

void* WorkerScratch(int dev, size_t bytes, Stream s) {
  thread_local ThreadScratch scratch;
  if (static_cast<int>(scratch.blocks.size()) <= dev)
    scratch.blocks.resize(static_cast<size_t>(dev) + 1, {nullptr, 0});
  auto& b = scratch.blocks[static_cast<size_t>(dev)];
  if (b.second >= bytes && b.first != nullptr) return b.first;
  const size_t old = b.second;
  if (b.first != nullptr) {
    // Earlier kernels of this stream may still read the old block.
    StreamSync(s);
    DeviceFree(dev, b.first);
    b = {nullptr, 0};
  }
  // Grow geometrically so a sequence of growing requests allocates rarely.
  size_t want = bytes < 2 * old ? 2 * old : bytes;
  b.first = DeviceAlloc(dev, want);
  WEFT_CHECK(b.first != nullptr, kOutOfMemory) << "out of memory allocating " << want << " bytes of scratch on gpu("
                                               << dev << ")";
  b.second = want;
  return b.first;
}

void MemcpyAsync(void* dst, const void* src, size_t bytes, Stream s) {
  if (bytes == 0) return;
  Check(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDefault, static_cast<cudaStream_t>(s)),
        "cudaMemcpyAsync");
}

void MemsetAsync(void* dst, int value, size_t bytes, Stream s) {
  if (bytes == 0) return;
  Check(cudaMemsetAsync(dst, value, bytes, static_cast<cudaStream_t>(s)), "cudaMemsetAsync");
}

void MemcpySync(void* dst, const void* src, size_t bytes) {
  if (bytes == 0) return;
  Check(cudaMemcpy(dst, src, bytes, cudaMemcpyDefault), "cudaMemcpy");
}

void StreamSync(Stream s) { Check(cudaStreamSynchronize(static_cast<cudaStream_t>(s)), "cudaStreamSynchronize"); }

void OnStreamDone(Stream s, void (*fn)(void*), void* arg) {
  cudaError_t e = cudaLaunchHostFunc(static_cast<cudaStream_t>(s), fn, arg);
  if (e != cudaSuccess) {
    // The stream is broken (a sticky device error): wait on the host instead,
    // so the engine still completes the op and the error surfaces at the next
    // GPU call.
    cudaGetLastError();
    cudaStreamSynchronize(static_cast<cudaStream_t>(s));
    fn(arg);
  }
}

void CheckLastError(const char* what) { Check(cudaGetLastError(), what); }

}  // namespace gpu
}  // namespace weft
