// GPU kernel of _contrib_RROIAlign: the rule of rroi_align_rules.h, one index
// per output element.
#include <vector>

#include "core/op/common/gpu_kernel.h"
#include "core/op/spatial/rroi_align_rules.h"

namespace weft {
namespace cuda {
namespace {

void RRoiAlign(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in, const std::vector<OpReq>& req,
               const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull || out[0].Size() == 0) return;
  const spatial::RRoiGeom g = spatial::RRoiGeomOf(p, in[0].shape, out[0].shape);
  WEFT_GPU_REAL_SWITCH(out[0].dtype, "_contrib_RROIAlign", T, {
    const T* x = in[0].ptr<T>();
    const T* rois = in[1].ptr<T>();
    T* y = out[0].ptr<T>();
    const OpReq r = req[0];
    Launch(ctx, out[0].Size(), [=] WEFT_HD(int64_t i) { spatial::RRoiAlignForwardAt<T, AccT<T>>(g, x, rois, r, y, i); });
  });
}

}  // namespace

WEFT_GPU_KERNEL_EXPORT(RROIAlignGpu, RRoiAlign)  // _contrib_RROIAlign

}  // namespace cuda
}  // namespace weft
