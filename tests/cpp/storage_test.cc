// Pooled storage: alignment, reuse, statistics, pooling off, threads. Also
// built with ThreadSanitizer. Tests of the public Storage API use device ids
// no other test touches, so their statistics start from zero.
#include <cstdlib>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "core/base/error.h"
#include "core/storage/pooled_storage.h"
#include "core/storage/storage.h"

namespace weft {
namespace {

using storage_internal::PooledAllocator;
using storage_internal::SizeClass;

bool Aligned(const void* p) { return reinterpret_cast<uintptr_t>(p) % 64 == 0; }

TEST(Storage, AllocationsAre64ByteAlignedAndWritable) {
  Context ctx = Context::CPU(31);
  std::vector<StorageHandle> handles;
  for (size_t size : {1, 3, 63, 64, 65, 100, 4095, 4096, 4097, 100000, 1 << 20}) {
    StorageHandle h = Storage::Alloc(size, ctx);
    ASSERT_NE(h.dptr, nullptr);
    EXPECT_TRUE(Aligned(h.dptr)) << size;
    EXPECT_EQ(h.size, size);
    EXPECT_EQ(h.ctx, ctx);
    std::memset(h.dptr, 0xab, size);
    handles.push_back(h);
  }
  for (const StorageHandle& h : handles) Storage::Free(h);
  EXPECT_EQ(Storage::Stats(ctx).bytes_in_use, 0);
}

TEST(Storage, ZeroSizeGivesNullPointer) {
  Context ctx = Context::CPU(32);
  StorageHandle h = Storage::Alloc(0, ctx);
  EXPECT_EQ(h.dptr, nullptr);
  EXPECT_EQ(h.size, 0u);
  Storage::Free(h);  // no-op
  EXPECT_EQ(Storage::Stats(ctx).bytes_in_use, 0);
}

TEST(Storage, PublicApiReusesAndCounts) {
  Context ctx = Context::CPU(33);
  Storage::ReleaseAll(ctx);  // empty pool even when the test is repeated
  const StorageStats before = Storage::Stats(ctx);
  StorageHandle a = Storage::Alloc(1000, ctx);
  StorageStats s = Storage::Stats(ctx);
  EXPECT_EQ(s.bytes_in_use, before.bytes_in_use + 1000);
  EXPECT_EQ(s.num_allocs, before.num_allocs + 1);
  EXPECT_GE(s.peak_bytes_in_use, 1000);
  Storage::Free(a);
  StorageHandle b = Storage::Alloc(1000, ctx);
  s = Storage::Stats(ctx);
  if (Storage::PoolingEnabled()) {
    EXPECT_EQ(b.dptr, a.dptr);
    EXPECT_EQ(s.num_pool_hits, before.num_pool_hits + 1);
  } else {
    EXPECT_EQ(s.num_pool_hits, 0);
  }
  Storage::Free(b);
  EXPECT_EQ(Storage::Stats(ctx).bytes_in_use, before.bytes_in_use);
  Storage::ReleaseAll(ctx);
  EXPECT_EQ(Storage::Stats(ctx).bytes_pooled, 0);
}

TEST(Storage, DevicesHaveSeparatePools) {
  Context c0 = Context::CPU(34), c1 = Context::CPU(35);
  Storage::ReleaseAll(c0);
  Storage::ReleaseAll(c1);
  const int64_t hits1 = Storage::Stats(c1).num_pool_hits;
  StorageHandle h = Storage::Alloc(512, c0);
  EXPECT_EQ(Storage::Stats(c0).bytes_in_use, 512);
  EXPECT_EQ(Storage::Stats(c1).bytes_in_use, 0);
  Storage::Free(h);
  StorageHandle g = Storage::Alloc(512, c1);
  EXPECT_EQ(Storage::Stats(c1).num_pool_hits, hits1);  // c0's block is not c1's
  Storage::Free(g);
}

TEST(Storage, GpuIsRejectedWithoutCuda) {
#ifdef WEFT_USE_CUDA
  GTEST_SKIP() << "CUDA build: gpu(0) is backed by the device when one is present";
#endif
  if (std::getenv("WEFT_GPU_EMULATE") != nullptr) GTEST_SKIP() << "WEFT_GPU_EMULATE is set: gpu(0) is emulated";
  try {
    Storage::Alloc(16, Context::GPU(0));
    ADD_FAILURE() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::kInvalidArgument);
    EXPECT_NE(std::string(e.what()).find("no CUDA support"), std::string::npos) << e.what();
  }
}

TEST(Storage, ImpossibleSizeIsOutOfMemory) {
  for (size_t size : {size_t{1} << 50, SIZE_MAX}) {
    try {
      Storage::Alloc(size, Context::CPU(36));
      ADD_FAILURE() << "expected an error for " << size;
    } catch (const Error& e) {
      EXPECT_EQ(e.status(), Status::kOutOfMemory);
      EXPECT_NE(std::string(e.what()).find(std::to_string(size)), std::string::npos) << e.what();
    }
  }
  EXPECT_EQ(Storage::Stats(Context::CPU(36)).bytes_in_use, 0);
}

TEST(SizeClass, BoundsWasteAndIsMonotone) {
  size_t prev = 0;
  for (size_t size = 1; size < (size_t{1} << 24); size += 1 + size / 7) {
    size_t c = SizeClass(size);
    EXPECT_GE(c, size);
    EXPECT_EQ(c % 64, 0u) << size;
    EXPECT_GE(c, prev) << size;
    if (size <= 4096) {
      EXPECT_EQ(c & (c - 1), 0u) << "small classes are powers of two: " << size;
    } else {
      EXPECT_EQ(c % 4096, 0u) << size;
      // Under 12.5% from 32 KiB up; page granularity (< 4 KiB) below.
      EXPECT_LT(c - size, std::max<size_t>(size / 8, 4096)) << size;
    }
    prev = c;
  }
  EXPECT_EQ(SizeClass(1), 64u);
  EXPECT_EQ(SizeClass(65), 128u);
  EXPECT_EQ(SizeClass(4097), 8192u);
  EXPECT_EQ(SizeClass(1 << 20), size_t{1} << 20);
  EXPECT_EQ(SizeClass((1 << 20) + 1), (size_t{1} << 20) + (size_t{1} << 17));
}

TEST(PooledAllocator, ReuseAndStatistics) {
  PooledAllocator a(Context::CPU(), /*pooling=*/true);
  void* p = a.Alloc(3000);  // class 4096
  void* q = a.Alloc(100);   // class 128
  StorageStats s = a.Stats();
  EXPECT_EQ(s.bytes_in_use, 3100);
  EXPECT_EQ(s.peak_bytes_in_use, 3100);
  EXPECT_EQ(s.bytes_pooled, 0);
  EXPECT_EQ(s.num_allocs, 2);
  EXPECT_EQ(s.num_pool_hits, 0);

  a.Free(p, 3000);
  s = a.Stats();
  EXPECT_EQ(s.bytes_in_use, 100);
  EXPECT_EQ(s.bytes_pooled, 4096);

  // Same class, different request: served from the pool.
  void* r = a.Alloc(2500);
  EXPECT_EQ(r, p);
  s = a.Stats();
  EXPECT_EQ(s.num_pool_hits, 1);
  EXPECT_EQ(s.bytes_pooled, 0);
  EXPECT_EQ(s.bytes_in_use, 2600);
  EXPECT_EQ(s.peak_bytes_in_use, 3100);  // peak is a high-water mark

  // Another class misses.
  void* t = a.Alloc(5000);
  EXPECT_EQ(a.Stats().num_pool_hits, 1);
  EXPECT_EQ(a.Stats().peak_bytes_in_use, 7600);

  a.Free(r, 2500);
  a.Free(q, 100);
  a.Free(t, 5000);
  a.Free(nullptr, 10);  // ignored
  s = a.Stats();
  EXPECT_EQ(s.bytes_in_use, 0);
  EXPECT_EQ(s.bytes_pooled, 4096 + 128 + SizeClass(5000));
  a.ReleaseAll();
  EXPECT_EQ(a.Stats().bytes_pooled, 0);
  EXPECT_EQ(a.Stats().num_allocs, 4);
}

TEST(PooledAllocator, PoolingOffReturnsMemoryAtOnce) {
  PooledAllocator a(Context::CPU(), /*pooling=*/false);
  for (int i = 0; i < 10; ++i) {
    void* p = a.Alloc(1000);
    ASSERT_NE(p, nullptr);
    EXPECT_TRUE(Aligned(p));
    std::memset(p, 1, 1000);
    a.Free(p, 1000);
  }
  StorageStats s = a.Stats();
  EXPECT_EQ(s.num_allocs, 10);
  EXPECT_EQ(s.num_pool_hits, 0);
  EXPECT_EQ(s.bytes_pooled, 0);
  EXPECT_EQ(s.bytes_in_use, 0);
  EXPECT_EQ(s.peak_bytes_in_use, 1000);
}

TEST(PooledAllocator, ConcurrentAllocAndFree) {
  for (bool pooling : {true, false}) {
    PooledAllocator a(Context::CPU(), pooling);
    const int num_threads = 4, iters = 3000;
    std::vector<std::thread> threads;
    std::vector<int> failures(num_threads, 0);
    for (int t = 0; t < num_threads; ++t) {
      threads.emplace_back([&, t] {
        std::mt19937 rng(t);
        std::vector<std::pair<unsigned char*, size_t>> live;
        for (int i = 0; i < iters; ++i) {
          if (live.size() < 16 && (live.empty() || rng() % 2)) {
            size_t size = 1 + rng() % 20000;
            auto* p = static_cast<unsigned char*>(a.Alloc(size));
            if (!Aligned(p)) ++failures[t];
            std::memset(p, t + 1, size);  // another thread's block would be overwritten
            live.push_back({p, size});
          } else {
            size_t k = rng() % live.size();
            auto [p, size] = live[k];
            for (size_t j = 0; j < size; j += 97) failures[t] += p[j] != t + 1;
            a.Free(p, size);
            live.erase(live.begin() + static_cast<long>(k));
          }
        }
        for (auto [p, size] : live) a.Free(p, size);
      });
    }
    for (std::thread& t : threads) t.join();
    for (int t = 0; t < num_threads; ++t) EXPECT_EQ(failures[t], 0) << "thread " << t;
    StorageStats s = a.Stats();
    EXPECT_EQ(s.bytes_in_use, 0);
    EXPECT_GT(s.peak_bytes_in_use, 0);
    if (pooling) {
      EXPECT_GT(s.num_pool_hits, 0);
    } else {
      EXPECT_EQ(s.bytes_pooled, 0);
    }
  }
}

}  // namespace
}  // namespace weft
