// The engine's GPU lanes (Note [GPU completion] in threaded_engine.cc) and
// GPU storage, through the GPU device layer only, so the same tests run on a
// CUDA device and on the host emulation (WEFT_GPU_EMULATE=2, ctest's
// gpu_emulated_* entries; Note [Two GPU backends]). Without a device every
// test skips, saying so. Also built with ThreadSanitizer: in the emulation,
// completions arrive on a separate callback thread as they do from CUDA.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/engine/engine.h"
#include "core/gpu/device_api.h"
#include "core/storage/storage.h"

namespace weft {
namespace {

const char* kNoGpu = "no GPU device (CUDA build without a device, or WEFT_GPU_EMULATE unset)";

class GpuEngineTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    if (gpu::DeviceCount() == 0) GTEST_SKIP() << kNoGpu;
    engine_ = Engine::Create(GetParam());
  }
  void TearDown() override {
    if (engine_) EXPECT_NO_THROW(engine_->WaitForAll());
    engine_.reset();
  }
  Engine& eng() { return *engine_; }
  std::unique_ptr<Engine> engine_;
};

// Device buffer of n int64s, freed at scope exit.
struct DeviceBuffer {
  DeviceBuffer(Context c, size_t n) : h(Storage::Alloc(n * sizeof(int64_t), c)), n(n) {}
  ~DeviceBuffer() { Storage::Free(h); }
  int64_t* ptr() const { return static_cast<int64_t*>(h.dptr); }
  std::vector<int64_t> Read() const {
    std::vector<int64_t> v(n);
    gpu::MemcpySync(v.data(), h.dptr, n * sizeof(int64_t));
    return v;
  }
  StorageHandle h;
  size_t n;
};

TEST_P(GpuEngineTest, GpuOpsGetAStreamAndCompleteInOrder) {
  const Context g = Context::GPU(0);
  const size_t n = 1 << 12;
  DeviceBuffer a(g, n), b(g, n);
  std::vector<int64_t> host(n);
  for (size_t i = 0; i < n; ++i) host[i] = static_cast<int64_t>(i);
  VarHandle va = eng().NewVar(), vb = eng().NewVar();
  // host -> a on the copy lane, then 50 rounds of a -> b -> a on the compute
  // lanes: every op depends on the previous one through a var, so any
  // completion reported before the stream ran would show as a wrong value.
  eng().Push(
      [&](RunContext r) {
        ASSERT_NE(r.stream, nullptr);
        gpu::MemcpyAsync(a.ptr(), host.data(), n * sizeof(int64_t), r.stream);
      },
      g, {}, {va}, FnProperty::kCopy, 0, "upload");
  for (int round = 0; round < 50; ++round) {
    eng().Push([&](RunContext r) { gpu::MemcpyAsync(b.ptr(), a.ptr(), n * sizeof(int64_t), r.stream); }, g, {va},
               {vb}, FnProperty::kNormal, 0, "a_to_b");
    eng().Push([&](RunContext r) { gpu::MemsetAsync(a.ptr(), 0, n * sizeof(int64_t), r.stream); }, g, {}, {va},
               FnProperty::kNormal, 0, "clear_a");
    eng().Push([&](RunContext r) { gpu::MemcpyAsync(a.ptr(), b.ptr(), n * sizeof(int64_t), r.stream); }, g, {vb},
               {va}, FnProperty::kNormal, 0, "b_to_a");
  }
  eng().WaitForVar(va);
  EXPECT_EQ(a.Read(), host);
  eng().DeleteVar({}, g, va);
  eng().DeleteVar({}, g, vb);
  eng().WaitForAll();
}

TEST_P(GpuEngineTest, CpuOpAfterGpuOpSeesItsResult) {
  const Context g = Context::GPU(0);
  DeviceBuffer d(g, 1);
  int64_t seen = 0;
  const int64_t value = 0x1234567890;
  VarHandle v = eng().NewVar();
  eng().Push([&](RunContext r) { gpu::MemcpyAsync(d.ptr(), &value, sizeof value, r.stream); }, g, {}, {v},
             FnProperty::kCopy, 0, "upload");
  // A CPU op reading the var runs only after the GPU op's stream reached it.
  eng().Push(
      [&](RunContext r) {
        EXPECT_EQ(r.stream, nullptr);
        gpu::MemcpySync(&seen, d.ptr(), sizeof seen);
      },
      Context::CPU(0), {v}, {}, FnProperty::kNormal, 0, "read_on_cpu");
  eng().WaitForAll();
  EXPECT_EQ(seen, value);
  eng().DeleteVar({}, g, v);
}

TEST_P(GpuEngineTest, ExceptionInGpuOpIsStoredAndEngineGoesOn) {
  const Context g = Context::GPU(0);
  VarHandle v = eng().NewVar();
  eng().Push([](RunContext) { throw std::runtime_error("kernel refused"); }, g, {}, {v}, FnProperty::kNormal, 0,
             "bad_gpu_op");
  try {
    eng().WaitForVar(v);
    ADD_FAILURE() << "expected the op's error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("bad_gpu_op"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("kernel refused"), std::string::npos) << e.what();
  }
  EXPECT_NO_THROW(eng().WaitForAll());  // reported once
  DeviceBuffer d(g, 1);
  const int64_t one = 1;
  eng().Push([&](RunContext r) { gpu::MemcpyAsync(d.ptr(), &one, sizeof one, r.stream); }, g, {}, {v},
             FnProperty::kCopy, 0, "after");
  eng().WaitForVar(v);
  EXPECT_EQ(d.Read()[0], 1);
  eng().DeleteVar({}, g, v);
}

TEST_P(GpuEngineTest, CopyBetweenTwoGpus) {
  if (gpu::DeviceCount() < 2) GTEST_SKIP() << "needs 2 GPU devices, have " << gpu::DeviceCount();
  const Context g0 = Context::GPU(0), g1 = Context::GPU(1);
  const size_t n = 1000;
  DeviceBuffer a(g0, n), b(g1, n);
  std::vector<int64_t> host(n, 7);
  VarHandle va = eng().NewVar(), vb = eng().NewVar();
  eng().Push([&](RunContext r) { gpu::MemcpyAsync(a.ptr(), host.data(), n * sizeof(int64_t), r.stream); }, g0, {},
             {va}, FnProperty::kCopy, 0, "upload");
  eng().Push([&](RunContext r) { gpu::MemcpyAsync(b.ptr(), a.ptr(), n * sizeof(int64_t), r.stream); }, g1, {va},
             {vb}, FnProperty::kCopy, 0, "peer_copy");
  eng().WaitForVar(vb);
  EXPECT_EQ(b.Read(), host);
  eng().DeleteVar({}, g0, va);
  eng().DeleteVar({}, g1, vb);
}

INSTANTIATE_TEST_SUITE_P(Engines, GpuEngineTest, ::testing::Values("threaded", "naive"));

TEST(GpuStorage, PooledWithStatistics) {
  if (gpu::DeviceCount() == 0) GTEST_SKIP() << kNoGpu;
  const Context g = Context::GPU(0);
  StorageStats before = Storage::Stats(g);
  StorageHandle h = Storage::Alloc(1 << 20, g);
  EXPECT_NE(h.dptr, nullptr);
  EXPECT_EQ(Storage::Stats(g).bytes_in_use, before.bytes_in_use + (1 << 20));
  Storage::Free(h);
  if (Storage::PoolingEnabled()) {
    StorageHandle again = Storage::Alloc(1 << 20, g);
    EXPECT_EQ(again.dptr, h.dptr);  // served from the pool
    Storage::Free(again);
  }
  EXPECT_EQ(Storage::Stats(g).bytes_in_use, before.bytes_in_use);
}

TEST(GpuStorage, MissingDeviceIsAClearError) {
  const int n = gpu::DeviceCount();
  try {
    Storage::Alloc(16, Context::GPU(n));  // one past the last device
    ADD_FAILURE() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::kInvalidArgument);
    EXPECT_NE(std::string(e.what()).find("gpu(" + std::to_string(n) + ")"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace weft
