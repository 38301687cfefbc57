// _contrib_ROIAlign (MXNet 1.x contrib) and _backward_ROIAlign: average
// pooling of bilinear samples over each roi's bins (roi_align_rules.h).
// Gradient: to data only (rois get zeros, as in MXNet).
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

constexpr const char* kFwd = "_contrib_ROIAlign";
constexpr const char* kBwd = "_backward_ROIAlign";

void AddRoiAlignParams(OpDef& op) {
  op.add_required_param("pooled_size", ParamType::kShape, "ROI Align output roi feature map height and width: (h, w)")
      .add_required_param("spatial_scale", ParamType::kFloat,
                          "Ratio of input feature map height (or w) to raw image height (or w). Equals the "
                          "reciprocal of total stride in convolutional layers")
      .add_param("sample_ratio", ParamType::kInt, "-1", "Optional sampling ratio of ROI align, using adaptive size by default.")
      .add_param("position_sensitive", ParamType::kBool, "False",
                 "Whether to perform position-sensitive RoI pooling. PSRoIPooling is first proposaled by R-FCN and "
                 "it can reduce the input channels by ph*pw times, where (ph, pw) is the pooled_size")
      .add_param("aligned", ParamType::kBool, "False",
                 "Center-aligned ROIAlign introduced in Detectron2. To enable, set aligned to True.");
}

// The output channels: C, or C / (ph * pw) when position-sensitive.
int64_t OutChannels(const Params& p, const std::string& op, const Shape& data, int64_t ph, int64_t pw) {
  if (!p.GetBool("position_sensitive")) return data[1];
  WEFT_CHECK(data[1] % (ph * pw) == 0, kShape)
      << op << ": with position_sensitive, the channels of input 'data' " << data.ToString()
      << " must be a multiple of pooled_size h * w = " << ph * pw;
  return data[1] / (ph * pw);
}

[[maybe_unused]] const bool kRoiAlignRegistered = [] {
  WEFT_REGISTER_OP(fwd, kFwd);
  fwd.describe("This operator takes a 4D feature map as an input array and region proposals as `rois`, then align "
               "the feature map over sub-regions of input and produces a fixed-sized output array. This operator is "
               "typically used in Faster R-CNN & Mask R-CNN networks.\n\n"
               "Different from ROI pooling, ROI Align removes the harsh quantization, properly aligning the extracted "
               "features with the input. RoIAlign computes the value of each sampling point by bilinear "
               "interpolation from the nearby grid points on the feature map; each bin averages its samples.\n\n"
               "rois: (num_rois, 5) rows [batch_index, x1, y1, x2, y2]; output (num_rois, C, ph, pw) (C / (ph * pw) "
               "channels when position_sensitive).\n\nReferences: He, Kaiming, et al. \"Mask R-CNN.\" ICCV, 2017")
      .add_input("data")
      .add_input("rois");
  AddRoiAlignParams(fwd);
  fwd.set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        const auto ps = spatial::PooledSize(p, kFwd);
        const Shape& d = (*in)[0];
        const Shape& r = (*in)[1];
        if (!d.known() || !r.known()) return false;
        spatial::CheckRoiInputs(kFwd, d, r, 4);
        AssignShape(out, 0, Shape{r[0], OutChannels(p, kFwd, d, ps.first, ps.second), ps.first, ps.second},
                    std::string(kFwd) + ": output");
        return true;
      })
      .set_infer_type(nnx::FloatSameTypeInfer)
      .set_compute_cpu(spatial_cpu::ROIAlign)
      .set_compute_gpu(WEFT_GPU(cuda::ROIAlignGpu))
      .set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) {
        return ViaBackwardOp(n, kBwd, {og[0], n->inputs[0], n->inputs[1]});
      });

  WEFT_REGISTER_OP(bwd, kBwd);
  bwd.describe("Gradient of _contrib_ROIAlign: inputs (out_grad, data, rois) (data for its shape); outputs the "
               "gradient of data (out_grad spread over each sample's four bilinear taps) and of rois (zeros).")
      .add_input("out_grad")
      .add_input("data")
      .add_input("rois")
      .set_num_outputs(2);
  AddRoiAlignParams(bwd);
  bwd.list_output_names = [](const Params&) { return std::vector<std::string>{"data_grad", "rois_grad"}; };
  bwd.set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        const auto ps = spatial::PooledSize(p, kBwd);
        for (const Shape& s : *in)
          if (!s.known()) return false;
        const Shape& g = (*in)[0];
        const Shape& d = (*in)[1];
        const Shape& r = (*in)[2];
        spatial::CheckRoiInputs(kBwd, d, r, 4);
        const Shape want{r[0], OutChannels(p, kBwd, d, ps.first, ps.second), ps.first, ps.second};
        WEFT_CHECK(g == want, kShape) << kBwd << ": input 'out_grad' has shape " << g.ToString() << ", expected "
                                      << want.ToString();
        AssignShape(out, 0, d, std::string(kBwd) + ": output 'data_grad'");
        AssignShape(out, 1, r, std::string(kBwd) + ": output 'rois_grad'");
        return true;
      })
      .set_infer_type(nnx::FloatSameTypeInfer)
      .set_compute_cpu(spatial_cpu::ROIAlignBackward)
      .set_compute_gpu(WEFT_GPU(cuda::ROIAlignBackwardGpu));
  return true;
}();

}  // namespace
}  // namespace weft
