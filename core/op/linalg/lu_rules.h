// The LU factorization that _linalg_det and _linalg_slogdet keep as hidden
// outputs (MXNet 1.9.1's LU and pivot), and the inverse-transpose their
// backward ops compute from it instead of factorizing A again. One layout on
// CPU and GPU: LU is row-major with P A = L U, L unit lower (below the
// diagonal), U upper (on and above it); pivot[k] (1-based, LAPACK's ipiv) is the
// row swapped with row k at step k. The pivot is the first entry of largest
// magnitude in the column, as LAPACK's getrf chooses it.
#pragma once

#include <cmath>
#include <cstdint>

#include "core/op/common/hd.h"

namespace weft {
namespace linalg {

// LU with partial pivoting of w (n x n, row-major) in place; ipiv (n entries,
// may be null) gets the pivots. Returns the permutation's sign.
WEFT_HD inline double LuInPlace(double* w, int64_t n, int32_t* ipiv) {
  double sign = 1;
  for (int64_t k = 0; k < n; ++k) {
    int64_t piv = k;
    for (int64_t i = k + 1; i < n; ++i)
      if (std::fabs(w[i * n + k]) > std::fabs(w[piv * n + k])) piv = i;
    if (ipiv != nullptr) ipiv[k] = static_cast<int32_t>(piv + 1);
    if (piv != k) {
      sign = -sign;
      for (int64_t c = 0; c < n; ++c) {
        const double t = w[k * n + c];
        w[k * n + c] = w[piv * n + c];
        w[piv * n + c] = t;
      }
    }
    const double d = w[k * n + k];
    if (d == 0) continue;
    for (int64_t i = k + 1; i < n; ++i) {
      const double f = w[i * n + k] / d;
      w[i * n + k] = f;
      for (int64_t c = k + 1; c < n; ++c) w[i * n + c] -= f * w[k * n + c];
    }
  }
  return sign;
}

// Index of the first pivot getrf could not have written (ipiv[k] outside
// k+1..n, 1-based), or -1 when all are valid. The backward ops take the pivot
// as an input, so a caller can hand in anything; an out-of-range entry would
// swap rows outside the matrix.
WEFT_HD inline int64_t FirstInvalidPivot(const int32_t* ipiv, int64_t n) {
  for (int64_t k = 0; k < n; ++k)
    if (ipiv[k] < k + 1 || ipiv[k] > n) return k;
  return -1;
}

// x (n x n scratch) := A^-1 from A's LU and pivots (solves L U X = P I), then
// out[r][c] = scale * A^-T[r][c] = scale * x[c][r]. A zero on U's diagonal
// (singular A) gives inf/NaN; invalid pivots give all NaN (the GPU cannot
// raise); the CPU caller checks for both first.
template <typename T>
WEFT_HD inline void ScaledInverseTransposeFromLu(const T* lu, const int32_t* ipiv, int64_t n, double scale,
                                                 double* x, T* out) {
  if (FirstInvalidPivot(ipiv, n) >= 0) {
    for (int64_t i = 0; i < n * n; ++i) out[i] = static_cast<T>(NAN);
    return;
  }
  for (int64_t i = 0; i < n * n; ++i) x[i] = (i / n == i % n) ? 1.0 : 0.0;
  for (int64_t k = 0; k < n; ++k) {  // P I: the row interchanges in order
    const int64_t p = static_cast<int64_t>(ipiv[k]) - 1;
    if (p == k) continue;
    for (int64_t c = 0; c < n; ++c) {
      const double t = x[k * n + c];
      x[k * n + c] = x[p * n + c];
      x[p * n + c] = t;
    }
  }
  for (int64_t i = 1; i < n; ++i)  // L (unit diagonal), forward
    for (int64_t k = 0; k < i; ++k) {
      const double l = static_cast<double>(lu[i * n + k]);
      if (l == 0) continue;
      for (int64_t c = 0; c < n; ++c) x[i * n + c] -= l * x[k * n + c];
    }
  for (int64_t i = n - 1; i >= 0; --i) {  // U, backward
    for (int64_t k = i + 1; k < n; ++k) {
      const double u = static_cast<double>(lu[i * n + k]);
      if (u == 0) continue;
      for (int64_t c = 0; c < n; ++c) x[i * n + c] -= u * x[k * n + c];
    }
    const double d = 1.0 / static_cast<double>(lu[i * n + i]);
    for (int64_t c = 0; c < n; ++c) x[i * n + c] *= d;
  }
  for (int64_t r = 0; r < n; ++r)
    for (int64_t c = 0; c < n; ++c) out[r * n + c] = static_cast<T>(scale * x[c * n + r]);
}

}  // namespace linalg
}  // namespace weft
