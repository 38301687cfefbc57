// GPU kernels of ROIPooling and _backward_ROIPooling: the rule of
// roi_pooling_rules.h, one index per output element / data plane.
#include <vector>

#include "core/op/common/gpu_kernel.h"
#include "core/op/spatial/roi_pooling_rules.h"

namespace weft {
namespace cuda {
namespace {

void RoiPool(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in, const std::vector<OpReq>& req,
             const std::vector<TensorView>& out) {
  if (out[0].Size() == 0) return;
  const spatial::RoiPoolGeom g = spatial::RoiPoolGeomOf(p, in[0].shape, in[1].shape, out[0].shape);
  WEFT_GPU_REAL_SWITCH(out[0].dtype, "ROIPooling", T, {
    const T* x = in[0].ptr<T>();
    const T* rois = in[1].ptr<T>();
    T* y = out[0].ptr<T>();
    T* idx = out[1].ptr<T>();
    const OpReq r = req[0], ri = req[1];
    Launch(ctx, out[0].Size(),
           [=] WEFT_HD(int64_t i) { spatial::RoiPoolForwardAt<T, AccT<T>>(g, x, rois, r, y, ri, idx, i); });
  });
}

void RoiPoolBackward(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                     const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  const spatial::RoiPoolGeom g = spatial::RoiPoolGeomOf(p, in[1].shape, in[2].shape, in[0].shape);
  WEFT_GPU_REAL_SWITCH(in[0].dtype, "_backward_ROIPooling", T, {
    if (req[0] != OpReq::kNull && out[0].Size() > 0) {
      const T* gy = in[0].ptr<T>();
      const T* x = in[1].ptr<T>();
      const T* rois = in[2].ptr<T>();
      T* gx = out[0].ptr<T>();
      const OpReq r = req[0];
      Launch(ctx, g.batch * g.c,
             [=] WEFT_HD(int64_t i) { spatial::RoiPoolBackwardPlane<T, AccT<T>>(g, gy, x, rois, r, gx, i); });
    }
    if (req[1] != OpReq::kNull && req[1] != OpReq::kAddTo) {
      T* gr = out[1].ptr<T>();
      Launch(ctx, out[1].Size(), [=] WEFT_HD(int64_t i) { gr[i] = T(0); });
    }
  });
}

}  // namespace

WEFT_GPU_KERNEL_EXPORT(ROIPoolingGpu, RoiPool)                  // ROIPooling
WEFT_GPU_KERNEL_EXPORT(ROIPoolingBackwardGpu, RoiPoolBackward)  // _backward_ROIPooling

}  // namespace cuda
}  // namespace weft
