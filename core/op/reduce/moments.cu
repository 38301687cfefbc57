// GPU kernels of moments and _backward_moments: one thread per output element
// (moments_rules.h), the CPU's two-pass double accumulation.
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
    Launch(ctx, plan.kept, [=] WEFT_HD(int64_t o) {
      const int64_t base = plan.KeptOffset(o);
      double s = 0;
      for (int64_t r = 0; r < plan.reduced; ++r) s += static_cast<double>(xp[base + plan.ReducedOffset(r)]);
      const double m = s / static_cast<double>(plan.reduced);
      double q = 0;
      for (int64_t r = 0; r < plan.reduced; ++r) {
        const double d = static_cast<double>(xp[base + plan.ReducedOffset(r)]) - m;
        q += d * d;
      }
      if (rm != OpReq::kNull) Assign(mp, o, rm, static_cast<T>(m));
      if (rv != OpReq::kNull) Assign(vp, o, rv, static_cast<T>(q / static_cast<double>(plan.reduced)));
    });
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
    const double inv_n = 1.0 / static_cast<double>(plan.reduced);
    Launch(ctx, plan.kept, [=] WEFT_HD(int64_t o) {
      const int64_t base = plan.KeptOffset(o);
      const double a = static_cast<double>(gm[o]), v2 = 2.0 * static_cast<double>(gv[o]);
      const double m = static_cast<double>(mp[o]);
      for (int64_t r = 0; r < plan.reduced; ++r) {
        const int64_t k = base + plan.ReducedOffset(r);
        Assign(gx, k, rq, static_cast<T>((a + v2 * (static_cast<double>(xp[k]) - m)) * inv_n));
      }
    });
  });
}

}  // namespace

WEFT_GPU_KERNEL_EXPORT(MomentsGpu, Moments)
WEFT_GPU_KERNEL_EXPORT(BackwardMomentsGpu, MomentsBackward)

}  // namespace cuda
}  // namespace weft
