// The bin count of _npi_bincount (np.bincount), decided from the data's values
// by the declaration's dynamic shape rule and read back from the output's
// shape by both kernels; the per-bin sum both kernels run.
//
// Note [Bincount bins]
// The output has max(max(data) + 1, minlength) bins. A value far beyond the
// data's size would ask for memory out of all proportion to the input, so
// more than kMaxBincountBins bins are refused (kInvalidArgument naming the op
// and the value) instead of being allocated. Weights are summed per bin in
// ascending index order in double on both devices (NumPy sums in double), so
// CPU and GPU agree bit for bit; the result is stored in the weights' dtype
// (MXNet 1.9.1's rule; NumPy gives float64).
#pragma once
#include <cstdint>

#include "core/op/common/hd.h"

namespace weft {
namespace tensor {

constexpr int64_t kMaxBincountBins = int64_t{1} << 31;

// sum over i with data[i] == bin of w[i] (w == nullptr: count 1 each).
template <typename I, typename W>
WEFT_HD inline double BinSum(int64_t bin, const I* data, const W* w, int64_t n) {
  double s = 0;
  for (int64_t i = 0; i < n; ++i) {
    if (static_cast<int64_t>(data[i]) == bin) s += w ? static_cast<double>(w[i]) : 1.0;
  }
  return s;
}

}  // namespace tensor
}  // namespace weft
