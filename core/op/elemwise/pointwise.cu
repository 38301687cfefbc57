// GPU kernels of the parametrised pointwise ops: the CPU's rules
// (pointwise_rules.h), one kernel per dtype with the kind switched inside.
#include <vector>

#include "core/op/elemwise/pointwise_gpu.h"
#include "core/op/common/gpu_kernel.h"

namespace weft {
namespace cuda {

FCompute PointwiseGpu(pointwise::PointKind kind, const char* name) {
  return [kind, name](const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                      const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
    const OpReq r = req[0];
    if (r == OpReq::kNull || out[0].Size() == 0) return;
    const TensorView& x = pointwise::TakesGrad(kind) ? in[1] : in[0];
    const pointwise::PointArgs pa = pointwise::ArgsOf(kind, p, x.shape);
    WEFT_GPU_REAL_SWITCH(out[0].dtype, name, T, {
      const T* xp = x.ptr<T>();
      const T* gp = in[0].ptr<T>();
      T* o = out[0].ptr<T>();
      const T a0 = static_cast<T>(pa.p0), a1 = static_cast<T>(pa.p1), a2 = static_cast<T>(pa.p2);
      Launch(ctx, out[0].Size(), [=] WEFT_HD(int64_t i) {
        Assign(o, i, r, pointwise::PointValue<T>(kind, xp[i], gp[i], a0, a1, a2));
      });
    });
  };
}

}  // namespace cuda
}  // namespace weft
