// The sums of _contrib_count_sketch shared by its CPU kernel
// (count_sketch.cc) and GPU kernel (count_sketch.cu): data (N, d) with hash
// indices h (1, d) and signs s (1, d) gives out (N, out_dim),
// out[n, j] = sum over i with h[i] == j of s[i] * data[n, i]. One output entry
// per call (no scatter, so no atomics and one summation order everywhere).
#pragma once
#include <cstdint>

#include "core/op/common/hd.h"

namespace weft {
namespace signal {

template <typename T>
WEFT_HD inline T CountSketchEntry(const T* data, const T* h, const T* s, int64_t d, int64_t out_dim, int64_t i) {
  const int64_t n = i / out_dim, j = i % out_dim;
  const T* row = data + n * d;
  using A = decltype(s[0] * row[0]);  // float for the 16-bit types: the sum is kept in it
  A acc = 0;
  for (int64_t k = 0; k < d; ++k)
    if (static_cast<int64_t>(h[k]) == j) acc += s[k] * row[k];
  return static_cast<T>(acc);
}

}  // namespace signal
}  // namespace weft
