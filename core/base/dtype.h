// Element types. One X-macro list generates names, sizes and flags; the flag
// values are MXNet's (FORMATS.md A.6) so files and the C ABI share them.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

#include "core/base/error.h"

namespace weft {

// X(Enum, name, flag, bytes)
#define WEFT_DTYPE_LIST(X)        \
  X(kFloat32, "float32", 0, 4)    \
  X(kFloat64, "float64", 1, 8)    \
  X(kFloat16, "float16", 2, 2)    \
  X(kUint8, "uint8", 3, 1)        \
  X(kInt32, "int32", 4, 4)        \
  X(kInt8, "int8", 5, 1)          \
  X(kInt64, "int64", 6, 8)        \
  X(kBool, "bool", 7, 1)          \
  X(kBFloat16, "bfloat16", 12, 2)

enum class DType : int32_t {
  kUnknown = -1,  // only during type inference
#define WEFT_X(e, n, f, b) e = f,
  WEFT_DTYPE_LIST(WEFT_X)
#undef WEFT_X
};

inline bool IsValidDTypeFlag(int flag) {
#define WEFT_X(e, n, f, b) \
  if (flag == f) return true;
  WEFT_DTYPE_LIST(WEFT_X)
#undef WEFT_X
  return false;
}

inline size_t DTypeSize(DType t) {
  switch (t) {
#define WEFT_X(e, n, f, b) \
  case DType::e:           \
    return b;
    WEFT_DTYPE_LIST(WEFT_X)
#undef WEFT_X
    case DType::kUnknown:
      break;
  }
  return 0;
}

inline const char* DTypeName(DType t) {
  switch (t) {
#define WEFT_X(e, n, f, b) \
  case DType::e:           \
    return n;
    WEFT_DTYPE_LIST(WEFT_X)
#undef WEFT_X
    case DType::kUnknown:
      break;
  }
  return "unknown";
}

// Accepts a name ("float32") or a decimal flag ("0"); throws kDType otherwise.
DType ParseDType(const std::string& s);
inline DType DTypeFromFlag(int flag) {
  WEFT_CHECK(IsValidDTypeFlag(flag), kDType) << "unknown dtype flag " << flag;
  return static_cast<DType>(flag);
}

inline bool IsFloating(DType t) {
  return t == DType::kFloat32 || t == DType::kFloat64 || t == DType::kFloat16 ||
         t == DType::kBFloat16;
}

// 16-bit floats are stored as bits and computed in float; kernels convert at
// load/store so no compiler extension (_Float16) is needed (aarch64 builds too).
struct half_t {
  uint16_t bits;
  half_t() = default;
  half_t(float f) : bits(FromFloat(f)) {}  // NOLINT: implicit like a float
  operator float() const { return ToFloat(bits); }
  static uint16_t FromFloat(float f);
  static float ToFloat(uint16_t h);
};

struct bf16_t {
  uint16_t bits;
  bf16_t() = default;
  bf16_t(float f) : bits(FromFloat(f)) {}  // NOLINT
  operator float() const {
    uint32_t u = static_cast<uint32_t>(bits) << 16;
    float f;
    std::memcpy(&f, &u, 4);
    return f;
  }
  static uint16_t FromFloat(float f) {
    uint32_t u;
    std::memcpy(&u, &f, 4);
    if ((u & 0x7fffffffu) > 0x7f800000u) return static_cast<uint16_t>((u >> 16) | 0x40);  // NaN
    u += 0x7fffu + ((u >> 16) & 1u);  // round to nearest even
    return static_cast<uint16_t>(u >> 16);
  }
};

}  // namespace weft

// Runs BODY with DType-typed alias T for the runtime dtype `dt`.
#define WEFT_DTYPE_SWITCH(dt, T, ...)                                   \
  switch (dt) {                                                         \
    case ::weft::DType::kFloat32: { using T = float; __VA_ARGS__ break; }        \
    case ::weft::DType::kFloat64: { using T = double; __VA_ARGS__ break; }       \
    case ::weft::DType::kFloat16: { using T = ::weft::half_t; __VA_ARGS__ break; } \
    case ::weft::DType::kBFloat16: { using T = ::weft::bf16_t; __VA_ARGS__ break; } \
    case ::weft::DType::kUint8: { using T = uint8_t; __VA_ARGS__ break; }        \
    case ::weft::DType::kInt8: { using T = int8_t; __VA_ARGS__ break; }          \
    case ::weft::DType::kInt32: { using T = int32_t; __VA_ARGS__ break; }        \
    case ::weft::DType::kInt64: { using T = int64_t; __VA_ARGS__ break; }        \
    case ::weft::DType::kBool: { using T = bool; __VA_ARGS__ break; }            \
    default: WEFT_THROW(kDType) << "unsupported dtype " << static_cast<int>(dt); \
  }
