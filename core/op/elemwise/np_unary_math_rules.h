// The value rules of MXNet 1.9.1's _npi_around and _npi_nan_to_num, written
// once for the CPU kernels (np_unary_math.cc) and the GPU kernels
// (np_unary_math.cu).
//
// Note [Around as MXNet rounds]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// MXNet's around_forward scales by ten `decimals` times in the array's own
// dtype (float32 stays float32: around(2.675f, 2) is 2.6799998, checked in
// MXNet 1.9.1), rounds half to even, and scales back step by step, stopping
// at zero; an integer array with decimals < 0 divides with truncation
// (around(int32 15, -1) = 10, around(-15, -1) = -10) and one with decimals >= 0
// is copied. The loops here stop early once the value is 0, an infinity or
// NaN, which no later step changes: the result is MXNet's, and a decimals
// attribute of 2**62 runs at most a few hundred steps instead of hanging.
//
// nan_to_num (NumPy's, as MXNet): NaN -> `nan`, +inf -> `posinf` (default the
// dtype's largest value), -inf -> `neginf` (default its lowest), the others
// unchanged; integer and bool arrays are copied. The replacements are
// converted to the array's dtype on the host.
#pragma once
#include <cmath>
#include <cstdint>
#include <type_traits>

#include "core/base/dtype.h"
#include "core/op/common/hd.h"

namespace weft {
namespace tensor {

template <typename T>
WEFT_HD inline bool AroundStops(T v) {
  const double x = static_cast<double>(v);
  return x == 0.0 || x != x || x - x != 0.0;  // zero, NaN or an infinity
}

// around(x, decimals) for a floating T (16-bit floats round to T each step).
template <typename T>
WEFT_HD inline T AroundFloat(T x, int64_t decimals) {
  int64_t d = 0;
  T temp = x;
  while (d != decimals && !AroundStops(temp)) {
    if (decimals > 0) {
      ++d;
      temp = static_cast<T>(temp * T(10));
    } else {
      --d;
      temp = static_cast<T>(temp / T(10));
    }
  }
  T r = static_cast<T>(std::round(static_cast<double>(temp)));
  // C's round sends halves away from zero; NumPy's to even
  const double odd = std::fmod(static_cast<double>(r), 2.0);
  if (static_cast<double>(r - temp) == 0.5 && odd != 0.0) {
    r = static_cast<T>(r - T(1));
  } else if (static_cast<double>(temp - r) == 0.5 && odd != 0.0) {
    r = static_cast<T>(r + T(1));
  }
  while (d != 0 && !AroundStops(r)) {
    if (decimals > 0) {
      --d;
      r = static_cast<T>(r / T(10));
    } else {
      ++d;
      r = static_cast<T>(r * T(10));
    }
  }
  return r;
}

// around(x, decimals < 0) for an integer T: truncating division, then back.
template <typename T>
WEFT_HD inline T AroundInt(T x, int64_t decimals) {
  int64_t d = 0;
  T temp = x;
  while (d != decimals && temp != T(0)) {
    --d;
    temp = static_cast<T>(temp / T(10));
  }
  while (d != 0 && temp != T(0)) {
    ++d;
    temp = static_cast<T>(temp * T(10));
  }
  return temp;
}

// nan_to_num's default replacement of +inf (lowest: of -inf) for a floating
// dtype, as a double (defined in np_unary_math.cc, host code of both kernels).
double NanToNumLimit(DType t, bool lowest);

template <typename T>
WEFT_HD inline T NanToNum(T x, T nan, T posinf, T neginf) {
  const double v = static_cast<double>(x);
  if (v != v) return nan;
  if (v - v != 0.0) return v > 0 ? posinf : neginf;
  return x;
}

}  // namespace tensor
}  // namespace weft
