// Storage: one PooledAllocator per device, created on first use.
#include "core/storage/storage.h"

#include <map>
#include <mutex>

#include "core/base/env.h"
#include "core/gpu/device_api.h"
#include "core/storage/memory_hook.h"
#include "core/storage/pooled_storage.h"

namespace weft {

namespace {

using storage_internal::PooledAllocator;

// cpu and cpu_shared are host memory, cpu_pinned is page-locked host memory
// where a GPU runtime can pin it; gpu(i) is device memory through the GPU
// device layer (core/gpu/device_api.h). Each device has its own pool and
// statistics.
void CheckDevice(Context ctx) {
  if (ctx.dev_type == DevType::kGPU) gpu::CheckDevice(ctx);
}

PooledAllocator* LookUpAllocator(Context ctx) {
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

PooledAllocator* AllocatorFor(Context ctx) {
  // cpu(0) holds nearly every array: found once, not through the map's lock
  // on every allocation and release.
  if (ctx == Context::CPU(0)) {
    static PooledAllocator* const cpu0 = LookUpAllocator(Context::CPU(0));
    return cpu0;
  }
  return LookUpAllocator(ctx);
}

}  // namespace

StorageHandle Storage::Alloc(size_t size, Context ctx) {
  StorageHandle h;
  PooledAllocator* a = AllocatorFor(ctx);
  h.dptr = a->Alloc(size);
  h.size = size;
  h.ctx = ctx;
  if (StorageMemoryHook hook = StorageMemoryHookSlot().load(std::memory_order_relaxed)) {
    hook(ctx, static_cast<int64_t>(size), a->Stats().bytes_in_use);
  }
  return h;
}

void Storage::Free(StorageHandle h) {
  if (h.dptr == nullptr) return;
  PooledAllocator* a = AllocatorFor(h.ctx);
  a->Free(h.dptr, h.size);
  if (StorageMemoryHook hook = StorageMemoryHookSlot().load(std::memory_order_relaxed)) {
    hook(h.ctx, -static_cast<int64_t>(h.size), a->Stats().bytes_in_use);
  }
}

std::atomic<StorageMemoryHook>& StorageMemoryHookSlot() {
  static std::atomic<StorageMemoryHook> slot{nullptr};
  return slot;
}

StorageStats Storage::Stats(Context ctx) { return AllocatorFor(ctx)->Stats(); }

void Storage::ReleaseAll(Context ctx) { AllocatorFor(ctx)->ReleaseAll(); }

bool Storage::PoolingEnabled() {
  static const bool enabled = GetEnvInt("WEFT_MEM_POOL", 1) != 0;
  return enabled;
}

}  // namespace weft
