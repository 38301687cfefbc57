// GPU kernels of moments and _backward_moments: one thread per output element,
// running the CPU's rule (moments_rules.h).
#include <vector>

#include "core/op/common/gpu_kernel.h"
#include "core/op/reduce/moments_rules.h"
#include "core/op/reduce/moments_gpu.h"

namespace weft {
namespace cuda {
namespace {

void Moments(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
             const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  const tensor::MomentsPlan plan = tensor::MomentsPlanOf(p, in[0].shape);
  if (plan.kept == 0) return;
  const OpReq rm = req[0], rv = req[1];
  WEFT_GPU_REAL_SWITCH(in[0].dtype, "moments", T, {
    const T* xp = in[0].ptr<T>();
    T* mp = out[0].ptr<T>();
    T* vp = out[1].ptr<T>();
    Launch(ctx, plan.kept, [=] WEFT_HD(int64_t o) { tensor::MomentsAt(plan, o, xp, rm, mp, rv, vp); });
  });
}

void MomentsBackward(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                     const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  const OpReq rq = req[0];
  if (rq == OpReq::kNull) return;
  const tensor::MomentsPlan plan = tensor::MomentsPlanOf(p, in[2].shape);
  if (plan.kept == 0) return;
  WEFT_GPU_REAL_SWITCH(in[2].dtype, "_backward_moments", T, {
    const T* gm = in[0].ptr<T>();
    const T* gv = in[1].ptr<T>();
    const T* xp = in[2].ptr<T>();
    const T* mp = in[3].ptr<T>();
    T* gx = out[0].ptr<T>();
    Launch(ctx, plan.kept, [=] WEFT_HD(int64_t o) { tensor::MomentsGradAt(plan, o, gm, gv, xp, mp, rq, gx); });
  });
}

}  // namespace

WEFT_GPU_KERNEL_EXPORT(MomentsGpu, Moments)
WEFT_GPU_KERNEL_EXPORT(BackwardMomentsGpu, MomentsBackward)

}  // namespace cuda
}  // namespace weft
