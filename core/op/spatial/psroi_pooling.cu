// GPU kernels of _contrib_PSROIPooling and _backward_PSROIPooling: the rule of
// psroi_pooling_rules.h, one index per output element / data plane.
#include <vector>

#include "core/op/common/gpu_kernel.h"
#include "core/op/spatial/psroi_pooling_rules.h"

namespace weft {
namespace cuda {
namespace {

void PSRoi(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in, const std::vector<OpReq>& req,
           const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull || out[0].Size() == 0) return;
  const spatial::PSRoiGeom g = spatial::PSRoiGeomOf(p, in[0].shape, in[1].shape);
  WEFT_GPU_REAL_SWITCH(out[0].dtype, "_contrib_PSROIPooling", T, {
    const T* x = in[0].ptr<T>();
    const T* rois = in[1].ptr<T>();
    T* y = out[0].ptr<T>();
    const OpReq r = req[0];
    Launch(ctx, out[0].Size(), [=] WEFT_HD(int64_t i) { spatial::PSRoiForwardAt<T, AccT<T>>(g, x, rois, r, y, i); });
  });
}

void PSRoiBackward(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                   const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  const spatial::PSRoiGeom g = spatial::PSRoiGeomOf(p, in[1].shape, in[2].shape);
  WEFT_GPU_REAL_SWITCH(in[0].dtype, "_backward_PSROIPooling", T, {
    if (req[0] != OpReq::kNull && out[0].Size() > 0) {
      const T* gy = in[0].ptr<T>();
      const T* rois = in[2].ptr<T>();
      T* gx = out[0].ptr<T>();
      const OpReq r = req[0];
      Launch(ctx, g.batch * g.c, [=] WEFT_HD(int64_t i) { spatial::PSRoiBackwardPlane<T, AccT<T>>(g, gy, rois, r, gx, i); });
    }
    if (req[1] != OpReq::kNull && req[1] != OpReq::kAddTo) {
      T* gr = out[1].ptr<T>();
      Launch(ctx, out[1].Size(), [=] WEFT_HD(int64_t i) { gr[i] = T(0); });
    }
  });
}

}  // namespace

WEFT_GPU_KERNEL_EXPORT(PSROIPoolingGpu, PSRoi)                  // _contrib_PSROIPooling
WEFT_GPU_KERNEL_EXPORT(PSROIPoolingBackwardGpu, PSRoiBackward)  // _backward_PSROIPooling

}  // namespace cuda
}  // namespace weft
