// CPU kernels of MXNet's legacy row-wise ops (core/op/index/legacy_index.cc):
// fill_element_0index, _onehot_encode, argmax_channel, batch_take. A matrix is
// (rows, cols) = (in.Size() / cols, cols); indices are read as int64 and
// clipped to [0, cols).
#pragma once
#include "core/opdef/op_def.h"

namespace weft {
namespace tensor_cpu {

// out = lhs with out[i, idx[i]] = val[i].
void FillElement0IndexCPU(const TensorView& lhs, const TensorView& val, const TensorView& idx, OpReq req,
                          const TensorView& out);
// out = 0 with out[i, idx[i]] = 1 (indices outside [0, cols) set nothing).
void OneHotEncodeCPU(const TensorView& idx, OpReq req, const TensorView& out);
// out[i] = the first position of the largest element of row i (cols = the last dim), in out's dtype.
void ArgmaxChannelCPU(const TensorView& data, OpReq req, const TensorView& out);
// out[i] = a[i, clip(idx[i])] with a seen as (idx.Size(), a.Size() / idx.Size()).
void BatchTakeCPU(const TensorView& a, const TensorView& idx, OpReq req, const TensorView& out);

}  // namespace tensor_cpu
}  // namespace weft
