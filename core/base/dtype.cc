#include "core/base/dtype.h"

#include <cstdlib>

namespace weft {

DType ParseDType(const std::string& s) {
#define WEFT_X(e, n, f, b) \
  if (s == n) return DType::e;
  WEFT_DTYPE_LIST(WEFT_X)
#undef WEFT_X
  if (s == "float") return DType::kFloat32;
  if (s == "double") return DType::kFloat64;
  if (s == "half") return DType::kFloat16;
  char* end = nullptr;
  long v = std::strtol(s.c_str(), &end, 10);
  if (!s.empty() && end && *end == '\0' && IsValidDTypeFlag(static_cast<int>(v)))
    return static_cast<DType>(v);
  WEFT_THROW(kDType) << "unknown dtype '" << s
                     << "' (expected one of float32, float64, float16, bfloat16, uint8, int8, "
                        "int32, int64, bool)";
}

// IEEE binary16 conversion, round to nearest even, with subnormals, inf, NaN.
uint16_t half_t::FromFloat(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  uint32_t sign = (x >> 16) & 0x8000u;
  uint32_t absx = x & 0x7fffffffu;
  if (absx >= 0x7f800000u) {  // inf or NaN
    return static_cast<uint16_t>(sign | 0x7c00u | (absx > 0x7f800000u ? 0x200u : 0u));
  }
  if (absx >= 0x477ff000u) return static_cast<uint16_t>(sign | 0x7c00u);  // overflow -> inf
  if (absx < 0x38800000u) {  // subnormal or zero in half
    if (absx < 0x33000000u) return static_cast<uint16_t>(sign);
    uint32_t mant = (absx & 0x7fffffu) | 0x800000u;
    int shift = 126 - static_cast<int>(absx >> 23);  // 14..24
    uint32_t r = mant >> shift;
    uint32_t rem = mant & ((1u << shift) - 1);
    uint32_t halfway = 1u << (shift - 1);
    if (rem > halfway || (rem == halfway && (r & 1u))) r++;
    return static_cast<uint16_t>(sign | r);
  }
  uint32_t e = (absx >> 23) - 112;  // rebias 127 -> 15
  uint32_t mant = absx & 0x7fffffu;
  uint32_t h = (e << 10) | (mant >> 13);
  uint32_t rem = mant & 0x1fffu;
  if (rem > 0x1000u || (rem == 0x1000u && (h & 1u))) h++;
  return static_cast<uint16_t>(sign | h);
}

float half_t::ToFloat(uint16_t h) {
  uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  uint32_t e = (h >> 10) & 0x1fu;
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
  float f;
  std::memcpy(&f, &out, 4);
  return f;
}

}  // namespace weft
