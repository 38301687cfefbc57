// One device's pooled host allocator; Storage (storage.h) keeps one per
// Context. Exposed for tests, which build it with pooling off directly.
#pragma once
#include <cstddef>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "core/base/context.h"
#include "core/storage/storage.h"

namespace weft {
namespace storage_internal {

// Alignment of every block: a cache line, and enough for AVX-512 loads.
constexpr size_t kAlignment = 64;

// Requests above this cannot be satisfied by any machine (it is the x86-64
// user address space); refusing them up front gives a clean kOutOfMemory
// instead of asking the system (and sanitizer allocators abort on them).
constexpr size_t kMaxAllocBytes = size_t{1} << 47;

// The block size a request of `size` bytes (> 0) is served with. See Note
// [Size classes] in pooled_storage.cc.
size_t SizeClass(size_t size);

class PooledAllocator {
 public:
  PooledAllocator(Context ctx, bool pooling) : ctx_(ctx), pooling_(pooling) {}
  ~PooledAllocator() { ReleaseAll(); }
  PooledAllocator(const PooledAllocator&) = delete;
  PooledAllocator& operator=(const PooledAllocator&) = delete;

  // Returns a kAlignment-aligned block of at least `size` bytes, nullptr for
  // size 0. Throws Error(kOutOfMemory). Thread-safe.
  void* Alloc(size_t size);
  // `size` must be the size passed to Alloc. nullptr is ignored.
  void Free(void* ptr, size_t size);
  StorageStats Stats() const;
  // Returns every pooled block to the system.
  void ReleaseAll();
  bool pooling() const { return pooling_; }

 private:
  void* SystemAlloc(size_t block);  // nullptr when out of memory
  void SystemFree(void* ptr);
  void CountAllocLocked(size_t size);  // stats of a successful Alloc; mu_ held

  const Context ctx_;
  const bool pooling_;
  mutable std::mutex mu_;
  // Free blocks by size class (guarded by mu_).
  std::unordered_map<size_t, std::vector<void*>> free_;
  StorageStats stats_;  // guarded by mu_
};

}  // namespace storage_internal
}  // namespace weft
