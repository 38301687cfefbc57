// The value rules of MXNet 1.9.1's NumPy comparisons and predicates, whose
// outputs are bool: _npi_equal/not_equal/greater/greater_equal/less/less_equal
// (broadcasting), their _scalar forms, _npi_logical_not and _npi_isnan/isinf/
// isfinite/isposinf/isneginf. Written once for the CPU kernels (np_compare.cc)
// and the GPU kernels (np_compare.cu).
//
// Note [NumPy comparisons give bool]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// The legacy comparisons (broadcast_equal, _equal_scalar ...) write 0/1 in
// their input dtype; MXNet's NumPy-mode ones write bool, so a graph MXNet wrote
// in NumPy mode (x[x > 0], np.where(x == y, ...)) needs operators of their own.
// As in MXNet 1.9.1 (checked there):
//  * both operands of a binary comparison have one dtype (MXNet refuses
//    int32 == float32 at type inference; weft.np promotes first) and are
//    compared in it, a 16-bit float as float;
//  * the _scalar forms compare with DType(scalar): the scalar is converted to
//    the array's dtype first, so int32 [1, 2, 3] == 2.5 is [F, T, F] and
//    int8 == 258 compares with 2 (the integer conversion wraps) -- unless the
//    node says is_int=False and the array is an integer or bool one: then both
//    are compared as doubles (int32 [2] == 2.5 is False). MXNet's frontend
//    leaves is_int at its default, True;
//  * the predicates take any dtype (an integer is finite, never nan or inf);
//    logical_not(x) is x == 0, so logical_not(nan) is False.
// No gradient flows through a bool (MakeZeroGradNodes in MXNet: zeros).
#pragma once
#include <cstdint>
#include <type_traits>

#include "core/base/dtype.h"
#include "core/base/saturating_cast.h"
#include "core/op/common/hd.h"

namespace weft {
namespace tensor {

enum class CompareKind : int { kEq = 0, kNe = 1, kGt = 2, kGe = 3, kLt = 4, kLe = 5 };
enum class PredicateKind : int { kIsNan = 0, kIsInf = 1, kIsFinite = 2, kIsPosInf = 3, kIsNegInf = 4, kLogicalNot = 5 };

// a <kind> b in T (16-bit floats through their conversion to float).
template <typename T>
WEFT_HD inline bool CompareApply(int kind, T a, T b) {
  switch (kind) {
    case static_cast<int>(CompareKind::kEq): return a == b;
    case static_cast<int>(CompareKind::kNe): return a != b;
    case static_cast<int>(CompareKind::kGt): return a > b;
    case static_cast<int>(CompareKind::kGe): return a >= b;
    case static_cast<int>(CompareKind::kLt): return a < b;
    default: return a <= b;
  }
}

template <typename T>
WEFT_HD inline bool PredicateApply(int kind, T a) {
  const double v = static_cast<double>(a);
  const double kMax = 1.7976931348623157e308;  // DBL_MAX: beyond it only the infinities
  switch (kind) {
    case static_cast<int>(PredicateKind::kIsNan): return v != v;
    case static_cast<int>(PredicateKind::kIsInf): return v > kMax || v < -kMax;
    case static_cast<int>(PredicateKind::kIsFinite): return v == v && v <= kMax && v >= -kMax;
    case static_cast<int>(PredicateKind::kIsPosInf): return v > kMax;
    case static_cast<int>(PredicateKind::kIsNegInf): return v < -kMax;
    default: return v == 0.0;  // logical_not
  }
}

// MXNet's DType(scalar) (Note [NumPy comparisons give bool]): bool is nonzero,
// an integer is the scalar truncated (saturated to int64, then wrapped to T).
template <typename T>
inline T ScalarAsDType(double s) {
  if constexpr (std::is_same<T, bool>::value) {
    return s != 0;
  } else if constexpr (std::is_integral<T>::value) {
    return static_cast<T>(SaturatingToInt64(s));
  } else {
    return static_cast<T>(s);
  }
}

// Whether a _scalar comparison of an array of dtype `dt` compares in double
// (Note [NumPy comparisons give bool]).
inline bool CompareScalarInDouble(DType dt, bool is_int) {
  return !is_int && !IsFloating(dt);
}

}  // namespace tensor
}  // namespace weft
