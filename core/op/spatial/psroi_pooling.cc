// _contrib_PSROIPooling (MXNet 1.x contrib, R-FCN) and _backward_PSROIPooling:
// position-sensitive average pooling over roi bins (psroi_pooling_rules.h).
// Gradient: to data only (rois get zeros, as in MXNet).
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/graph/grad_builder.h"
#include "core/op/common/nnx_util.h"
#include "core/opdef/op_def.h"
#include "core/op/op_util.h"
#include "core/op/spatial/psroi_pooling_rules.h"
#include "core/op/spatial/roi_common.h"
#include "core/op/spatial/spatial_cpu.h"
#include "core/op/spatial/spatial_gpu.h"

namespace weft {
namespace {

constexpr const char* kFwd = "_contrib_PSROIPooling";
constexpr const char* kBwd = "_backward_PSROIPooling";

void AddPSParams(OpDef& op) {
  op.add_required_param("spatial_scale", ParamType::kFloat,
                        "Ratio of input feature map height (or w) to raw image height (or w). Equals the reciprocal "
                        "of total stride in convolutional layers")
      .add_required_param("output_dim", ParamType::kInt, "fix output dim")
      .add_required_param("pooled_size", ParamType::kInt, "fix pooled size")
      .add_param("group_size", ParamType::kInt, "0", "fix group size");
}

// The output (R, output_dim, pooled, pooled) after checking the parameters and inputs.
Shape PSOutShape(const Params& p, const std::string& op, const Shape& d, const Shape& r) {
  spatial::CheckRoiInputs(op, d, r, 5);
  const int64_t od = p.GetInt("output_dim"), ps = p.GetInt("pooled_size"), gs = spatial::PSGroupSize(p);
  WEFT_CHECK(od > 0 && ps > 0 && gs > 0, kInvalidArgument)
      << op << ": parameters 'output_dim', 'pooled_size' and 'group_size' must be positive, got " << od << ", " << ps
      << ", " << gs;
  int64_t channels = 0;  // checked: output_dim or group_size at 2**62 overflowed
  const bool overflow = __builtin_mul_overflow(od, gs, &channels) || __builtin_mul_overflow(channels, gs, &channels);
  WEFT_CHECK(!overflow && d[1] == channels, kShape)
      << op << ": input 'data' " << d.ToString() << " must have output_dim * group_size^2 = " << od << " * " << gs
      << "^2 channels";
  return Shape{r[0], od, ps, ps};
}

[[maybe_unused]] const bool kPSRegistered = [] {
  WEFT_REGISTER_OP(fwd, kFwd);
  fwd.describe("Performs region-of-interest pooling on inputs. Resize bounding box coordinates by spatial_scale "
               "and crop input feature maps accordingly. The cropped feature maps are pooled by "
               "position-sensitive average pooling (R-FCN): output channel c of bin (i, j) averages input channel "
               "(c * group_size + floor(i * group_size / pooled_size)) * group_size + floor(j * group_size / "
               "pooled_size). data (batch, output_dim * group_size^2, H, W), rois (num_rois, 5); output (num_rois, "
               "output_dim, pooled_size, pooled_size).")
      .add_input("data")
      .add_input("rois");
  AddPSParams(fwd);
  fwd.set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        if (!(*in)[0].known() || !(*in)[1].known()) return false;
        AssignShape(out, 0, PSOutShape(p, kFwd, (*in)[0], (*in)[1]), std::string(kFwd) + ": output");
        return true;
      })
      .set_infer_type(nnx::FloatSameTypeInfer)
      .set_compute_cpu(spatial_cpu::PSROIPooling)
      .set_compute_gpu(WEFT_GPU(cuda::PSROIPoolingGpu))
      .set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) {
        return ViaBackwardOp(n, kBwd, {og[0], n->inputs[0], n->inputs[1]});
      });

  WEFT_REGISTER_OP(bwd, kBwd);
  bwd.describe("Gradient of _contrib_PSROIPooling: inputs (out_grad, data, rois) (data for its shape); each bin's "
               "out_grad is spread evenly over the bin of its input channel; rois get zeros.")
      .add_input("out_grad")
      .add_input("data")
      .add_input("rois")
      .set_num_outputs(2);
  bwd.list_output_names = [](const Params&) { return std::vector<std::string>{"data_grad", "rois_grad"}; };
  AddPSParams(bwd);
  bwd.set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        for (const Shape& s : *in)
          if (!s.known()) return false;
        const Shape want = PSOutShape(p, kBwd, (*in)[1], (*in)[2]);
        WEFT_CHECK((*in)[0] == want, kShape) << kBwd << ": input 'out_grad' has shape " << (*in)[0].ToString()
                                             << ", expected " << want.ToString();
        AssignShape(out, 0, (*in)[1], std::string(kBwd) + ": output 'data_grad'");
        AssignShape(out, 1, (*in)[2], std::string(kBwd) + ": output 'rois_grad'");
        return true;
      })
      .set_infer_type(nnx::FloatSameTypeInfer)
      .set_compute_cpu(spatial_cpu::PSROIPoolingBackward)
      .set_compute_gpu(WEFT_GPU(cuda::PSROIPoolingBackwardGpu));
  return true;
}();

}  // namespace
}  // namespace weft
