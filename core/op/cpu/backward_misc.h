// CPU kernels of the gradient helper ops (core/op/backward_misc.cc): sums back
// to a broadcast input's shape, broadcasts back over reduced axes, and the
// scatter-adds that undo take, pick, gather_nd and slice_axis.
#pragma once
#include <cstdint>
#include <vector>

#include "core/op/cpu/indexing.h"
#include "core/op/op_def.h"

namespace weft {
namespace tensor_cpu {

// out (req)= g summed over the axes along which out's shape was broadcast to
// g's (out left-padded with 1s to g's ndim; every dim equals g's or is 1).
void SumToShapeCPU(const TensorView& g, OpReq req, const TensorView& out);

// out (req)= scale * g broadcast over the dims flagged in `reduced` (one flag
// per dim of out); g holds the kept dims in order.
void BroadcastReducedCPU(const TensorView& g, const std::vector<bool>& reduced, double scale, OpReq req,
                         const TensorView& out);

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

// out (req)= zeros with g placed at [begin, begin + g.shape[axis]) of `axis`.
void SliceAxisBackwardCPU(const TensorView& g, int axis, int64_t begin, OpReq req, const TensorView& out);

}  // namespace tensor_cpu
}  // namespace weft
