// _contrib_RROIAlign (MXNet 1.x contrib): RoIAlign over rotated rois
// (rroi_align_rules.h). MXNet implements no gradient for it (its backward
// aborts "Not Implemented"), so none is declared here.
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/op/common/nnx_util.h"
#include "core/opdef/op_def.h"
#include "core/op/op_util.h"
#include "core/op/spatial/roi_common.h"
#include "core/op/spatial/spatial_cpu.h"
#include "core/op/spatial/spatial_gpu.h"

namespace weft {
namespace {

constexpr const char* kOp = "_contrib_RROIAlign";

[[maybe_unused]] const bool kRRoiRegistered = [] {
  WEFT_REGISTER_OP(op, kOp);
  op.describe("Performs Rotated ROI Align on the input array.\n\n"
              "This operator takes a 4D feature map as an input array and region proposals as `rois`, then align "
              "the feature map over sub-regions of input and produces a fixed-sized output array. rois: (num_rois, "
              "6) rows [batch_index, center_x, center_y, width, height, theta] with theta in degrees; the "
              "sampling grid of each bin is rotated by theta about the roi's centre and read by bilinear "
              "interpolation, and each bin averages its samples. Output (num_rois, C, pooled_size[0], "
              "pooled_size[1]). Not differentiable (as in MXNet).")
      .add_input("data")
      .add_input("rois")
      .add_required_param("pooled_size", ParamType::kShape, "RROI align output shape (h,w) ")
      .add_required_param("spatial_scale", ParamType::kFloat,
                          "Ratio of input feature map height (or width) to raw image height (or width). Equals the "
                          "reciprocal of total stride in convolutional layers")
      .add_param("sampling_ratio", ParamType::kInt, "-1", "Optional sampling ratio of RROI align, using adaptive size by default.")
      .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        const auto ps = spatial::PooledSize(p, kOp);
        const Shape& d = (*in)[0];
        const Shape& r = (*in)[1];
        if (!d.known() || !r.known()) return false;
        WEFT_CHECK(d.ndim() == 4, kShape) << kOp << ": input 'data' must be 4-D (N, C, H, W), got " << d.ToString();
        WEFT_CHECK(r.ndim() == 2 && r[1] == 6, kShape)
            << kOp << ": input 'rois' must be 2-D (num_rois, 6) of [batch_index, center_x, center_y, width, height, "
            << "theta], got " << r.ToString();
        WEFT_CHECK(r[0] == 0 || (d[2] > 0 && d[3] > 0), kShape)
            << kOp << ": input 'data' " << d.ToString() << " has no pixels for the " << r[0] << " rois to pool";
        AssignShape(out, 0, Shape{r[0], d[1], ps.first, ps.second}, std::string(kOp) + ": output");
        return true;
      })
      .set_infer_type(nnx::FloatSameTypeInfer)
      .set_compute_cpu(spatial_cpu::RROIAlign)
      .set_compute_gpu(WEFT_GPU(cuda::RROIAlignGpu));
  return true;
}();

}  // namespace
}  // namespace weft
