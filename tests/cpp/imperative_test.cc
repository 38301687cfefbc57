// Imperative invoke: laziness, checks before push, out=, views and engine errors.
#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include "core/base/env.h"
#include "core/base/error.h"
#include "core/ndarray/imperative.h"
#include "core/op/op_util.h"
#include "core/storage/storage.h"

namespace weft {
namespace {

std::atomic<std::thread::id> g_kernel_thread;

// Test-only ops, registered in the test binary alone.
WEFT_REGISTER_OP("_test_add_one")
    .describe("out = data + 1 (float32); records the thread it ran on")
    .add_input("data")
    .set_compute_cpu([](const OpContext&, const Params&, const std::vector<TensorView>& in,
                        const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
      g_kernel_thread = std::this_thread::get_id();
      const float* x = in[0].ptr<float>();
      float* y = out[0].ptr<float>();
      for (int64_t i = 0; i < in[0].Size(); ++i) StoreReq(req[0], y + i, x[i] + 1.0f);
    });

WEFT_REGISTER_OP("_test_fail")
    .describe("always throws inside the kernel")
    .add_input("data")
    .set_compute_cpu([](const OpContext&, const Params&, const std::vector<TensorView>&,
                        const std::vector<OpReq>&, const std::vector<TensorView>&) {
      throw std::runtime_error("kernel exploded");
    });

NDArray Filled(Shape s, float v) {
  NDArray a(s, Context::CPU(0), DType::kFloat32);
  std::vector<float> host(static_cast<size_t>(s.Size()), v);
  a.SyncCopyFromHost(host.data(), host.size() * 4);
  return a;
}

std::vector<float> Host(const NDArray& a) {
  std::vector<float> h(static_cast<size_t>(a.Size()));
  a.SyncCopyToHost(h.data(), h.size() * 4);
  return h;
}

TEST(Imperative, ChainAndOutParam) {
  const OpDef& op = OpRegistry::Get()->FindOrThrow("_test_add_one");
  NDArray x = Filled({3, 4}, 1.0f);
  std::vector<NDArray> out;
  Invoke(op, {}, {x}, &out);
  for (int i = 0; i < 50; ++i) {
    std::vector<NDArray> o2 = {out[0]};
    Invoke(op, {}, {out[0]}, &o2);  // in place: out = out + 1
  }
  for (float v : Host(out[0])) EXPECT_EQ(v, 52.0f);
  EXPECT_EQ(Host(x)[0], 1.0f);
}

TEST(Imperative, KernelsRunOffTheCallingThreadWithThreadedEngine) {
  if (GetEnv("WEFT_ENGINE", "threaded") == "naive") GTEST_SKIP() << "naive engine runs ops on the caller";
  const OpDef& op = OpRegistry::Get()->FindOrThrow("_test_add_one");
  NDArray x = Filled({8}, 0.0f);
  std::vector<NDArray> out;
  Invoke(op, {}, {x}, &out);
  out[0].WaitToRead();
  EXPECT_NE(g_kernel_thread.load(), std::this_thread::get_id());
}

TEST(Imperative, ViewsShareTheVar) {
  const OpDef& op = OpRegistry::Get()->FindOrThrow("_test_add_one");
  NDArray x = Filled({4, 2}, 0.0f);
  NDArray row = x.At(2);
  std::vector<NDArray> o = {row};
  Invoke(op, {}, {row}, &o);  // write through the view
  std::vector<float> h = Host(x);
  EXPECT_EQ(h[4], 1.0f);
  EXPECT_EQ(h[5], 1.0f);
  EXPECT_EQ(h[0], 0.0f);
  EXPECT_TRUE(row.SharesChunk(x));
  EXPECT_EQ(x.Reshape({8}).shape(), Shape({8}));
  EXPECT_THROW(x.Reshape({3}), Error);
  EXPECT_THROW(x.Slice(2, 9), Error);
}

TEST(Imperative, ChecksHappenBeforePush) {
  const OpDef& op = OpRegistry::Get()->FindOrThrow("_test_add_one");
  NDArray x = Filled({2}, 0.0f);
  std::vector<NDArray> out;
  try {
    Invoke(op, {{"bogus", "1"}}, {x}, &out);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::kInvalidArgument);
    EXPECT_NE(std::string(e.what()).find("_test_add_one"), std::string::npos);
  }
  EXPECT_THROW(Invoke(op, {}, {x, x}, &out), Error);
  std::vector<NDArray> wrong = {Filled({3}, 0.0f)};
  EXPECT_THROW(Invoke(op, {}, {x}, &wrong), Error);
}

TEST(Imperative, KernelErrorSurfacesAtWaitAndEngineKeepsWorking) {
  const OpDef& fail = OpRegistry::Get()->FindOrThrow("_test_fail");
  const OpDef& add = OpRegistry::Get()->FindOrThrow("_test_add_one");
  NDArray x = Filled({2}, 0.0f);
  std::vector<NDArray> out;
  Invoke(fail, {}, {x}, &out);
  try {
    out[0].WaitToRead();
    FAIL() << "expected the kernel error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("_test_fail"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("kernel exploded"), std::string::npos) << e.what();
  }
  try {
    Engine::Get()->WaitForAll();
  } catch (const Error&) {
  }
  std::vector<NDArray> ok;
  Invoke(add, {}, {x}, &ok);
  EXPECT_EQ(Host(ok[0])[1], 1.0f);
}

TEST(Imperative, StorageReturnsAfterArraysDie) {
  Context c = Context::CPU(3);
  int64_t before = Storage::Stats(c).bytes_in_use;
  {
    NDArray a({1024}, c, DType::kFloat64);
    EXPECT_EQ(Storage::Stats(c).bytes_in_use, before + 8192);
  }
  Engine::Get()->WaitForAll();
  EXPECT_EQ(Storage::Stats(c).bytes_in_use, before);
}

TEST(Imperative, CopyAcrossDevicesConvertsDtype) {
  NDArray x = Filled({5}, 2.5f);
  NDArray y = x.CopyTo(Context::CPU(1));
  EXPECT_EQ(y.ctx(), Context::CPU(1));
  EXPECT_EQ(Host(y)[4], 2.5f);
  NDArray z({5}, Context::CPU(1), DType::kFloat64);
  NDArray::Copy(x, z);
  std::vector<double> h(5);
  z.SyncCopyToHost(h.data(), 40);
  EXPECT_EQ(h[0], 2.5);
}

}  // namespace
}  // namespace weft
