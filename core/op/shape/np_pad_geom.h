// The padded geometry of _npi_pad (np.pad): parsed from pad_width, shared by
// the declaration, the CPU kernel and the GPU kernel (captured by value).
#pragma once
#include <cstdint>

#include "core/base/shape.h"
#include "core/op/common/hd.h"
#include "core/opdef/params.h"

namespace weft {
namespace tensor {

struct NpPadGeom {
  static constexpr int kMax = 32;  // NDArray::kMaxNDim
  int ndim = 0;
  int64_t in[kMax] = {}, out[kMax] = {}, before[kMax] = {};
  int mode = 0;
  double value = 0.0;
  WEFT_HD int64_t InnerOf(int d) const {  // out elements after axis d
    int64_t s = 1;
    for (int i = d + 1; i < ndim; ++i) s *= out[i];
    return s;
  }
  // The element of the padded array's centre that holds input element e
  // (both kernels: the forward copies x there, the backward reads it back).
  WEFT_HD int64_t CentreOf(int64_t e) const {
    int64_t o = 0, mul = 1;
    for (int d = ndim - 1; d >= 0; --d) {
      const int64_t c = e % in[d];
      e /= in[d];
      o += (c + before[d]) * mul;
      mul *= out[d];
    }
    return o;
  }
};

// pad_width (((b0, a0), (b1, a1), ...), or one (b, a) pair or one number for
// every axis; non-negative), mode and constant_values for input shape s.
// Throws kInvalidArgument naming the op and the parameter.
NpPadGeom NpPadGeomOf(const Params& p, const Shape& s);

Shape NpPadOutShape(const NpPadGeom& g);

}  // namespace tensor
}  // namespace weft
