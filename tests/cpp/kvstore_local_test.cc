// Level-1 KVStore in C++: reduction across devices, the updater, errors.
#include <gtest/gtest.h>

#include <vector>

#include "core/base/error.h"
#include "core/kvstore/kvstore.h"

namespace weft {
namespace {

NDArray Filled(float v, Context ctx = Context::CPU(0)) {
  NDArray a(Shape{3}, ctx, DType::kFloat32);
  float d[3] = {v, v, v};
  a.SyncCopyFromHost(d, sizeof(d));
  return a;
}

float First(const NDArray& a) {
  float d[3];
  a.SyncCopyToHost(d, sizeof(d));
  return d[0];
}

TEST(KVStoreLocal, PushSumsDevicesThenUpdaterRuns) {
  for (const char* type : {"local", "device"}) {
    auto kv = KVStore::Create(type);
    kv->Init({"a"}, {Filled(1)});
    int calls = 0;
    kv->SetUpdater([&](const std::string& key, const NDArray& recv, const NDArray& stored) {
      ++calls;
      EXPECT_EQ(key, "a");
      EXPECT_EQ(First(recv), 5.0f);
      NDArray::Copy(recv, stored);
    });
    kv->Push({"a", "a"}, {Filled(2, Context::CPU(0)), Filled(3, Context::CPU(1))}, 0);
    NDArray o0 = Filled(0, Context::CPU(0)), o1 = Filled(0, Context::CPU(1));
    kv->Pull({"a", "a"}, {o0, o1}, 0);
    EXPECT_EQ(calls, 1) << type;
    EXPECT_EQ(First(o0), 5.0f) << type;
    EXPECT_EQ(First(o1), 5.0f) << type;
  }
}

TEST(KVStoreLocal, ErrorsNameTheKey) {
  auto kv = KVStore::Create("local");
  kv->Init({"w"}, {Filled(1)});
  try {
    kv->Push({"w"}, {NDArray(Shape{4}, Context::CPU(0), DType::kFloat32)}, 0);
    FAIL() << "a wrong shape must throw";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::kShape);
    EXPECT_NE(std::string(e.what()).find("key 'w'"), std::string::npos) << e.what();
  }
  EXPECT_THROW(kv->Pull({"nope"}, {Filled(0)}, 0), Error);
  EXPECT_THROW(kv->SetOptimizer("{}"), Error);
  EXPECT_THROW(KVStore::Create("nccl"), Error);
}

}  // namespace
}  // namespace weft
