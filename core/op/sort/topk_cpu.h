// CPU kernels of topk, sort, argsort and _backward_topk (core/op/sort/topk.cc).
#pragma once
#include <vector>

#include "core/opdef/op_def.h"
#include "core/op/sort/topk_rules.h"

namespace weft {
namespace tensor_cpu {

// The outputs of plan t (TopKOutShapes) from data.
void TopKCPU(const tensor::TopKPlan& t, const TensorView& data, const std::vector<OpReq>& req,
             const std::vector<TensorView>& out);
// grad (req)= zeros of data's shape with og[o, r, i] added at [o, idx[o, r, i], i].
void TopKBackwardCPU(const tensor::TopKPlan& t, const TensorView& og, const TensorView& idx, OpReq req,
                     const TensorView& grad);

}  // namespace tensor_cpu
}  // namespace weft
