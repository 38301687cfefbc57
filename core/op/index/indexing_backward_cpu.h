// CPU kernels of the indexing backward ops (indexing_backward.cc): the
// scatter-adds that undo take, pick and gather_nd.
#pragma once
#include <cstdint>
#include <vector>

#include "core/op/index/indexing_cpu.h"
#include "core/opdef/op_def.h"

namespace weft {
namespace tensor_cpu {

// out (req)= zeros of a's shape with g's rows added back where take read them:
// out[o, fix(idx[j]), k] += g[o, j, k], out seen as [outer, n, inner].
void TakeBackwardCPU(const TensorView& g, const TensorView& indices, int axis, IndexMode mode, OpReq req,
                     const TensorView& out);

// out (req)= zeros of data's shape except out[o, fix(index[o, k]), k] = g[o, k].
void PickBackwardCPU(const TensorView& g, const TensorView& index, int axis, IndexMode mode, OpReq req,
                     const TensorView& out);

// out (req)= zeros of data's shape with each gathered slice of g added back at
// its index tuple (duplicates accumulate).
void GatherNDBackwardCPU(const TensorView& g, const TensorView& indices, OpReq req, const TensorView& out);

}  // namespace tensor_cpu
}  // namespace weft
