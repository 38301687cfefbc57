// The value rules of MXNet 1.9.1's NumPy binary functions that no legacy
// operator computes: _npi_arctan2, _npi_copysign, _npi_ldexp, _npi_lcm, their
// _scalar forms and the reversed _rarctan2/_rcopysign/_rldexp_scalar ones,
// written once for the CPU kernels (np_binary_math.cc) and the GPU kernels
// (np_binary_math.cu).
//
// Note [NumPy binary math as MXNet computes it]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// MXNet's kernels (mshadow_op.h), checked in MXNet 1.9.1, differ from NumPy's
// in ways a graph's values show, and Weft follows MXNet:
//  * copysign(a, b) is `(a >= 0 && b >= 0) || (a < 0 && b < 0) ? a : -a`, so
//    the sign of -0.0 is +, and a NaN b flips a: copysign(1, -0.0) = 1,
//    copysign(1, nan) = -1. It keeps integer dtypes (NumPy gives float).
//  * ldexp(a, b) is a * 2**b in the operands' dtype: for integers computed in
//    float and truncated (ldexp(int32 3, -1) = 1).
//  * arctan2 of two arrays takes floats only; its _scalar forms take integers
//    too and truncate (arctan2_scalar(int32 1, 2) = 0).
//  * lcm takes int8, uint8, int32 and int64 only; lcm(a, 0) = 0, the result
//    is non-negative (|a| / gcd * |b|, wrapping where it overflows).
//  * a _scalar form converts the scalar to the array's dtype first
//    (DType(scalar)), except when the node says is_int=False and the array is
//    an integer one: then the result is float64, computed in double. MXNet's
//    frontend leaves is_int at its default, True. lcm with is_int=False (which
//    crashes MXNet 1.9.1) is refused.
// 16-bit floats compute in float, as everywhere (Note [16-bit floats on GPU]).
// The gradients are the derivatives, which are MXNet's except for one bug of
// MXNet 1.9.1 (checked there): its _rarctan2_scalar gradient is -x/(x^2+s^2),
// where d atan2(s, x)/dx is -s/(x^2+s^2).
#pragma once
#include <cmath>
#include <cstdint>
#include <type_traits>

#include "core/op/common/hd.h"
#include "core/op/elemwise/elemwise_rules.h"

namespace weft {
namespace tensor {

enum class NpMathKind : int { kArctan2 = 0, kCopysign = 1, kLdexp = 2, kLcm = 3 };

// The type a storage type T computes in: itself for integers and double, float
// for float32 and the 16-bit floats.
template <typename T>
using NpMathCompute = typename std::conditional<std::is_integral<T>::value || std::is_same<T, double>::value, T,
                                                float>::type;

template <typename C>
WEFT_HD inline C NpMathApply(int kind, C a, C b) {
  constexpr bool kInt = std::is_integral<C>::value;
  if (kind == static_cast<int>(NpMathKind::kArctan2)) {
    if constexpr (kInt) return elemwise_rules::FloatToInt<C>(std::atan2(static_cast<float>(a), static_cast<float>(b)));
    else return std::atan2(a, b);
  }
  if (kind == static_cast<int>(NpMathKind::kCopysign)) {
    if constexpr (std::is_unsigned<C>::value) {
      return a;  // both signs +
    } else {
      const bool same = (a >= C(0) && b >= C(0)) || (a < C(0) && b < C(0));
      if (same) return a;
      if constexpr (kInt) return elemwise_rules::WrapNeg(a);
      else return -a;
    }
  }
  if (kind == static_cast<int>(NpMathKind::kLdexp)) {
    if constexpr (kInt) {
      return elemwise_rules::FloatToInt<C>(static_cast<float>(a) * std::pow(2.0f, static_cast<float>(b)));
    } else {
      return a * std::pow(C(2), b);
    }
  }
  // lcm (integers only; the type check refuses the rest)
  if constexpr (kInt) {
    using U = typename std::make_unsigned<C>::type;
    U x = static_cast<U>(a), y = static_cast<U>(b);
    if constexpr (std::is_signed<C>::value) {
      if (a < C(0)) x = static_cast<U>(U(0) - x);
      if (b < C(0)) y = static_cast<U>(U(0) - y);
    }
    if (x == 0 || y == 0) return C(0);
    U p = x, q = y;
    while (q != 0) {
      const U t = static_cast<U>(p % q);
      p = q;
      q = t;
    }
    return static_cast<C>(static_cast<U>(x / p * y));
  } else {
    return C(0);
  }
}

}  // namespace tensor
}  // namespace weft
