// CPU kernels of moments (core/op/reduce/moments_cpu.h): output elements split
// across threads, each running the rule of moments_rules.h.
#include "core/op/reduce/moments_cpu.h"

#include "core/base/checked_math.h"
#include "core/op/common/nnx_cpu.h"
#include "core/op/op_util.h"

namespace weft {
namespace tensor_cpu {

void MomentsCPU(const tensor::MomentsPlan& plan, const TensorView& x, const std::vector<OpReq>& req,
                const TensorView& mean, const TensorView& var) {
  WEFT_NNX_FLOAT_SWITCH(x.dtype, "moments", T, {
    const T* xp = x.ptr<T>();
    T* mp = mean.ptr<T>();
    T* vp = var.ptr<T>();
    ParallelFor(plan.kept, SaturatingMul(plan.reduced, 4), [&](int64_t b, int64_t e) {
      for (int64_t o = b; o < e; ++o) tensor::MomentsAt(plan, o, xp, req[0], mp, req[1], vp);
    });
  });
}

void MomentsBackwardCPU(const tensor::MomentsPlan& plan, const TensorView& g_mean, const TensorView& g_var,
                        const TensorView& x, const TensorView& mean, OpReq req, const TensorView& gx) {
  if (req == OpReq::kNull || plan.reduced == 0) return;  // gx is empty: nothing to write
  WEFT_NNX_FLOAT_SWITCH(x.dtype, "_backward_moments", T, {
    const T* gm = g_mean.ptr<T>();
    const T* gv = g_var.ptr<T>();
    const T* xp = x.ptr<T>();
    const T* mp = mean.ptr<T>();
    T* out = gx.ptr<T>();
    ParallelFor(plan.kept, SaturatingMul(plan.reduced, 2), [&](int64_t b, int64_t e) {
      for (int64_t o = b; o < e; ++o) tensor::MomentsGradAt(plan, o, gm, gv, xp, mp, req, out);
    });
  });
}

}  // namespace tensor_cpu
}  // namespace weft
