// The closed forms of MXNet 1.9.1's NumPy-mode arrays computed from their
// index alone (np_index_fills.cc): the windows np.hanning, np.hamming and
// np.blackman, np.logspace and np.indices; written once for the CPU loop and
// the GPU kernel (np_index_fills.cu).
//
// Note [Arrays computed from their index]
// Element i is a closed form of i, computed in double and rounded once to the
// output dtype (MXNet's kernels compute the windows and logspace in the output
// dtype, so float32 results may differ from MXNet's in the last place; NumPy
// computes in double). The windows are NumPy's: w(n) = 0.5 - 0.5 cos(2 pi n /
// (M - 1)) (hanning), 0.54 - 0.46 cos(...) (hamming), 0.42 - 0.5 cos(...) +
// 0.08 cos(4 pi n / (M - 1)) (blackman), M = 1 giving [1] and M < 1 an empty
// array. logspace is base ** (start + i * step), step = (stop - start) /
// (num - 1) with the endpoint or / num without. indices(dims) has shape
// (len(dims), dims...): element (a, x...) is x[a].
#pragma once
#include <cmath>
#include <cstdint>
#include <type_traits>

#include "core/base/shape.h"
#include "core/op/common/hd.h"
#include "core/op/common/req_hd.h"
#include "core/opdef/params.h"

namespace weft {
namespace tensor {

enum class IndexFill : int { kHanning, kHamming, kBlackman, kLogspace, kIndices };

struct IndexFillRule {
  static constexpr int kMaxDims = 32;
  IndexFill kind = IndexFill::kHanning;
  int64_t m = 0;                      // window length
  double start = 0, step = 0, base = 10;  // logspace
  int ndim = 0;                       // indices: len(dims)
  int64_t size = 1;                   // indices: prod(dims)
  int64_t dims[kMaxDims] = {}, strides[kMaxDims] = {};
};

// The rule of op `p.op()` and its output shape; throws kInvalidArgument naming
// the op and parameter for values NumPy refuses. Host code (np_index_fills.cc).
IndexFillRule IndexFillRuleOf(const Params& p, Shape* out);

WEFT_HD inline double IndexFillValue(const IndexFillRule& r, int64_t i) {
  const double kPi = 3.14159265358979323846;
  switch (r.kind) {
    case IndexFill::kHanning:
    case IndexFill::kHamming:
    case IndexFill::kBlackman: {
      if (r.m == 1) return 1.0;
      const double x = 2.0 * kPi * static_cast<double>(i) / static_cast<double>(r.m - 1);
      if (r.kind == IndexFill::kHanning) return 0.5 - 0.5 * cos(x);
      if (r.kind == IndexFill::kHamming) return 0.54 - 0.46 * cos(x);
      return 0.42 - 0.5 * cos(x) + 0.08 * cos(2.0 * x);
    }
    case IndexFill::kLogspace:
      return pow(r.base, r.start + static_cast<double>(i) * r.step);
    case IndexFill::kIndices: {
      const int64_t a = i / r.size, rest = i % r.size;
      return static_cast<double>((rest / r.strides[a]) % r.dims[a]);
    }
  }
  return 0.0;
}

// out[i] (req)= the value in T: integers and double directly, the other
// floats through float (half_t / bf16_t convert from float).
template <typename T>
WEFT_HD inline void IndexFillStore(const IndexFillRule& r, int64_t i, OpReq req, T* out) {
  const double v = IndexFillValue(r, i);
  if constexpr (std::is_same<T, double>::value || std::is_integral<T>::value) {
    nnm::Put<T, double>(out, i, req, v);
  } else {
    nnm::Put<T, float>(out, i, req, static_cast<float>(v));
  }
}

}  // namespace tensor
}  // namespace weft
