// The plan of moments and _backward_moments, shared by the declaration, the
// CPU kernels and the GPU kernels: the input's dims split into kept dims (one
// output element per position) and reduced dims (the axes), with the input's
// element strides of each.
#pragma once
#include <cstdint>

#include "core/base/shape.h"
#include "core/op/common/hd.h"
#include "core/opdef/params.h"

namespace weft {
namespace tensor {

struct MomentsPlan {
  static constexpr int kMaxDims = 12;
  int nk = 0, nr = 0;  // kept / reduced dims
  int64_t kdim[kMaxDims] = {}, kstride[kMaxDims] = {};
  int64_t rdim[kMaxDims] = {}, rstride[kMaxDims] = {};
  int64_t kept = 1, reduced = 1;  // elements of the output / per output element

  // The input offset of output element o's first reduced element, and of its
  // reduced element r after that.
  WEFT_HD int64_t KeptOffset(int64_t o) const {
    int64_t off = 0;
    for (int d = nk - 1; d >= 0; --d) {
      off += (o % kdim[d]) * kstride[d];
      o /= kdim[d];
    }
    return off;
  }
  WEFT_HD int64_t ReducedOffset(int64_t r) const {
    int64_t off = 0;
    for (int d = nr - 1; d >= 0; --d) {
      off += (r % rdim[d]) * rstride[d];
      r /= rdim[d];
    }
    return off;
  }
};

// The plan for input shape `in` and moments' parameters (axes, keepdims);
// *out_shape (when given) receives the outputs' shape. Throws kInvalidArgument
// naming the op for an axis out of range or repeated.
MomentsPlan MomentsPlanOf(const Params& p, const Shape& in, Shape* out_shape = nullptr);

}  // namespace tensor
}  // namespace weft
