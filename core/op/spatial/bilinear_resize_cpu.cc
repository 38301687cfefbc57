// CPU kernels of _contrib_BilinearResize2D and its backward: the rule of
// bilinear_resize_rules.h over the output elements / the input planes.
#include "core/op/common/nnx_cpu.h"
#include "core/op/op_util.h"
#include "core/op/spatial/bilinear_resize_rules.h"
#include "core/op/spatial/spatial_cpu.h"

namespace weft {
namespace spatial_cpu {

void BilinearResize(const OpContext&, const Params& p, const std::vector<TensorView>& in,
                    const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull || out[0].Size() == 0) return;
  const spatial::ResizeGeom g = spatial::ResizeGeomOf(in[0].shape, out[0].shape, p.GetBool("align_corners"));
  WEFT_NNX_FLOAT_SWITCH(out[0].dtype, "_contrib_BilinearResize2D", T, {
    const T* x = in[0].ptr<T>();
    T* y = out[0].ptr<T>();
    const OpReq r = req[0];
    ParallelFor(out[0].Size(), 8, [&](int64_t b, int64_t e) {
      for (int64_t i = b; i < e; ++i) spatial::ResizeForwardAt<T, spatial::Acc<T>>(g, x, r, y, i);
    });
  })
}

void BilinearResizeBackward(const OpContext&, const Params& p, const std::vector<TensorView>& in,
                            const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  WEFT_NNX_FLOAT_SWITCH(in[0].dtype, "_backward_contrib_BilinearResize2D", T, {
    if (req[0] != OpReq::kNull && out[0].Size() > 0) {
      const spatial::ResizeGeom g = spatial::ResizeGeomOf(out[0].shape, in[0].shape, p.GetBool("align_corners"));
      const T* gy = in[0].ptr<T>();
      T* gx = out[0].ptr<T>();
      const OpReq r = req[0];
      ParallelFor(g.planes, 8 * g.oh * g.ow, [&](int64_t b, int64_t e) {
        for (int64_t i = b; i < e; ++i) spatial::ResizeBackwardPlane<T, spatial::Acc<T>>(g, gy, r, gx, i);
      });
    }
    if (out.size() > 1 && req[1] != OpReq::kNull && req[1] != OpReq::kAddTo) {
      T* gl = out[1].ptr<T>();
      for (int64_t i = 0; i < out[1].Size(); ++i) gl[i] = static_cast<T>(0.0f);
    }
  })
}

}  // namespace spatial_cpu
}  // namespace weft
