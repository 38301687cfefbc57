// CPU kernels of the fused optimizer updates (sgd, sgd_mom, nag_mom, adam,
// rmsprop, ftrl, signum, signsgd): one element-wise pass that writes the new
// weight to `out` (which may be the weight itself) and the optimizer states
// in place, with MXNet 1.x's formulas (optimizer_op-inl.h).
#pragma once
#include <limits>
#include <vector>

#include "core/op/optim/optim_rules.h"
#include "core/opdef/op_def.h"
#include "core/opdef/tensor_view.h"

namespace weft {
namespace nnx_cpu {

// The kinds and their per-element rule live in optim_rules.h (Note [One
// optimizer rule]), shared with the GPU kernels.
using optim::OptimizerConsts;
using optim::OptimizerKind;

struct OptimizerArgs {
  double lr = 0, wd = 0, rescale_grad = 1, clip_gradient = -1;
  double momentum = 0;                                  // sgd_mom, nag_mom, signum
  double beta1 = 0.9, beta2 = 0.999, epsilon = 1e-8;    // adam (epsilon: rmsprop too)
  double gamma1 = 0.95, clip_weights = -1;              // rmsprop
  double lamda1 = 0.01, beta = 1;                       // ftrl
  double wd_lh = 0;                                     // signum
};

// The settings an update op declares (those it lacks keep their defaults);
// shared by the CPU and GPU kernels.
OptimizerArgs OptimizerArgsOf(const Params& p);

// The settings in the update's compute type A (OptimizerConsts, optim_rules.h),
// converted once before the per-element loop (CPU) or the kernel launch (GPU,
// which captures them by value): host code, shared by this file's kernels and
// the GPU kernels (core/op/optim/optimizer_update.cu) so both compute with the
// same constants. "No clipping" (a negative bound) is an infinite bound (Note
// [Branch-free updates] in core/op/optim/optimizer_update_cpu.cc).
template <typename A>
A NoClipIsInfinite(double bound) {
  return bound >= 0 ? static_cast<A>(bound) : std::numeric_limits<A>::infinity();
}

template <typename A>
OptimizerConsts<A> OptimizerConstsOf(const OptimizerArgs& a) {
  auto c = [](double v) { return static_cast<A>(v); };
  // In the order of OptimizerConsts' members.
  return OptimizerConsts<A>{c(a.lr), c(a.wd), c(a.rescale_grad), NoClipIsInfinite<A>(a.clip_gradient),
                            c(a.momentum), c(a.beta1), c(a.beta2), c(a.epsilon), c(a.gamma1),
                            NoClipIsInfinite<A>(a.clip_weights), c(a.lamda1), c(a.beta), c(a.wd_lh)};
}

// in = (weight, grad, states...), all one floating dtype and size.
void OptimizerUpdate(OptimizerKind kind, const OptimizerArgs& a, const std::vector<TensorView>& in, OpReq req,
                     const TensorView& out);

}  // namespace nnx_cpu
}  // namespace weft
