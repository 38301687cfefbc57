// The arithmetic of all_finite, multi_all_finite and multi_sum_sq, shared by
// their CPU kernels (multi_check_cpu.cc) and GPU kernels (multi_check.cu).
#pragma once
#include <cmath>
#include <cstdint>

#include "core/op/common/hd.h"

namespace weft {
namespace optim {

// Whether v is neither NaN nor an infinity (std::isfinite, written with
// comparisons a device function can make).
WEFT_HD inline bool FiniteValue(double v) { return v == v && v != INFINITY && v != -INFINITY; }

// The sum of squares of p[0, n), accumulated in double in index order.
template <typename T>
WEFT_HD inline double SumOfSquares(const T* p, int64_t n) {
  double s = 0;
  for (int64_t i = 0; i < n; ++i) {
    const double v = static_cast<double>(p[i]);
    s += v * v;
  }
  return s;
}

}  // namespace optim
}  // namespace weft
