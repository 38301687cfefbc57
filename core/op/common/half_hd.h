// Device-callable 16-bit floats for the GPU kernels: gpu_half (IEEE binary16)
// and gpu_bf16 (bfloat16), layout-identical to the CPU's half_t / bf16_t
// (core/base/dtype.h: one uint16_t of bits), with WEFT_HD conversions.
//
// Note [16-bit floats on GPU]
// A 16-bit value is storage only: it converts to float at load and back at
// store (round to nearest even; NaN, Inf and subnormals as the CPU's
// half_t::FromFloat / ToFloat and bf16_t::FromFloat, bit for bit -- the
// conversions below are the same bit arithmetic, so a GPU kernel and its CPU
// twin store the same bits; tests/gpu/test_elemwise_gpu.py checks every
// 16-bit pattern and every rounding boundary through Cast). Arithmetic on a gpu_half is float arithmetic through the
// implicit conversions, as for half_t on the CPU, so a kernel body written
// for float compiles for it unchanged. A kernel that accumulates (sums,
// softmax, norms, statistics) keeps its accumulator in AccT<T> -- float for
// the 16-bit types, T otherwise -- as MXNet's and the CPU's kernels do.
#pragma once
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "core/base/dtype.h"
#include "core/op/common/hd.h"

namespace weft {
namespace hd16 {

WEFT_HD inline uint32_t FloatBits(float f) {
#if defined(__CUDA_ARCH__)
  return __float_as_uint(f);
#else
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
#endif
}

WEFT_HD inline float BitsFloat(uint32_t u) {
#if defined(__CUDA_ARCH__)
  return __uint_as_float(u);
#else
  float f;
  std::memcpy(&f, &u, 4);
  return f;
#endif
}

// half_t::FromFloat (core/base/dtype.cc).
WEFT_HD inline uint16_t HalfFromFloat(float f) {
  const uint32_t x = FloatBits(f);
  const uint32_t sign = (x >> 16) & 0x8000u;
  const uint32_t absx = x & 0x7fffffffu;
  if (absx >= 0x7f800000u) {  // inf or NaN
    return static_cast<uint16_t>(sign | 0x7c00u | (absx > 0x7f800000u ? 0x200u : 0u));
  }
  if (absx >= 0x477ff000u) return static_cast<uint16_t>(sign | 0x7c00u);  // overflow -> inf
  if (absx < 0x38800000u) {  // subnormal or zero in half
    if (absx < 0x33000000u) return static_cast<uint16_t>(sign);
    const uint32_t mant = (absx & 0x7fffffu) | 0x800000u;
    const int shift = 126 - static_cast<int>(absx >> 23);  // 14..24
    uint32_t r = mant >> shift;
    const uint32_t rem = mant & ((1u << shift) - 1);
    const uint32_t halfway = 1u << (shift - 1);
    if (rem > halfway || (rem == halfway && (r & 1u))) r++;
    return static_cast<uint16_t>(sign | r);
  }
  const uint32_t e = (absx >> 23) - 112;  // rebias 127 -> 15
  const uint32_t mant = absx & 0x7fffffu;
  uint32_t h = (e << 10) | (mant >> 13);
  const uint32_t rem = mant & 0x1fffu;
  if (rem > 0x1000u || (rem == 0x1000u && (h & 1u))) h++;
  return static_cast<uint16_t>(sign | h);
}

// half_t::ToFloat (core/base/dtype.cc).
WEFT_HD inline float HalfToFloat(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  const uint32_t e = (h >> 10) & 0x1fu;
  uint32_t m = h & 0x3ffu;
  uint32_t out;
  if (e == 0) {
    if (m == 0) {
      out = sign;
    } else {  // subnormal: normalise
      int shift = 0;
      while (!(m & 0x400u)) {
        m <<= 1;
        shift++;
      }
      m &= 0x3ffu;
      out = sign | (static_cast<uint32_t>(113 - shift) << 23) | (m << 13);
    }
  } else if (e == 31) {
    out = sign | 0x7f800000u | (m << 13);
  } else {
    out = sign | ((e + 112) << 23) | (m << 13);
  }
  return BitsFloat(out);
}

// bf16_t::FromFloat (core/base/dtype.h).
WEFT_HD inline uint16_t Bf16FromFloat(float f) {
  uint32_t u = FloatBits(f);
  if ((u & 0x7fffffffu) > 0x7f800000u) return static_cast<uint16_t>((u >> 16) | 0x40);  // NaN
  u += 0x7fffu + ((u >> 16) & 1u);  // round to nearest even
  return static_cast<uint16_t>(u >> 16);
}

WEFT_HD inline float Bf16ToFloat(uint16_t b) { return BitsFloat(static_cast<uint32_t>(b) << 16); }

struct BitsTag {};

}  // namespace hd16

// The two types share one shape: bits, conversions, compound assignment in float.
#define WEFT_HD16_TYPE(Name, From, To)                                                          \
  struct Name {                                                                                 \
    uint16_t bits;                                                                              \
    Name() = default;                                                                           \
    WEFT_HD Name(float f) : bits(hd16::From(f)) {} /* NOLINT: implicit like a float */          \
    WEFT_HD constexpr Name(uint16_t b, hd16::BitsTag) : bits(b) {}                              \
    WEFT_HD operator float() const { return hd16::To(bits); }                                   \
    WEFT_HD static constexpr Name FromBits(uint16_t b) { return Name(b, hd16::BitsTag{}); }     \
    WEFT_HD Name& operator+=(float v) { return *this = Name(static_cast<float>(*this) + v); }   \
    WEFT_HD Name& operator-=(float v) { return *this = Name(static_cast<float>(*this) - v); }   \
    WEFT_HD Name& operator*=(float v) { return *this = Name(static_cast<float>(*this) * v); }   \
    WEFT_HD Name& operator/=(float v) { return *this = Name(static_cast<float>(*this) / v); }   \
  };

WEFT_HD16_TYPE(gpu_half, HalfFromFloat, HalfToFloat)
WEFT_HD16_TYPE(gpu_bf16, Bf16FromFloat, Bf16ToFloat)
#undef WEFT_HD16_TYPE

static_assert(sizeof(gpu_half) == sizeof(half_t) && alignof(gpu_half) == alignof(half_t), "gpu_half is half_t's bits");
static_assert(sizeof(gpu_bf16) == sizeof(bf16_t) && alignof(gpu_bf16) == alignof(bf16_t), "gpu_bf16 is bf16_t's bits");
static_assert(std::is_trivially_copyable<gpu_half>::value && std::is_standard_layout<gpu_half>::value, "");
static_assert(std::is_trivially_copyable<gpu_bf16>::value && std::is_standard_layout<gpu_bf16>::value, "");

// Whether T is a floating storage type (the built-in ones and the 16-bit ones).
template <typename T>
struct IsFloatStorage
    : std::integral_constant<bool, std::is_floating_point<T>::value || std::is_same<T, gpu_half>::value ||
                                       std::is_same<T, gpu_bf16>::value || std::is_same<T, half_t>::value ||
                                       std::is_same<T, bf16_t>::value> {};

// Whether T is one of the 16-bit float storage types.
template <typename T>
struct Is16BitFloat
    : std::integral_constant<bool, std::is_same<T, gpu_half>::value || std::is_same<T, gpu_bf16>::value ||
                                       std::is_same<T, half_t>::value || std::is_same<T, bf16_t>::value> {};

// The accumulator type of storage type T: float for the 16-bit floats, T itself otherwise.
template <typename T>
struct AccTOf {
  using type = T;
};
template <> struct AccTOf<gpu_half> { using type = float; };
template <> struct AccTOf<gpu_bf16> { using type = float; };
template <> struct AccTOf<half_t> { using type = float; };
template <> struct AccTOf<bf16_t> { using type = float; };
template <typename T>
using AccT = typename AccTOf<T>::type;

}  // namespace weft

// Limits of the 16-bit types (what a kernel's -inf / lowest() initial value needs).
namespace std {
#define WEFT_HD16_LIMITS(Name, kMax, kMin, kEps, kInf, kNaN, kDigits, kMinExp, kMaxExp)                 \
  template <>                                                                                     \
  class numeric_limits<::weft::Name> {                                                            \
   public:                                                                                        \
    static constexpr bool is_specialized = true;                                                  \
    static constexpr bool is_signed = true;                                                       \
    static constexpr bool is_integer = false;                                                     \
    static constexpr bool is_exact = false;                                                       \
    static constexpr bool has_infinity = true;                                                    \
    static constexpr bool has_quiet_NaN = true;                                                   \
    static constexpr int digits = kDigits;                                                        \
    static constexpr int min_exponent = kMinExp;                                                  \
    static constexpr int max_exponent = kMaxExp;                                                  \
    WEFT_HD static constexpr ::weft::Name min() { return ::weft::Name::FromBits(kMin); }          \
    WEFT_HD static constexpr ::weft::Name max() { return ::weft::Name::FromBits(kMax); }          \
    WEFT_HD static constexpr ::weft::Name lowest() { return ::weft::Name::FromBits(0x8000 | kMax); } \
    WEFT_HD static constexpr ::weft::Name epsilon() { return ::weft::Name::FromBits(kEps); }      \
    WEFT_HD static constexpr ::weft::Name infinity() { return ::weft::Name::FromBits(kInf); }     \
    WEFT_HD static constexpr ::weft::Name quiet_NaN() { return ::weft::Name::FromBits(kNaN); }    \
  };
// float16: max 65504 (0x7bff), min normal 2^-14 (0x0400), epsilon 2^-10 (0x1400), inf, quiet NaN.
WEFT_HD16_LIMITS(gpu_half, 0x7bff, 0x0400, 0x1400, 0x7c00, 0x7e00, 11, -13, 16)
// bfloat16: float's exponent range with 8 significant bits; epsilon 2^-7 (0x3c00).
WEFT_HD16_LIMITS(gpu_bf16, 0x7f7f, 0x0080, 0x3c00, 0x7f80, 0x7fc0, 8, -125, 128)
#undef WEFT_HD16_LIMITS
}  // namespace std
