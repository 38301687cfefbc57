// The bins of _histogram, shared by its declaration, CPU kernel and GPU
// kernel: bin_cnt equal bins over range, or the edges given as the `bins`
// input. NumPy's rule: bin k holds edge[k] <= x < edge[k+1], the last bin also
// x == its right edge; values outside the edges (and NaN) are not counted.
#pragma once
#include <cstdint>

#include "core/base/shape.h"
#include "core/op/common/hd.h"
#include "core/opdef/params.h"

namespace weft {
namespace tensor {

struct UniformBins {
  int64_t count = 0;
  double lo = 0, hi = 0;
  WEFT_HD double Edge(int64_t k) const {
    return k == count ? hi : lo + (hi - lo) * static_cast<double>(k) / static_cast<double>(count);
  }
  // The bin of x, or -1.
  WEFT_HD int64_t BinOf(double x) const {
    if (!(x >= lo && x <= hi)) return -1;
    if (x == hi) return count - 1;
    int64_t k = static_cast<int64_t>((x - lo) / (hi - lo) * static_cast<double>(count));
    if (k >= count) k = count - 1;
    // keep k consistent with Edge(): rounding may put x one bin off
    if (k > 0 && x < Edge(k)) --k;
    else if (k + 1 < count && x >= Edge(k + 1)) ++k;
    return k;
  }
};

// The uniform bins of bin_cnt and range (kInvalidArgument naming the op when
// either is missing or range is not (min, max) with min < max).
UniformBins HistogramBinsOf(const Params& p, const Shape& data);

// The bin of x among the n + 1 sorted edges e, or -1.
template <typename T>
WEFT_HD inline int64_t BinOfEdges(const T* e, int64_t n, double x) {
  if (n < 1 || !(x >= static_cast<double>(e[0]) && x <= static_cast<double>(e[n]))) return -1;
  if (x == static_cast<double>(e[n])) return n - 1;
  int64_t lo = 0, hi = n;  // e[lo] <= x < e[hi]
  while (hi - lo > 1) {
    const int64_t mid = (lo + hi) / 2;
    if (static_cast<double>(e[mid]) <= x) lo = mid;
    else hi = mid;
  }
  return lo;
}

}  // namespace tensor
}  // namespace weft
