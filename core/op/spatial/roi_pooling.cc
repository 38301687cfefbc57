// ROIPooling (MXNet 1.x) and _backward_ROIPooling: max pooling over each roi's
// bins (roi_pooling_rules.h). Outputs (output, max_idx), only output visible,
// as in MXNet. Gradient: to data only (rois get zeros).
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/graph/grad_builder.h"
#include "core/op/common/nnx_util.h"
#include "core/opdef/op_def.h"
#include "core/op/op_util.h"
#include "core/op/spatial/roi_common.h"
#include "core/op/spatial/spatial_cpu.h"
#include "core/op/spatial/spatial_gpu.h"

namespace weft {
namespace {

constexpr const char* kFwd = "ROIPooling";
constexpr const char* kBwd = "_backward_ROIPooling";

void AddRoiPoolParams(OpDef& op) {
  op.add_required_param("pooled_size", ParamType::kShape, "ROI pooling output shape (h,w) ")
      .add_required_param("spatial_scale", ParamType::kFloat,
                          "Ratio of input feature map height (or w) to raw image height (or w). Equals the "
                          "reciprocal of total stride in convolutional layers");
}

[[maybe_unused]] const bool kRoiPoolRegistered = [] {
  WEFT_REGISTER_OP(fwd, kFwd);
  fwd.describe("Performs region of interest(ROI) pooling on the input array.\n\n"
               "ROI pooling is a variant of a max pooling layer, in which the output size is fixed and region of "
               "interest is a parameter. Its purpose is to perform max pooling on the inputs of non-uniform sizes "
               "to obtain fixed-size feature maps. ROI pooling is a neural-net layer mostly used in training a "
               "`Fast R-CNN` network for object detection.\n\n"
               "This operator takes a 4D feature map as an input array and region proposals as `rois`, then it "
               "pools over sub-regions of input and produces a fixed-sized output array regardless of the ROI "
               "size. rois: (num_rois, 5) rows [batch_index, x1, y1, x2, y2], scaled by spatial_scale and rounded; "
               "output (num_rois, C, pooled_size[0], pooled_size[1]).\n\n"
               "Example::\n\n  x = [[[[  0.,   1.,   2.,   3.,   4.,   5.],\n         [  6.,   7.,   8.,   9.,  "
               "10.,  11.],\n         [ 12.,  13.,  14.,  15.,  16.,  17.],\n         [ 18.,  19.,  20.,  21.,  "
               "22.,  23.],\n         [ 24.,  25.,  26.,  27.,  28.,  29.],\n         [ 30.,  31.,  32.,  33.,  "
               "34.,  35.],\n         [ 36.,  37.,  38.,  39.,  40.,  41.],\n         [ 42.,  43.,  44.,  45.,  "
               "46.,  47.]]]]\n\n  y = [[0,0,0,4,4]]\n\n  ROIPooling(x, y, (2,2), 1.0) = [[[[ 14., 16.],\n"
               "                                  [ 26., 28.]]]]")
      .add_input("data")
      .add_input("rois")
      .set_num_outputs(2);
  fwd.num_visible_outputs = 1;
  fwd.list_output_names = [](const Params&) { return std::vector<std::string>{"output", "maxidx"}; };
  AddRoiPoolParams(fwd);
  fwd.set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        const auto ps = spatial::PooledSize(p, kFwd);
        const Shape& d = (*in)[0];
        const Shape& r = (*in)[1];
        if (!d.known() || !r.known()) return false;
        spatial::CheckRoiInputs(kFwd, d, r, 5);
        const Shape o{r[0], d[1], ps.first, ps.second};
        AssignShape(out, 0, o, std::string(kFwd) + ": output");
        AssignShape(out, 1, o, std::string(kFwd) + ": output 'maxidx'");
        return true;
      })
      .set_infer_type(nnx::FloatSameTypeInfer)
      .set_compute_cpu(spatial_cpu::ROIPooling)
      .set_compute_gpu(WEFT_GPU(cuda::ROIPoolingGpu))
      .set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) {
        return ViaBackwardOp(n, kBwd, {og[0], n->inputs[0], n->inputs[1]});
      });

  WEFT_REGISTER_OP(bwd, kBwd);
  bwd.describe("Gradient of ROIPooling: inputs (out_grad, data, rois); each bin's out_grad goes to its argmax in "
               "data (recomputed, the same rule as the forward); rois get zeros.")
      .add_input("out_grad")
      .add_input("data")
      .add_input("rois")
      .set_num_outputs(2);
  bwd.list_output_names = [](const Params&) { return std::vector<std::string>{"data_grad", "rois_grad"}; };
  AddRoiPoolParams(bwd);
  bwd.set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        const auto ps = spatial::PooledSize(p, kBwd);
        for (const Shape& s : *in)
          if (!s.known()) return false;
        const Shape& d = (*in)[1];
        const Shape& r = (*in)[2];
        spatial::CheckRoiInputs(kBwd, d, r, 5);
        const Shape want{r[0], d[1], ps.first, ps.second};
        WEFT_CHECK((*in)[0] == want, kShape) << kBwd << ": input 'out_grad' has shape " << (*in)[0].ToString()
                                             << ", expected " << want.ToString();
        AssignShape(out, 0, d, std::string(kBwd) + ": output 'data_grad'");
        AssignShape(out, 1, r, std::string(kBwd) + ": output 'rois_grad'");
        return true;
      })
      .set_infer_type(nnx::FloatSameTypeInfer)
      .set_compute_cpu(spatial_cpu::ROIPoolingBackward)
      .set_compute_gpu(WEFT_GPU(cuda::ROIPoolingBackwardGpu));
  return true;
}();

}  // namespace
}  // namespace weft
