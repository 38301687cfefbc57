// The (outer, len, inner) view of _npi_diff (np.diff) around its axis and the
// n-th difference's output shape, shared by the declaration, the CPU kernel
// and the GPU kernel.
#pragma once
#include <cstdint>

#include "core/base/shape.h"
#include "core/op/common/hd.h"
#include "core/opdef/params.h"

namespace weft {
namespace tensor {

struct DiffGeom {
  int axis = 0;
  int64_t outer = 1, len = 1, inner = 1;
  int64_t n = 1;  // the order of the difference
  // The output's length along axis: len - n, or 0 when n >= len (NumPy).
  WEFT_HD int64_t out_len() const { return n >= len ? 0 : len - n; }
};

// Throws kShape for a 0-d input and kInvalidArgument for n < 0 or an axis
// out of range, naming the op and the argument.
DiffGeom DiffGeomOf(const Params& p, const Shape& a);

// a's shape with out_len() along the axis.
Shape DiffOutShape(const DiffGeom& g, const Shape& a);

}  // namespace tensor
}  // namespace weft
