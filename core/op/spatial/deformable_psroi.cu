// GPU kernels of _contrib_DeformablePSROIPooling and its backward: the rule of
// deformable_psroi_rules.h, one index per output element / data plane / trans
// element.
#include <vector>

#include "core/op/common/gpu_kernel.h"
#include "core/op/spatial/deformable_psroi_rules.h"

namespace weft {
namespace cuda {
namespace {

void DPS(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in, const std::vector<OpReq>& req,
         const std::vector<TensorView>& out) {
  if (out[0].Size() == 0) return;
  const bool trans = in.size() > 2;
  const spatial::DPSGeom g = spatial::DPSGeomOf(p, in[0].shape, in[1].shape, trans ? &in[2].shape : nullptr);
  WEFT_GPU_REAL_SWITCH(out[0].dtype, "_contrib_DeformablePSROIPooling", T, {
    const T* x = in[0].ptr<T>();
    const T* rois = in[1].ptr<T>();
    const T* tr = trans ? in[2].ptr<T>() : nullptr;
    T* y = out[0].ptr<T>();
    T* cnt = out[1].ptr<T>();
    const OpReq r0 = req[0], r1 = req[1];
    Launch(ctx, out[0].Size(),
           [=] WEFT_HD(int64_t i) { spatial::DPSForwardAt<T, AccT<T>>(g, x, rois, tr, r0, y, r1, cnt, i); });
  });
}

void DPSBackward(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                 const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  const bool trans = in.size() > 3;
  const spatial::DPSGeom g = spatial::DPSGeomOf(p, in[1].shape, in[2].shape, trans ? &in[3].shape : nullptr);
  WEFT_GPU_REAL_SWITCH(in[0].dtype, "_backward_DeformablePSROIPooling", T, {
    const T* gy = in[0].ptr<T>();
    const T* x = in[1].ptr<T>();
    const T* rois = in[2].ptr<T>();
    const T* tr = trans ? in[3].ptr<T>() : nullptr;
    const OpReq r0 = req[0];
    if (r0 != OpReq::kNull && out[0].Size() > 0) {
      T* gx = out[0].ptr<T>();
      Launch(ctx, g.batch * g.c,
             [=] WEFT_HD(int64_t i) { spatial::DPSBackwardDataPlane<T, AccT<T>>(g, gy, rois, tr, r0, gx, i); });
    }
    if (req[1] != OpReq::kNull && req[1] != OpReq::kAddTo) {
      T* gr = out[1].ptr<T>();
      Launch(ctx, out[1].Size(), [=] WEFT_HD(int64_t i) { gr[i] = T(0); });
    }
    if (trans && req[2] != OpReq::kNull) {
      T* gt = out[2].ptr<T>();
      const OpReq r2 = req[2];
      Launch(ctx, out[2].Size(),
             [=] WEFT_HD(int64_t i) { spatial::DPSBackwardTransAt<T, AccT<T>>(g, gy, x, rois, tr, r2, gt, i); });
    }
  });
}

}  // namespace

WEFT_GPU_KERNEL_EXPORT(DeformablePSROIPoolingGpu, DPS)                  // _contrib_DeformablePSROIPooling
WEFT_GPU_KERNEL_EXPORT(DeformablePSROIPoolingBackwardGpu, DPSBackward)  // _backward_DeformablePSROIPooling

}  // namespace cuda
}  // namespace weft
