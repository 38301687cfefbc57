// CPU kernels of Concat, stack and split: every array is seen as
// [outer, inner] and rows are copied with the shared strided copy.
#pragma once
#include <cstdint>
#include <vector>

#include "core/opdef/op_def.h"

namespace weft {
namespace tensor_cpu {

// out[o, off_i : off_i + inner_i] = parts[i][o, :], where inner_i =
// parts[i].Size() / outer and off_i is the sum of the earlier inner sizes.
void ConcatCPU(const std::vector<TensorView>& parts, int64_t outer, OpReq req, const TensorView& out);

// The inverse: outs[i][o, :] = in[o, off_i : off_i + inner_i], each with its req.
void SplitCPU(const TensorView& in, int64_t outer, const std::vector<OpReq>& req, const std::vector<TensorView>& outs);

}  // namespace tensor_cpu
}  // namespace weft
