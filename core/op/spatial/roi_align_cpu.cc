// CPU kernels of _contrib_ROIAlign and _backward_ROIAlign: the rule of
// roi_align_rules.h over the output elements / the data planes.
#include "core/op/common/nnx_cpu.h"
#include "core/op/op_util.h"
#include "core/op/spatial/roi_align_rules.h"
#include "core/op/spatial/spatial_cpu.h"

namespace weft {
namespace spatial_cpu {

void ROIAlign(const OpContext&, const Params& p, const std::vector<TensorView>& in, const std::vector<OpReq>& req,
              const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull || out[0].Size() == 0) return;
  const spatial::RoiAlignGeom g = spatial::RoiAlignGeomOf(p, in[0].shape, in[1].shape, out[0].shape);
  WEFT_NNX_FLOAT_SWITCH(out[0].dtype, "_contrib_ROIAlign", T, {
    const T* x = in[0].ptr<T>();
    const T* rois = in[1].ptr<T>();
    T* y = out[0].ptr<T>();
    const OpReq r = req[0];
    ParallelFor(out[0].Size(), 64, [&](int64_t b, int64_t e) {
      for (int64_t i = b; i < e; ++i) spatial::RoiAlignForwardAt<T, spatial::Acc<T>>(g, x, rois, r, y, i);
    });
  })
}

void ROIAlignBackward(const OpContext&, const Params& p, const std::vector<TensorView>& in,
                      const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  const spatial::RoiAlignGeom g = spatial::RoiAlignGeomOf(p, in[1].shape, in[2].shape, in[0].shape);
  WEFT_NNX_FLOAT_SWITCH(in[0].dtype, "_backward_ROIAlign", T, {
    if (req[0] != OpReq::kNull && out[0].Size() > 0) {
      const T* gy = in[0].ptr<T>();
      const T* rois = in[2].ptr<T>();
      T* gx = out[0].ptr<T>();
      const OpReq r = req[0];
      ParallelFor(g.batch * g.in_c, 64 * g.rois * g.ph * g.pw, [&](int64_t b, int64_t e) {
        for (int64_t i = b; i < e; ++i) spatial::RoiAlignBackwardPlane<T, spatial::Acc<T>>(g, gy, rois, r, gx, i);
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
