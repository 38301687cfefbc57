// Per-device pooled allocators with memory statistics (docs/DESIGN.md: Storage).
#pragma once
#include <cstddef>
#include <cstdint>

#include "core/base/context.h"

namespace weft {

struct StorageHandle {
  void* dptr = nullptr;
  size_t size = 0;  // bytes requested by the caller
  Context ctx;
};

struct StorageStats {
  int64_t bytes_in_use = 0;  // requested bytes of live allocations
  int64_t peak_bytes_in_use = 0;
  int64_t bytes_pooled = 0;  // bytes held in free lists, ready for reuse
  int64_t num_allocs = 0;    // Alloc calls
  int64_t num_pool_hits = 0; // Alloc calls served from the pool
};

class Storage {
 public:
  // 64-byte aligned; size 0 gives a valid handle with dptr == nullptr.
  // Throws weft::Error(kOutOfMemory) on failure. Thread-safe.
  static StorageHandle Alloc(size_t size, Context ctx);
  static void Free(StorageHandle h);
  // Statistics of one device.
  static StorageStats Stats(Context ctx);
  // Returns pooled blocks of one device to the system.
  static void ReleaseAll(Context ctx);
  // Pooling can be turned off by WEFT_MEM_POOL=0 (read once).
  static bool PoolingEnabled();
};

}  // namespace weft
