// CPU kernels of _contrib_AdaptiveAvgPooling2D and its backward: the rule of
// adaptive_avg_pool_rules.h over the output elements / the input planes.
#include "core/op/common/nnx_cpu.h"
#include "core/op/op_util.h"
#include "core/op/spatial/adaptive_avg_pool_rules.h"
#include "core/op/spatial/spatial_cpu.h"

namespace weft {
namespace spatial_cpu {

void AdaptiveAvgPool(const OpContext&, const Params&, const std::vector<TensorView>& in,
                     const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull || out[0].Size() == 0) return;
  const spatial::AdaptiveGeom g = spatial::AdaptiveGeomOf(in[0].shape, out[0].shape);
  WEFT_NNX_FLOAT_SWITCH(out[0].dtype, "_contrib_AdaptiveAvgPooling2D", T, {
    const T* x = in[0].ptr<T>();
    T* y = out[0].ptr<T>();
    const OpReq r = req[0];
    const int64_t cost = 2 + (g.ih / g.oh + 1) * (g.iw / g.ow + 1);
    ParallelFor(out[0].Size(), cost, [&](int64_t b, int64_t e) {
      for (int64_t i = b; i < e; ++i) spatial::AdaptiveForwardAt<T, spatial::Acc<T>>(g, x, r, y, i);
    });
  })
}

void AdaptiveAvgPoolBackward(const OpContext&, const Params&, const std::vector<TensorView>& in,
                             const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull || out[0].Size() == 0) return;
  const spatial::AdaptiveGeom g = spatial::AdaptiveGeomOf(out[0].shape, in[0].shape);
  WEFT_NNX_FLOAT_SWITCH(in[0].dtype, "_backward_contrib_AdaptiveAvgPooling2D", T, {
    const T* gy = in[0].ptr<T>();
    T* gx = out[0].ptr<T>();
    const OpReq r = req[0];
    ParallelFor(g.planes, 4 * (g.ih * g.iw + g.oh * g.ow), [&](int64_t b, int64_t e) {
      for (int64_t i = b; i < e; ++i) spatial::AdaptiveBackwardPlane<T, spatial::Acc<T>>(g, gy, r, gx, i);
    });
  })
}

}  // namespace spatial_cpu
}  // namespace weft
