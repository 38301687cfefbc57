// nn_cpu::ThreadScratch, the per-thread buffers of the im2col convolution and
// deformable convolution: a failed allocation leaves the slot as it was
// (issue 22: it freed the old buffer first and kept the old size, so the next
// convolution on that thread wrote through NULL).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>

#include "core/base/error.h"
#include "core/op/dense/gemm_cpu.h"

namespace weft {
namespace {

Status StatusOf(size_t bytes) {
  try {
    nn_cpu::ThreadScratch(6, bytes);
  } catch (const Error& e) {
    return e.status();
  }
  return Status::kOk;
}

TEST(ThreadScratch, AFailedAllocationKeepsTheOldBuffer) {
  char* p = static_cast<char*>(nn_cpu::ThreadScratch(6, 256));
  ASSERT_NE(p, nullptr);
  std::memset(p, 7, 256);
  // 1 PiB: more than any machine's memory and swap, so aligned_alloc fails.
  EXPECT_EQ(StatusOf(size_t{1} << 50), Status::kOutOfMemory);
  EXPECT_EQ(StatusOf(SIZE_MAX), Status::kOutOfMemory);  // the rounding would wrap
  // The slot still holds its old, valid buffer, contents and all.
  char* q = static_cast<char*>(nn_cpu::ThreadScratch(6, 256));
  EXPECT_EQ(q, p);
  EXPECT_EQ(q[255], 7);
  // And it grows again when asked for more than it has.
  char* r = static_cast<char*>(nn_cpu::ThreadScratch(6, 4096));
  ASSERT_NE(r, nullptr);
  std::memset(r, 1, 4096);
}

}  // namespace
}  // namespace weft
