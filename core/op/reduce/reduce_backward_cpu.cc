#include "core/op/reduce/reduce_backward_cpu.h"

#include <algorithm>
#include <vector>

#include "core/base/error.h"
#include "core/op/common/copy_cpu.h"
#include "core/op/elemwise/elemwise_cpu.h"
#include "core/op/reduce/reduce_cpu.h"

namespace weft {
namespace tensor_cpu {

void SumToShapeCPU(const TensorView& g, OpReq req, const TensorView& out) {
  const int nd = g.ndim(), lead = nd - out.ndim();
  WEFT_CHECK(lead >= 0, kInternal) << "sum to shape: target " << out.shape.ToString() << " has more dims than "
                                   << g.shape.ToString();
  std::vector<bool> red(static_cast<size_t>(nd), false);
  for (int i = 0; i < nd; ++i) red[static_cast<size_t>(i)] = i < lead || (out.shape[i - lead] == 1 && g.shape[i] != 1);
  ReduceCPU(ReduceKind::kSum, g, red, req, out);
}

void BroadcastReducedCPU(const TensorView& g, const std::vector<bool>& reduced, double scale, OpReq req,
                         const TensorView& out) {
  Shape kept = out.shape;
  for (int i = 0; i < out.ndim(); ++i)
    if (reduced[static_cast<size_t>(i)]) kept[i] = 1;
  WEFT_CHECK(kept.Size() == g.Size(), kInternal) << "broadcast back: gradient of shape " << g.shape.ToString()
                                                 << " does not match the reduced shape " << kept.ToString();
  const TensorView src{g.data, g.dtype, kept};
  if (scale == 1.0) {
    elemwise_cpu::BroadcastCopyKernel(src, req, out);
    return;
  }
  WriteWithReq(req, out, [&](const TensorView& o) {
    elemwise_cpu::BroadcastCopyKernel(src, OpReq::kWriteTo, o);
    elemwise_cpu::BinaryScalarKernel(elemwise_cpu::BinaryKind::kMul, o, scale, false, OpReq::kWriteTo, o);
  });
}

}  // namespace tensor_cpu
}  // namespace weft
