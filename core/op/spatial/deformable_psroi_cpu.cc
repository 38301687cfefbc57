// CPU kernels of _contrib_DeformablePSROIPooling and its backward: the rule of
// deformable_psroi_rules.h over the output elements / data planes / trans.
#include "core/op/common/nnx_cpu.h"
#include "core/op/op_util.h"
#include "core/op/spatial/deformable_psroi_rules.h"
#include "core/op/spatial/spatial_cpu.h"

namespace weft {
namespace spatial_cpu {

void DeformablePSROIPooling(const OpContext&, const Params& p, const std::vector<TensorView>& in,
                            const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  if (out[0].Size() == 0) return;
  const bool trans = in.size() > 2;
  const spatial::DPSGeom g = spatial::DPSGeomOf(p, in[0].shape, in[1].shape, trans ? &in[2].shape : nullptr);
  WEFT_NNX_FLOAT_SWITCH(out[0].dtype, "_contrib_DeformablePSROIPooling", T, {
    const T* x = in[0].ptr<T>();
    const T* rois = in[1].ptr<T>();
    const T* tr = trans ? in[2].ptr<T>() : nullptr;
    T* y = out[0].ptr<T>();
    T* cnt = out[1].ptr<T>();
    ParallelFor(out[0].Size(), 16 * g.samples * g.samples, [&](int64_t b, int64_t e) {
      for (int64_t i = b; i < e; ++i)
        spatial::DPSForwardAt<T, spatial::Acc<T>>(g, x, rois, tr, req[0], y, req[1], cnt, i);
    });
  })
}

void DeformablePSROIPoolingBackward(const OpContext&, const Params& p, const std::vector<TensorView>& in,
                                    const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  const bool trans = in.size() > 3;
  const spatial::DPSGeom g = spatial::DPSGeomOf(p, in[1].shape, in[2].shape, trans ? &in[3].shape : nullptr);
  WEFT_NNX_FLOAT_SWITCH(in[0].dtype, "_backward_DeformablePSROIPooling", T, {
    using A = spatial::Acc<T>;
    const T* gy = in[0].ptr<T>();
    const T* x = in[1].ptr<T>();
    const T* rois = in[2].ptr<T>();
    const T* tr = trans ? in[3].ptr<T>() : nullptr;
    if (req[0] != OpReq::kNull && out[0].Size() > 0)
      ParallelFor(g.batch * g.c, 16 * g.rois * g.pooled * g.pooled, [&](int64_t b, int64_t e) {
        for (int64_t i = b; i < e; ++i)
          spatial::DPSBackwardDataPlane<T, A>(g, gy, rois, tr, req[0], out[0].ptr<T>(), i);
      });
    if (req[1] != OpReq::kNull && req[1] != OpReq::kAddTo) {
      T* gr = out[1].ptr<T>();
      for (int64_t i = 0; i < out[1].Size(); ++i) gr[i] = static_cast<T>(0.0f);
    }
    if (trans && req[2] != OpReq::kNull)
      ParallelFor(out[2].Size(), 16 * g.out_c * g.pooled * g.pooled, [&](int64_t b, int64_t e) {
        for (int64_t i = b; i < e; ++i)
          spatial::DPSBackwardTransAt<T, A>(g, gy, x, rois, tr, req[2], out[2].ptr<T>(), i);
      });
  })
}

}  // namespace spatial_cpu
}  // namespace weft
