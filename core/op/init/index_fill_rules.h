// The parameters of _contrib_arange_like and _contrib_index_array as their
// CPU and GPU kernels read them (decoded once, in index_fill.cc).
#pragma once
#include <cstdint>

#include "core/base/shape.h"
#include "core/op/common/hd.h"
#include "core/opdef/params.h"

namespace weft {
namespace tensor {

struct ArangeLike {
  double start = 0, step = 1;
  int64_t repeat = 1;
  WEFT_HD double At(int64_t i) const { return start + step * static_cast<double>(i / repeat); }
};
ArangeLike ArangeLikeOf(const Params& p);

struct IndexArrayPlan {
  static constexpr int kMaxDims = 12;
  int ndim = 0, m = 0;  // input dims; coordinates per element
  int64_t dim[kMaxDims] = {};
  int axis[kMaxDims] = {};
  int64_t elements = 1;
  // Coordinate j of input element e (row-major).
  WEFT_HD int64_t Coord(int64_t e, int j) const {
    const int a = axis[j];
    for (int d = ndim - 1; d > a; --d) e /= dim[d];
    return e % dim[a];
  }
};
// Throws kInvalidArgument naming the op for an axis out of range.
IndexArrayPlan IndexArrayPlanOf(const Params& p, const Shape& data);

}  // namespace tensor
}  // namespace weft
