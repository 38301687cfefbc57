// weight_cache: the process-wide cache of data kernels derive from weights
// (Note [Weight layout cache] in core/op/common/weight_cache.h). The Winograd
// path (Note [Winograd from the third use] in convolution_dnnl.cc) relies on
// Drop() removing the direct entry while a kernel still holding its value
// keeps using it, and every inference kernel relies on a changed stamp or
// changed per-channel values rebuilding the entry rather than reusing it.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "core/op/common/weight_cache.h"

namespace weft {
namespace {

// A make() that counts its calls and returns a fresh int holding `value`.
struct Maker {
  int calls = 0;
  std::shared_ptr<const int> Make(int value) {
    ++calls;
    return std::make_shared<const int>(value);
  }
};

class WeightCache : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(weight_cache::Enabled()) << "tests run with the default budget (WEFT_WEIGHT_CACHE_MB unset)";
    weight_cache::Clear();
  }
  void TearDown() override { weight_cache::Clear(); }

  std::shared_ptr<const int> Get(const char* kind, const weight_cache::Source& src, size_t bytes, int value) {
    return weight_cache::FindOrMakeAs<int>(kind, src, bytes, [&]() { return maker.Make(value); });
  }

  Maker maker;
  float weight[4] = {1, 2, 3, 4};
};

TEST_F(WeightCache, TheSameStampIsAHitAndANewStampRebuildsInPlace) {
  weight_cache::Source src{weight, 7};
  uint64_t hits = weight_cache::Hits();
  EXPECT_EQ(*Get("conv", src, 100, 1), 1);
  EXPECT_EQ(*Get("conv", src, 100, 2), 1);  // found: make() not called
  EXPECT_EQ(maker.calls, 1);
  EXPECT_EQ(weight_cache::Hits(), hits + 1);
  src.stamp = 8;  // the weight was written
  EXPECT_EQ(*Get("conv", src, 100, 3), 3);
  EXPECT_EQ(maker.calls, 2);
  EXPECT_EQ(weight_cache::NumEntries(), 1u);  // one weight, one entry per kind
  EXPECT_EQ(weight_cache::BytesHeld(), 100u);
}

TEST_F(WeightCache, PerChannelInputsAreComparedByValue) {
  std::vector<float> gamma = {0.5f, 1.5f};
  weight_cache::Source src{weight, 7, gamma.data(), gamma.size()};
  EXPECT_EQ(*Get("conv_bn", src, 10, 1), 1);
  std::vector<float> same = gamma;  // other memory, same values: still a hit
  src.small = same.data();
  EXPECT_EQ(*Get("conv_bn", src, 10, 2), 1);
  same[1] = 2.5f;
  EXPECT_EQ(*Get("conv_bn", src, 10, 3), 3);
  EXPECT_EQ(maker.calls, 2);
}

TEST_F(WeightCache, StampZeroIsNeverCached) {
  weight_cache::Source shared{weight, 0};  // memory shared through DLPack
  Get("conv", shared, 10, 1);
  Get("conv", shared, 10, 2);
  EXPECT_EQ(maker.calls, 2);
  EXPECT_EQ(weight_cache::NumEntries(), 0u);
}

TEST_F(WeightCache, KindsAreSeparateEntries) {
  weight_cache::Source src{weight, 7};
  EXPECT_EQ(*Get("direct", src, 10, 1), 1);
  EXPECT_EQ(*Get("winograd", src, 30, 2), 2);
  EXPECT_EQ(weight_cache::NumEntries(), 2u);
  EXPECT_EQ(weight_cache::BytesHeld(), 40u);
}

TEST_F(WeightCache, DropRemovesTheEntryButHoldersKeepTheValue) {
  weight_cache::Source src{weight, 7};
  std::shared_ptr<const int> held = Get("direct", src, 10, 1);
  Get("winograd", src, 30, 2);
  weight_cache::Drop("direct", weight);
  EXPECT_EQ(weight_cache::NumEntries(), 1u);
  EXPECT_EQ(weight_cache::BytesHeld(), 30u);
  EXPECT_EQ(*held, 1);  // a kernel still running with it is unaffected
  EXPECT_EQ(held.use_count(), 1);  // the cache no longer holds it
  EXPECT_EQ(*Get("direct", src, 10, 3), 3);  // the next lookup makes it again
  EXPECT_EQ(*Get("winograd", src, 30, 4), 2);  // the other kind was untouched
  weight_cache::Drop("direct", weight + 1);  // no such entry: nothing happens
  weight_cache::Drop("other", weight);
  EXPECT_EQ(weight_cache::NumEntries(), 2u);
}

TEST_F(WeightCache, TheLeastRecentlyUsedGoFirstWhenTheBudgetIsFull) {
  const size_t mib = size_t{1} << 20;  // the default budget is 1024 MiB
  float a = 0, b = 0, c = 0;
  Get("conv", {&a, 1}, 400 * mib, 1);
  Get("conv", {&b, 1}, 400 * mib, 2);
  Get("conv", {&a, 1}, 400 * mib, 9);  // a is now the most recently used
  Get("conv", {&c, 1}, 400 * mib, 3);  // over budget: b goes, not a
  EXPECT_EQ(weight_cache::NumEntries(), 2u);
  EXPECT_EQ(weight_cache::BytesHeld(), 800 * mib);
  int calls = maker.calls;
  EXPECT_EQ(*Get("conv", {&a, 1}, 400 * mib, 9), 1);
  EXPECT_EQ(maker.calls, calls);
  EXPECT_EQ(*Get("conv", {&b, 1}, 400 * mib, 4), 4);  // made again
  // Larger than the whole budget: made, returned, never stored.
  EXPECT_EQ(*Get("conv", {&c, 2}, 2048 * mib, 5), 5);
  EXPECT_EQ(weight_cache::BytesHeld(), 800 * mib);
}

}  // namespace
}  // namespace weft
