// GPU kernels of _contrib_AdaptiveAvgPooling2D and its backward: the rule of
// adaptive_avg_pool_rules.h, one index per output element / input plane.
#include <vector>

#include "core/op/common/gpu_kernel.h"
#include "core/op/spatial/adaptive_avg_pool_rules.h"

namespace weft {
namespace cuda {
namespace {

void Adaptive(const OpContext& ctx, const Params&, const std::vector<TensorView>& in, const std::vector<OpReq>& req,
              const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull || out[0].Size() == 0) return;
  const spatial::AdaptiveGeom g = spatial::AdaptiveGeomOf(in[0].shape, out[0].shape);
  WEFT_GPU_REAL_SWITCH(out[0].dtype, "_contrib_AdaptiveAvgPooling2D", T, {
    const T* x = in[0].ptr<T>();
    T* y = out[0].ptr<T>();
    const OpReq r = req[0];
    Launch(ctx, out[0].Size(), [=] WEFT_HD(int64_t i) { spatial::AdaptiveForwardAt<T, AccT<T>>(g, x, r, y, i); });
  });
}

void AdaptiveBackward(const OpContext& ctx, const Params&, const std::vector<TensorView>& in,
                      const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull || out[0].Size() == 0) return;
  const spatial::AdaptiveGeom g = spatial::AdaptiveGeomOf(out[0].shape, in[0].shape);
  WEFT_GPU_REAL_SWITCH(in[0].dtype, "_backward_contrib_AdaptiveAvgPooling2D", T, {
    const T* gy = in[0].ptr<T>();
    T* gx = out[0].ptr<T>();
    const OpReq r = req[0];
    Launch(ctx, g.planes, [=] WEFT_HD(int64_t i) { spatial::AdaptiveBackwardPlane<T, AccT<T>>(g, gy, r, gx, i); });
  });
}

}  // namespace

WEFT_GPU_KERNEL_EXPORT(AdaptiveAvgPoolGpu, Adaptive)                  // _contrib_AdaptiveAvgPooling2D
WEFT_GPU_KERNEL_EXPORT(AdaptiveAvgPoolBackwardGpu, AdaptiveBackward)  // _backward_contrib_AdaptiveAvgPooling2D

}  // namespace cuda
}  // namespace weft
