// The rules of _npi_unique (np.unique), written once for the CPU kernel and
// shape rule (unique.cc) and the GPU kernel (unique.cu).
//
// Note [Unique by one stable sort]
// The array is seen as n slices along the axis (axis None: the flattened
// array, slices of one element). The slice indices are sorted by a stable
// bottom-up merge sort comparing slices lexicographically (NaN after every
// number and equal to NaN, so NaNs collapse into one, as NumPy's default
// equal_nan), then equal neighbours are grouped: a group's first index is the
// first occurrence (the sort is stable), its size the count, and every slice
// of the group maps to it in the inverse. The run is serial (one GPU thread,
// as boolean_mask's prefix count): unique is a data-dependent op whose output
// size the host needs first anyway, and one order on both devices gives the
// same outputs bit for bit. Comparisons are in the storage type (int64
// values beyond 2**53 stay distinct), the 16-bit floats as float.
#pragma once
#include <cstdint>

#include "core/base/shape.h"
#include "core/op/common/half_hd.h"
#include "core/op/common/hd.h"
#include "core/opdef/params.h"

namespace weft {
namespace tensor {

struct UniqueGeom {
  int64_t outer = 1, n = 0, inner = 1;  // n slices of outer * inner elements
};

// -1, 0, 1: a before, equal to, after b (NaN last, NaN == NaN).
template <typename K>
WEFT_HD inline int UniqueCmp(K a, K b) {
  const bool na = !(a == a), nb = !(b == b);
  if (na || nb) return na == nb ? 0 : (na ? 1 : -1);
  return a < b ? -1 : (b < a ? 1 : 0);
}

template <typename T>
WEFT_HD inline int UniqueSliceCmp(const T* x, const UniqueGeom& g, int64_t i, int64_t j) {
  using K = AccT<T>;
  for (int64_t o = 0; o < g.outer; ++o) {
    const T* a = x + (o * g.n + i) * g.inner;
    const T* b = x + (o * g.n + j) * g.inner;
    for (int64_t k = 0; k < g.inner; ++k) {
      const int c = UniqueCmp(static_cast<K>(a[k]), static_cast<K>(b[k]));
      if (c != 0) return c;
    }
  }
  return 0;
}

// order[0, n) = the slice indices in stable sorted order (tmp: n entries).
template <typename T>
WEFT_HD inline void UniqueSort(const T* x, const UniqueGeom& g, int64_t* order, int64_t* tmp) {
  for (int64_t i = 0; i < g.n; ++i) order[i] = i;
  for (int64_t width = 1; width < g.n; width *= 2) {
    for (int64_t lo = 0; lo < g.n; lo += 2 * width) {
      const int64_t mid = lo + width < g.n ? lo + width : g.n;
      const int64_t hi = lo + 2 * width < g.n ? lo + 2 * width : g.n;
      int64_t i = lo, j = mid, k = lo;
      while (i < mid && j < hi) tmp[k++] = UniqueSliceCmp(x, g, order[j], order[i]) < 0 ? order[j++] : order[i++];
      while (i < mid) tmp[k++] = order[i++];
      while (j < hi) tmp[k++] = order[j++];
    }
    for (int64_t i = 0; i < g.n; ++i) order[i] = tmp[i];
  }
}

// The number of distinct slices, from the sorted order.
template <typename T>
WEFT_HD inline int64_t UniqueCount(const T* x, const UniqueGeom& g, const int64_t* order) {
  int64_t u = 0;
  for (int64_t p = 0; p < g.n; ++p) u += (p == 0 || UniqueSliceCmp(x, g, order[p - 1], order[p]) != 0);
  return u;
}

// The outputs from the sorted order: vals (outer, u, inner) the distinct
// slices; index/inverse/counts (int64) where not null.
template <typename T>
WEFT_HD inline void UniqueWrite(const T* x, const UniqueGeom& g, const int64_t* order, int64_t u, T* vals,
                                int64_t* index, int64_t* inverse, int64_t* counts) {
  int64_t gi = -1;
  for (int64_t p = 0; p < g.n; ++p) {
    const int64_t s = order[p];
    if (p == 0 || UniqueSliceCmp(x, g, order[p - 1], s) != 0) {
      ++gi;
      if (vals) {
        for (int64_t o = 0; o < g.outer; ++o) {
          for (int64_t k = 0; k < g.inner; ++k) vals[(o * u + gi) * g.inner + k] = x[(o * g.n + s) * g.inner + k];
        }
      }
      if (index) index[gi] = s;
      if (counts) counts[gi] = 0;
    }
    if (counts) ++counts[gi];
    if (inverse) inverse[s] = gi;
  }
}

// The slices _npi_unique (np.unique) compares, from its axis parameter:
// shared by the declaration, the CPU kernel and the GPU kernel.
// axis None: the flattened array's elements; else the slices along the axis
// (kInvalidArgument naming the op for an axis out of range or a 0-d input).
UniqueGeom UniqueGeomOf(const Params& p, const Shape& s);

}  // namespace tensor
}  // namespace weft
