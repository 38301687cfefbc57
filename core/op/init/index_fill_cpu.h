// CPU kernels of _contrib_arange_like and _contrib_index_array
// (core/op/init/index_fill.cc).
#pragma once
#include "core/op/init/index_fill_rules.h"
#include "core/opdef/op_def.h"
#include "core/opdef/tensor_view.h"

namespace weft {
namespace tensor_cpu {

// out[i] (req)= start + step * floor(i / repeat), in out's dtype.
void ArangeLikeCPU(const tensor::ArangeLike& a, OpReq req, const TensorView& out);
// out[e, j] (int64) = coordinate plan.axis[j] of element e of the input.
void IndexArrayCPU(const tensor::IndexArrayPlan& plan, OpReq req, const TensorView& out);

}  // namespace tensor_cpu
}  // namespace weft
