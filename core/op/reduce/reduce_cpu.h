// CPU kernels of the reductions (sum, mean, prod, max, min, nansum, nanprod,
// norm) and of argmax/argmin. See Note [Reduction accumulators] in reduce.cc.
#pragma once
#include <vector>

#include "core/opdef/op_def.h"

namespace weft {
namespace tensor_cpu {

enum class ReduceKind : int { kSum, kMean, kProd, kMax, kMin, kNanSum, kNanProd, kNorm1, kNorm2 };

// out (req)= reduction of `in` over the dims flagged in `reduce` (one flag per
// dim of in). out holds the kept dims in order (any unit dims, keepdims or not);
// out may have another dtype than in (norm's out_dtype).
void ReduceCPU(ReduceKind kind, const TensorView& in, const std::vector<bool>& reduce, OpReq req,
               const TensorView& out);

// out (req)= index of the first maximum (is_max) or minimum along `axis`, or
// over the flattened input when axis < 0; written in out's dtype.
void ArgReduceCPU(bool is_max, const TensorView& in, int axis, OpReq req, const TensorView& out);

}  // namespace tensor_cpu
}  // namespace weft
