// CPU kernels of ROIPooling and _backward_ROIPooling: the rule of
// roi_pooling_rules.h over the output elements / the data planes.
#include "core/op/common/nnx_cpu.h"
#include "core/op/op_util.h"
#include "core/op/spatial/roi_pooling_rules.h"
#include "core/op/spatial/spatial_cpu.h"

namespace weft {
namespace spatial_cpu {

void ROIPooling(const OpContext&, const Params& p, const std::vector<TensorView>& in, const std::vector<OpReq>& req,
                const std::vector<TensorView>& out) {
  if (out[0].Size() == 0) return;
  const spatial::RoiPoolGeom g = spatial::RoiPoolGeomOf(p, in[0].shape, in[1].shape, out[0].shape);
  WEFT_NNX_FLOAT_SWITCH(out[0].dtype, "ROIPooling", T, {
    const T* x = in[0].ptr<T>();
    const T* rois = in[1].ptr<T>();
    T* y = out[0].ptr<T>();
    T* idx = out[1].ptr<T>();
    const OpReq r = req[0], ri = req[1];
    ParallelFor(out[0].Size(), 32, [&](int64_t b, int64_t e) {
      for (int64_t i = b; i < e; ++i) spatial::RoiPoolForwardAt<T, spatial::Acc<T>>(g, x, rois, r, y, ri, idx, i);
    });
  })
}

void ROIPoolingBackward(const OpContext&, const Params& p, const std::vector<TensorView>& in,
                        const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  const spatial::RoiPoolGeom g = spatial::RoiPoolGeomOf(p, in[1].shape, in[2].shape, in[0].shape);
  WEFT_NNX_FLOAT_SWITCH(in[0].dtype, "_backward_ROIPooling", T, {
    if (req[0] != OpReq::kNull && out[0].Size() > 0) {
      const T* gy = in[0].ptr<T>();
      const T* x = in[1].ptr<T>();
      const T* rois = in[2].ptr<T>();
      T* gx = out[0].ptr<T>();
      const OpReq r = req[0];
      ParallelFor(g.batch * g.c, 32 * g.rois * g.ph * g.pw, [&](int64_t b, int64_t e) {
        for (int64_t i = b; i < e; ++i) spatial::RoiPoolBackwardPlane<T, spatial::Acc<T>>(g, gy, x, rois, r, gx, i);
      });
    }
    if (req[1] != OpReq::kNull && req[1] != OpReq::kAddTo) {
      T* gr = out[1].ptr<T>();
      for (int64_t i = 0; i < out[1].Size(); ++i) gr[i] = static_cast<T>(0.0f);
    }
  })
}

}  // namespace spatial_cpu
}  // namespace weft
