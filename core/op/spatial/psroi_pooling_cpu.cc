// CPU kernels of _contrib_PSROIPooling and _backward_PSROIPooling: the rule of
// psroi_pooling_rules.h over the output elements / the data planes.
#include "core/op/common/nnx_cpu.h"
#include "core/op/op_util.h"
#include "core/op/spatial/psroi_pooling_rules.h"
#include "core/op/spatial/spatial_cpu.h"

namespace weft {
namespace spatial_cpu {

void PSROIPooling(const OpContext&, const Params& p, const std::vector<TensorView>& in,
                  const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull || out[0].Size() == 0) return;
  const spatial::PSRoiGeom g = spatial::PSRoiGeomOf(p, in[0].shape, in[1].shape);
  WEFT_NNX_FLOAT_SWITCH(out[0].dtype, "_contrib_PSROIPooling", T, {
    const T* x = in[0].ptr<T>();
    const T* rois = in[1].ptr<T>();
    T* y = out[0].ptr<T>();
    const OpReq r = req[0];
    ParallelFor(out[0].Size(), 32, [&](int64_t b, int64_t e) {
      for (int64_t i = b; i < e; ++i) spatial::PSRoiForwardAt<T, spatial::Acc<T>>(g, x, rois, r, y, i);
    });
  })
}

void PSROIPoolingBackward(const OpContext&, const Params& p, const std::vector<TensorView>& in,
                          const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  const spatial::PSRoiGeom g = spatial::PSRoiGeomOf(p, in[1].shape, in[2].shape);
  WEFT_NNX_FLOAT_SWITCH(in[0].dtype, "_backward_PSROIPooling", T, {
    if (req[0] != OpReq::kNull && out[0].Size() > 0) {
      const T* gy = in[0].ptr<T>();
      const T* rois = in[2].ptr<T>();
      T* gx = out[0].ptr<T>();
      const OpReq r = req[0];
      ParallelFor(g.batch * g.c, 32 * g.rois * g.pooled * g.pooled, [&](int64_t b, int64_t e) {
        for (int64_t i = b; i < e; ++i) spatial::PSRoiBackwardPlane<T, spatial::Acc<T>>(g, gy, rois, r, gx, i);
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
