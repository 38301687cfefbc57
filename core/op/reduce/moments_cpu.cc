// CPU kernels of moments (core/op/reduce/moments_cpu.h): one output element
// per task, two passes over its reduced elements (mean, then the squared
// deviations), accumulated in double.
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
      for (int64_t o = b; o < e; ++o) {
        // No reduced element (an empty input, whose strides may have saturated): the mean and
        // variance of nothing are stored without computing an offset into it.
        const int64_t base = plan.reduced > 0 ? plan.KeptOffset(o) : 0;
        double s = 0;
        for (int64_t r = 0; r < plan.reduced; ++r) s += static_cast<double>(xp[base + plan.ReducedOffset(r)]);
        const double m = s / static_cast<double>(plan.reduced);
        double q = 0;
        for (int64_t r = 0; r < plan.reduced; ++r) {
          const double d = static_cast<double>(xp[base + plan.ReducedOffset(r)]) - m;
          q += d * d;
        }
        StoreReq(req[0], mp + o, static_cast<T>(m));
        StoreReq(req[1], vp + o, static_cast<T>(q / static_cast<double>(plan.reduced)));
      }
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
    const double inv_n = 1.0 / static_cast<double>(plan.reduced);
    ParallelFor(plan.kept, SaturatingMul(plan.reduced, 2), [&](int64_t b, int64_t e) {
      for (int64_t o = b; o < e; ++o) {
        const int64_t base = plan.KeptOffset(o);
        const double a = static_cast<double>(gm[o]), v2 = 2.0 * static_cast<double>(gv[o]);
        const double m = static_cast<double>(mp[o]);
        for (int64_t r = 0; r < plan.reduced; ++r) {
          const int64_t k = base + plan.ReducedOffset(r);
          StoreReq(req, out + k, static_cast<T>((a + v2 * (static_cast<double>(xp[k]) - m)) * inv_n));
        }
      }
    });
  });
}

}  // namespace tensor_cpu
}  // namespace weft
