// The value rules of MXNet 1.9.1's NumPy bit ops (_npi_bitwise_and/or/xor,
// their _scalar forms and _npi_bitwise_not), written once for the CPU kernels
// (bitwise.cc) and the GPU kernels (bitwise.cu).
//
// Note [Bit ops on integers and bools]
// The bit ops are defined on the integer dtypes and bool only (NumPy raises
// TypeError for floats, MXNet's kernels are instantiated for integers and bool
// only), computed in the dtype itself: int8 & int8 is int8, so nothing widens
// and nothing wraps. On bool they are the logical ops (NumPy's), and ~ is
// `not`, not the two's complement a bool promoted to int would give.
#pragma once
#include <cstdint>
#include <type_traits>

#include "core/base/error.h"
#include "core/op/common/hd.h"

namespace weft {
namespace tensor {

enum class BitwiseKind : int { kAnd = 0, kOr = 1, kXor = 2 };

template <typename T>
WEFT_HD inline T BitwiseApply(int kind, T a, T b) {
  if (kind == static_cast<int>(BitwiseKind::kAnd)) return static_cast<T>(a & b);
  if (kind == static_cast<int>(BitwiseKind::kOr)) return static_cast<T>(a | b);
  return static_cast<T>(a ^ b);
}

template <typename T>
WEFT_HD inline T BitwiseNot(T a) {
  if constexpr (std::is_same<T, bool>::value) {
    return !a;
  } else {
    return static_cast<T>(~a);
  }
}

}  // namespace tensor
}  // namespace weft

// The dtypes of the bit ops (host code of both kernels): T is each integer
// type and bool; any other dtype is a kDType error naming op.
#define WEFT_BITWISE_SWITCH(dt, op, T, ...)                                                   \
  switch (dt) {                                                                               \
    case ::weft::DType::kUint8: { using T = uint8_t; __VA_ARGS__ break; }                      \
    case ::weft::DType::kInt8: { using T = int8_t; __VA_ARGS__ break; }                        \
    case ::weft::DType::kInt32: { using T = int32_t; __VA_ARGS__ break; }                      \
    case ::weft::DType::kInt64: { using T = int64_t; __VA_ARGS__ break; }                      \
    case ::weft::DType::kBool: { using T = bool; __VA_ARGS__ break; }                          \
    default:                                                                                  \
      WEFT_THROW(kDType) << op << ": not supported for the input type " << ::weft::DTypeName(dt) \
                         << "; the bit ops take integers or bools";                           \
  }
