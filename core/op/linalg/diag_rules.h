// The element maps of _linalg_extractdiag/makediag/extracttrian/maketrian and
// the sum of _linalg_sumlogdiag, shared by their CPU kernels (diag.cc) and
// GPU kernels (linalg_diag.cu).
//
// Note [Packed triangles]
// extracttrian packs the triangle of an n x n matrix that lies on or below
// diagonal `offset` (offset < 0, or 0 with lower=True) or on or above it
// (offset > 0, or 0 with lower=False), m = n - |offset| rows of it, into
// m (m + 1) / 2 entries. The lower triangle is packed row by row; the upper
// one is the lower triangle of the transpose, so it is packed column by
// column (MXNet's order). maketrian is the inverse, zero elsewhere.
#pragma once
#include <cmath>
#include <cstdint>

#include "core/op/common/hd.h"

namespace weft {
namespace linalg {

// Packed index of element (r, c) of an n x n matrix, or -1 outside the triangle.
WEFT_HD inline int64_t TrianIndex(bool lower, int64_t k, int64_t r, int64_t c) {
  if (k > 0 || (k == 0 && !lower)) {
    const int64_t t = r;
    r = c;
    c = t;
  }
  r -= k < 0 ? -k : k;
  return r >= c ? r * (r + 1) / 2 + c : -1;
}

// Element i of the batch of n x n matrices and its packed triangle entry (or -1).
WEFT_HD inline int64_t TrianElement(bool lower, int64_t k, int64_t n, int64_t i) {
  const int64_t m = n - (k < 0 ? -k : k);
  const int64_t b = i / (n * n), e = i % (n * n);
  const int64_t t = TrianIndex(lower, k, e / n, e % n);
  return t < 0 ? -1 : b * (m * (m + 1) / 2) + t;
}

// Entry i of the extracted diagonals (length n - |k| per matrix): its element of the n x n batch.
WEFT_HD inline int64_t DiagElement(int64_t k, int64_t n, int64_t i) {
  const int64_t len = n - (k < 0 ? -k : k);
  const int64_t b = i / len, j = i % len;
  const int64_t r = j + (k < 0 ? -k : 0), c = j + (k > 0 ? k : 0);
  return (b * n + r) * n + c;
}

// Element i of the n x n batch that makediag fills: its diagonal entry, or -1.
WEFT_HD inline int64_t MakeDiagSource(int64_t k, int64_t n, int64_t i) {
  const int64_t len = n - (k < 0 ? -k : k);
  const int64_t b = i / (n * n), e = i % (n * n), r = e / n, c = e % n;
  if (c - r != k) return -1;
  return b * len + (k >= 0 ? r : c);
}

template <typename T>
WEFT_HD inline T SumLogDiag(const T* a, int64_t n) {
  T s = 0;
  for (int64_t j = 0; j < n; ++j) s += std::log(a[j * (n + 1)]);
  return s;
}

}  // namespace linalg
}  // namespace weft
