// CPU kernels of moments and _backward_moments (core/op/reduce/moments.cc).
#pragma once
#include "core/opdef/op_def.h"
#include "core/op/reduce/moments_rules.h"
#include "core/opdef/tensor_view.h"

namespace weft {
namespace tensor_cpu {

// mean (req[0])= the mean of x over the plan's reduced dims, var (req[1])= the
// mean of (x - mean)^2 (floating dtypes).
void MomentsCPU(const tensor::MomentsPlan& plan, const TensorView& x, const std::vector<OpReq>& req,
                const TensorView& mean, const TensorView& var);
// gx (req)= (g_mean + 2 g_var (x - mean)) / N, N the reduced count.
void MomentsBackwardCPU(const tensor::MomentsPlan& plan, const TensorView& g_mean, const TensorView& g_var,
                        const TensorView& x, const TensorView& mean, OpReq req, const TensorView& gx);

}  // namespace tensor_cpu
}  // namespace weft
