// Storage: one PooledAllocator per device, created on first use.
#include "core/storage/storage.h"

#include <map>
#include <mutex>

#include "core/base/env.h"
#include "core/base/error.h"
#include "core/storage/pooled_storage.h"

namespace weft {

namespace {

using storage_internal::PooledAllocator;

// cpu, cpu_pinned and cpu_shared are host memory (pinned/shared variants
// need CUDA or IPC support, which is not built yet); each has its own pool
// and statistics. GPU memory needs the CUDA build.
void CheckDevice(Context ctx) {
  WEFT_CHECK(ctx.is_cpu(), kInvalidArgument)
      << "cannot use storage on " << ctx.ToString() << ": no CUDA support in this build";
}

PooledAllocator* AllocatorFor(Context ctx) {
  CheckDevice(ctx);
  // Leaked on purpose: arrays freed by static destructors at exit (or by a
  // Python interpreter shutting down) must still find their allocator.
  static std::mutex* mu = new std::mutex;
  static auto* allocators = new std::map<Context, PooledAllocator*>;
  std::lock_guard<std::mutex> lk(*mu);
  PooledAllocator*& a = (*allocators)[ctx];
  if (a == nullptr) a = new PooledAllocator(ctx, Storage::PoolingEnabled());
  return a;
}

}  // namespace

StorageHandle Storage::Alloc(size_t size, Context ctx) {
  StorageHandle h;
  h.dptr = AllocatorFor(ctx)->Alloc(size);
  h.size = size;
  h.ctx = ctx;
  return h;
}

void Storage::Free(StorageHandle h) {
  if (h.dptr == nullptr) return;
  AllocatorFor(h.ctx)->Free(h.dptr, h.size);
}

StorageStats Storage::Stats(Context ctx) { return AllocatorFor(ctx)->Stats(); }

void Storage::ReleaseAll(Context ctx) { AllocatorFor(ctx)->ReleaseAll(); }

bool Storage::PoolingEnabled() {
  static const bool enabled = GetEnvInt("WEFT_MEM_POOL", 1) != 0;
  return enabled;
}

}  // namespace weft
