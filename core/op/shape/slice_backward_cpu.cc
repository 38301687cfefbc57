#include "core/op/shape/slice_backward_cpu.h"

#include <algorithm>
#include <vector>

#include "core/op/common/copy_cpu.h"

namespace weft {
namespace tensor_cpu {


void SliceAxisBackwardCPU(const TensorView& g, int axis, int64_t begin, OpReq req, const TensorView& out) {
  const int64_t outer = out.shape.ProdRange(0, axis), len = out.shape[axis];
  const int64_t inner = out.shape.ProdRange(axis + 1, out.ndim()), n = g.shape[axis];
  WriteWithReq(req, out, [&](const TensorView& o) {
    StridedFill(o.dtype, 0.0, {o.Size()}, o.data, 0, {1});
    StridedCopy(DTypeSize(o.dtype), {outer, n * inner}, g.data, 0, {n * inner, 1}, o.data, begin * inner,
                {len * inner, 1});
  });
}


}  // namespace tensor_cpu
}  // namespace weft
