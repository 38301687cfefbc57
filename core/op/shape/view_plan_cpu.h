// The CPU kernel of the one-strided-copy ops (Note [Ops that are one strided
// copy] in view_plan.h): a kernel made from the op's plan function.
#pragma once
#include "core/opdef/op_def.h"
#include "core/op/shape/view_plan.h"

namespace weft {
namespace tensor_cpu {

// Runs `plan` from in[0] into out[0], honouring req.
void RunViewPlan(const tensor::ViewPlan& plan, const TensorView& in, OpReq req, const TensorView& out);
// The kernel of an op whose plan is plan(params, in[0].shape, out[0].shape).
FCompute ViewPlanCompute(tensor::ViewPlanFn plan);
// out (req)= the sums of `plan` over in (float32, float64).
void RunSumPlan(const tensor::SumPlan& plan, const TensorView& in, OpReq req, const TensorView& out);

}  // namespace tensor_cpu
}  // namespace weft
