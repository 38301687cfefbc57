// CPU kernel of _contrib_RROIAlign: the rule of rroi_align_rules.h over the
// output elements.
#include "core/op/common/nnx_cpu.h"
#include "core/op/op_util.h"
#include "core/op/spatial/rroi_align_rules.h"
#include "core/op/spatial/spatial_cpu.h"

namespace weft {
namespace spatial_cpu {

void RROIAlign(const OpContext&, const Params& p, const std::vector<TensorView>& in, const std::vector<OpReq>& req,
               const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull || out[0].Size() == 0) return;
  const spatial::RRoiGeom g = spatial::RRoiGeomOf(p, in[0].shape, out[0].shape);
  WEFT_NNX_FLOAT_SWITCH(out[0].dtype, "_contrib_RROIAlign", T, {
    const T* x = in[0].ptr<T>();
    const T* rois = in[1].ptr<T>();
    T* y = out[0].ptr<T>();
    const OpReq r = req[0];
    ParallelFor(out[0].Size(), 64, [&](int64_t b, int64_t e) {
      for (int64_t i = b; i < e; ++i) spatial::RRoiAlignForwardAt<T, spatial::Acc<T>>(g, x, rois, r, y, i);
    });
  })
}

}  // namespace spatial_cpu
}  // namespace weft
