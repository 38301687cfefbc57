// The device-callable 16-bit floats of the GPU kernels (core/op/common/half_hd.h,
// Note [16-bit floats on GPU]) against the CPU's half_t / bf16_t: the same
// bits for every 16-bit pattern and for float32 values across the whole range
// (every rounding boundary of each exponent), their limits, and AccT.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include <gtest/gtest.h>

#include "core/base/dtype.h"
#include "core/op/common/half_hd.h"

namespace weft {
namespace {

uint32_t Bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
float Float(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

TEST(HalfHdTest, EveryPatternWidensLikeTheCpu) {
  for (uint32_t b = 0; b < 65536; ++b) {
    const uint16_t h = static_cast<uint16_t>(b);
    ASSERT_EQ(Bits(hd16::HalfToFloat(h)), Bits(half_t::ToFloat(h))) << "float16 bits " << b;
    half_t cpu_b;
    cpu_b.bits = h;
    bf16_t cpu_bf;
    cpu_bf.bits = h;
    ASSERT_EQ(Bits(hd16::Bf16ToFloat(h)), Bits(static_cast<float>(cpu_bf))) << "bfloat16 bits " << b;
    ASSERT_EQ(Bits(static_cast<float>(gpu_half::FromBits(h))), Bits(static_cast<float>(cpu_b)));
  }
}

// Every float32 exponent's mantissas at multiples of 2^12 and one ulp either
// side: each rounding boundary of float16 (normal: bit 12 is the halfway bit;
// subnormal: a higher one) and of bfloat16 (bit 15); plus a stride through
// all 2^32 patterns.
TEST(HalfHdTest, FloatsRoundLikeTheCpu) {
  int64_t checked = 0;
  auto check = [&](uint32_t u) {
    const float f = Float(u);
    ASSERT_EQ(hd16::HalfFromFloat(f), half_t::FromFloat(f)) << "float bits " << u;
    ASSERT_EQ(hd16::Bf16FromFloat(f), bf16_t::FromFloat(f)) << "float bits " << u;
    ASSERT_EQ(gpu_half(f).bits, half_t(f).bits);
    ++checked;
  };
  for (uint32_t sign = 0; sign < 2; ++sign)
    for (uint32_t e = 0; e < 256; ++e) {
      const uint32_t base = (sign << 31) | (e << 23);
      for (uint32_t m = 0; m < (1u << 23); m += 1u << 12)
        for (uint32_t d : {0x7fffffu, 0u, 1u}) check(base | ((m + d) & 0x7fffffu));  // m - 1, m, m + 1
    }
  for (uint64_t u = 0; u < (1ull << 32); u += 65521) check(static_cast<uint32_t>(u));
  EXPECT_GT(checked, 1000000);
}

TEST(HalfHdTest, LimitsAndAccumulators) {
  EXPECT_EQ(static_cast<float>(std::numeric_limits<gpu_half>::max()), 65504.0f);
  EXPECT_EQ(static_cast<float>(std::numeric_limits<gpu_half>::lowest()), -65504.0f);
  EXPECT_EQ(static_cast<float>(std::numeric_limits<gpu_half>::min()), std::ldexp(1.0f, -14));
  EXPECT_EQ(static_cast<float>(std::numeric_limits<gpu_half>::epsilon()), std::ldexp(1.0f, -10));
  EXPECT_TRUE(std::isinf(static_cast<float>(std::numeric_limits<gpu_half>::infinity())));
  EXPECT_TRUE(std::isnan(static_cast<float>(std::numeric_limits<gpu_half>::quiet_NaN())));
  EXPECT_EQ(static_cast<float>(std::numeric_limits<gpu_bf16>::max()), Float(0x7f7f0000u));
  EXPECT_EQ(static_cast<float>(std::numeric_limits<gpu_bf16>::lowest()), -Float(0x7f7f0000u));
  EXPECT_EQ(static_cast<float>(std::numeric_limits<gpu_bf16>::min()), std::numeric_limits<float>::min());
  EXPECT_EQ(static_cast<float>(std::numeric_limits<gpu_bf16>::epsilon()), std::ldexp(1.0f, -7));
  EXPECT_TRUE(std::isinf(static_cast<float>(std::numeric_limits<gpu_bf16>::infinity())));
  EXPECT_TRUE(std::isnan(static_cast<float>(std::numeric_limits<gpu_bf16>::quiet_NaN())));
  static_assert(std::is_same<AccT<gpu_half>, float>::value && std::is_same<AccT<gpu_bf16>, float>::value, "");
  static_assert(std::is_same<AccT<float>, float>::value && std::is_same<AccT<double>, double>::value, "");
  static_assert(IsFloatStorage<gpu_half>::value && !IsFloatStorage<int32_t>::value, "");
  // compound assignment computes in float and rounds once
  gpu_half h(1.0f);
  h += 0.0004f;  // below half an ulp of 1 (2^-11): stays 1
  EXPECT_EQ(static_cast<float>(h), 1.0f);
  h *= 3.0f;
  EXPECT_EQ(static_cast<float>(h), 3.0f);
  gpu_bf16 b(1.0f);
  b /= 3.0f;
  EXPECT_EQ(b.bits, bf16_t(1.0f / 3.0f).bits);
}

}  // namespace
}  // namespace weft
