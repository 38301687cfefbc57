// The value and gradient rules of _npi_polyval (np.polyval), written once for
// the CPU kernel (polyval.cc) and the GPU kernel (polyval.cu).
//
// Note [Polyval as NumPy evaluates it]
// NumPy evaluates p[0] x^(n-1) + ... + p[n-1] by Horner's scheme from zero,
// y = y * x + p[k] for every k, each product and sum rounded to the dtype
// (integers wrap). Starting from zero rather than p[0] matters: 0 * inf is
// nan, so a polynomial at an infinite x is nan as in NumPy. The gradient with
// respect to x runs the derivative alongside (d = d * x + y) in the
// accumulator type; the one with respect to p[k] is sum_i og[i] x_i^(n-1-k),
// one coefficient per thread, the power by squaring.
#pragma once
#include <cstdint>

#include "core/op/common/hd.h"
#include "core/op/common/req_hd.h"

namespace weft {
namespace tensor {

// The type one step is computed in: unsigned for the integers (they wrap),
// float for the 16-bit floats (rounded back after each operation).
template <typename T>
struct PolyArithOf {
  using type = float;
};
template <> struct PolyArithOf<double> { using type = double; };
template <> struct PolyArithOf<uint8_t> { using type = uint32_t; };
template <> struct PolyArithOf<int8_t> { using type = uint32_t; };
template <> struct PolyArithOf<int32_t> { using type = uint32_t; };
template <> struct PolyArithOf<int64_t> { using type = uint64_t; };

template <typename T>
WEFT_HD inline T PolyvalAt(const T* p, int64_t n, T x) {
  using A = typename PolyArithOf<T>::type;
  T y = static_cast<T>(A(0));
  for (int64_t k = 0; k < n; ++k) {
    const T yx = static_cast<T>(static_cast<A>(y) * static_cast<A>(x));
    y = static_cast<T>(static_cast<A>(yx) + static_cast<A>(p[k]));
  }
  return y;
}

// dy/dx at x (floating T), in A.
template <typename T, typename A>
WEFT_HD inline A PolyvalSlope(const T* p, int64_t n, A x) {
  A y(0), d(0);
  for (int64_t k = 0; k < n; ++k) {
    d = d * x + y;
    y = y * x + static_cast<A>(p[k]);
  }
  return d;
}

// x^e for e >= 0 by squaring.
template <typename A>
WEFT_HD inline A PolyPow(A x, int64_t e) {
  A r(1);
  while (e > 0) {
    if (e & 1) r *= x;
    x *= x;
    e >>= 1;
  }
  return r;
}

// grad_p[k] (req)= sum_i og[i] x_i^(n-1-k) over the m elements of x.
template <typename T, typename A>
WEFT_HD inline void PolyvalCoefGrad(int64_t k, int64_t n, const T* og, const T* x, int64_t m, OpReq req, T* gp) {
  A s(0);
  for (int64_t i = 0; i < m; ++i) s += static_cast<A>(og[i]) * PolyPow(static_cast<A>(x[i]), n - 1 - k);
  nnm::Put(gp, k, req, s);
}

}  // namespace tensor
}  // namespace weft
