#include "core/storage/pooled_storage.h"

#include <algorithm>
#include <cstdlib>

#include "core/base/error.h"
#include "core/gpu/device_api.h"

namespace weft {
namespace storage_internal {

// Note [Size classes]
// A freed block is reused only by a request of the same class, so classes
// trade memory wasted per block against how often a pooled block fits.
//  * Up to 4 KiB: powers of two (at least 64 B, the alignment). Small arrays
//    (scalars, biases, shapes of varying length) come in many sizes; a few
//    classes give high reuse and the waste is bounded by 4 KiB per block.
//  * Above 4 KiB: eight classes per power of two, i.e. multiples of
//    max(4 KiB, 2^(k-3)) for sizes in [2^k, 2^(k+1)). Waste stays under 12.5%
//    from 32 KiB up, under 4 KiB below that (a plain power of two would waste
//    up to 50% of a large activation), yet
//    the number of classes grows only logarithmically with the size range, so
//    shapes that vary between iterations (batch or sequence length) still
//    find pooled blocks instead of growing the pool without bound. Multiples
//    of 4 KiB keep big blocks page-granular.
size_t SizeClass(size_t size) {
  constexpr size_t kSmallLimit = 4096;
  if (size <= kAlignment) return kAlignment;
  if (size <= kSmallLimit) {
    size_t c = kAlignment;
    while (c < size) c <<= 1;
    return c;
  }
  int k = 63 - __builtin_clzll(static_cast<unsigned long long>(size));  // 2^k <= size
  size_t step = std::max<size_t>(kSmallLimit, size_t{1} << (k - 3));
  return (size + step - 1) / step * step;
}

void* PooledAllocator::SystemAlloc(size_t block) {
  if (ctx_.dev_type == DevType::kGPU) return gpu::DeviceAlloc(ctx_.dev_id, block);
  if (ctx_.dev_type == DevType::kCPUPinned && gpu::DeviceCount() > 0) return gpu::PinnedAlloc(block);
  void* p = nullptr;
  if (posix_memalign(&p, kAlignment, block) == 0) return p;
  return nullptr;
}

void PooledAllocator::SystemFree(void* ptr) {
  if (ctx_.dev_type == DevType::kGPU) {
    gpu::DeviceFree(ctx_.dev_id, ptr);
  } else if (ctx_.dev_type == DevType::kCPUPinned && gpu::DeviceCount() > 0) {
    gpu::PinnedFree(ptr);
  } else {
    std::free(ptr);
  }
}

void* PooledAllocator::Alloc(size_t size) {
  if (size == 0) {
    std::lock_guard<std::mutex> lk(mu_);
    ++stats_.num_allocs;
    return nullptr;
  }
  WEFT_CHECK(size <= kMaxAllocBytes, kOutOfMemory)
      << "cannot allocate " << size << " bytes on " << ctx_.ToString()
      << ": larger than any address space";
  const size_t block = SizeClass(size);
  if (pooling_) {
    std::lock_guard<std::mutex> lk(mu_);
    auto it = free_.find(block);
    if (it != free_.end() && !it->second.empty()) {
      void* p = it->second.back();
      it->second.pop_back();
      ++stats_.num_pool_hits;
      stats_.bytes_pooled -= static_cast<int64_t>(block);
      CountAllocLocked(size);
      return p;
    }
  }
  // Not pooled: allocate exactly what was asked (rounded to the alignment),
  // since the block never comes back for another request.
  const size_t bytes = pooling_ ? block : (size + kAlignment - 1) / kAlignment * kAlignment;
  void* p = SystemAlloc(bytes);
  if (p == nullptr && pooling_) {
    // The pool may hold the memory we need in other classes: give it back
    // and try once more before failing.
    ReleaseAll();
    p = SystemAlloc(bytes);
  }
  WEFT_CHECK(p != nullptr, kOutOfMemory)
      << "out of memory allocating " << size << " bytes on " << ctx_.ToString();
  std::lock_guard<std::mutex> lk(mu_);
  CountAllocLocked(size);
  return p;
}

void PooledAllocator::CountAllocLocked(size_t size) {
  ++stats_.num_allocs;
  stats_.bytes_in_use += static_cast<int64_t>(size);
  stats_.peak_bytes_in_use = std::max(stats_.peak_bytes_in_use, stats_.bytes_in_use);
}

void PooledAllocator::Free(void* ptr, size_t size) {
  if (ptr == nullptr) return;
  const size_t block = SizeClass(size);
  {
    std::lock_guard<std::mutex> lk(mu_);
    stats_.bytes_in_use -= static_cast<int64_t>(size);
    if (pooling_) {
      free_[block].push_back(ptr);
      stats_.bytes_pooled += static_cast<int64_t>(block);
      return;
    }
  }
  SystemFree(ptr);
}

StorageStats PooledAllocator::Stats() const {
  std::lock_guard<std::mutex> lk(mu_);
  return stats_;
}

void PooledAllocator::ReleaseAll() {
  std::unordered_map<size_t, std::vector<void*>> blocks;
  {
    std::lock_guard<std::mutex> lk(mu_);
    blocks.swap(free_);
    stats_.bytes_pooled = 0;
  }
  for (auto& kv : blocks) {
    for (void* p : kv.second) SystemFree(p);
  }
}

}  // namespace storage_internal
}  // namespace weft
