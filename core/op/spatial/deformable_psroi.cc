// _contrib_DeformablePSROIPooling (MXNet 1.x contrib, deformable R-FCN) and
// its backward op (deformable_psroi_rules.h). Inputs (data, rois[, trans]),
// outputs (output, top_count) with only output visible, as in MXNet.
// Gradients flow to data and trans (rois get zeros).
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

constexpr const char* kFwd = "_contrib_DeformablePSROIPooling";
constexpr const char* kBwd = "_backward_DeformablePSROIPooling";

void AddDPSParams(OpDef& op) {
  op.add_required_param("spatial_scale", ParamType::kFloat,
                        "Ratio of input feature map height (or w) to raw image height (or w). Equals the reciprocal "
                        "of total stride in convolutional layers")
      .add_required_param("output_dim", ParamType::kInt, "fix output dim")
      .add_required_param("group_size", ParamType::kInt, "fix group size")
      .add_required_param("pooled_size", ParamType::kInt, "fix pooled size")
      .add_param("part_size", ParamType::kInt, "0", "fix part size")
      .add_param("sample_per_part", ParamType::kInt, "1", "fix samples per part")
      .add_param("trans_std", ParamType::kFloat, "0", "fix transition std")
      .add_param("no_trans", ParamType::kBool, "False", "Whether to disable trans parameter.");
}

bool NoTrans(const Params& p) { return p.GetBool("no_trans"); }

// Checks the inputs; returns the output shape.
Shape DPSOut(const Params& p, const std::string& op, const Shape& d, const Shape& r, const Shape* trans) {
  spatial::CheckRoiInputs(op, d, r, 5);
  const int64_t od = p.GetInt("output_dim"), gs = p.GetInt("group_size"), ps = p.GetInt("pooled_size");
  const int64_t part = p.GetInt("part_size") == 0 ? ps : p.GetInt("part_size");
  WEFT_CHECK(od > 0 && gs > 0 && ps > 0 && part > 0 && p.GetInt("sample_per_part") > 0, kInvalidArgument)
      << op << ": parameters 'output_dim', 'group_size', 'pooled_size', 'part_size' and 'sample_per_part' must be "
      << "positive";
  int64_t channels = 0;  // checked: output_dim or group_size at 2**62 overflowed
  const bool overflow = __builtin_mul_overflow(od, gs, &channels) || __builtin_mul_overflow(channels, gs, &channels);
  WEFT_CHECK(!overflow && d[1] == channels, kShape)
      << op << ": input 'data' " << d.ToString() << " must have output_dim * group_size^2 = " << od << " * " << gs
      << "^2 channels";
  if (trans != nullptr) {
    const Shape& t = *trans;
    WEFT_CHECK(t.ndim() == 4 && t[0] == r[0] && t[1] >= 2 && t[1] % 2 == 0 && od % (t[1] / 2) == 0 && t[2] == part &&
                   t[3] == part,
               kShape)
        << op << ": input 'trans' must be (num_rois, 2 * num_classes, part_size, part_size) = (" << r[0]
        << ", 2k, " << part << ", " << part << ") with num_classes dividing output_dim " << od << ", got "
        << t.ToString();
  }
  return Shape{r[0], od, ps, ps};
}

std::vector<std::string> FwdNames(const Params& p) {
  return NoTrans(p) ? std::vector<std::string>{"data", "rois"} : std::vector<std::string>{"data", "rois", "trans"};
}

[[maybe_unused]] const bool kDPSRegistered = [] {
  WEFT_REGISTER_OP(fwd, kFwd);
  fwd.describe("Performs deformable position-sensitive region-of-interest pooling on inputs (Dai et al., Deformable "
               "Convolutional Networks, 2017). Each bin of the pooled_size x pooled_size grid is shifted by the "
               "offsets in `trans` (times trans_std and the roi size) and averages sample_per_part^2 bilinear "
               "samples of its position-sensitive input channel (as PSROIPooling). data (batch, output_dim * "
               "group_size^2, H, W), rois (num_rois, 5), trans (num_rois, 2 * num_classes, part_size, part_size) "
               "unless no_trans; output (num_rois, output_dim, pooled_size, pooled_size).")
      .add_input("data")
      .add_input("rois")
      .add_input("trans")
      .set_num_outputs(2);
  fwd.num_visible_outputs = 1;
  fwd.list_input_names = FwdNames;
  fwd.list_output_names = [](const Params&) { return std::vector<std::string>{"output", "top_count"}; };
  AddDPSParams(fwd);
  fwd.set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        for (const Shape& s : *in)
          if (!s.known()) return false;
        const Shape o = DPSOut(p, kFwd, (*in)[0], (*in)[1], NoTrans(p) ? nullptr : &(*in)[2]);
        AssignShape(out, 0, o, std::string(kFwd) + ": output");
        AssignShape(out, 1, o, std::string(kFwd) + ": output 'top_count'");
        return true;
      })
      .set_infer_type(nnx::FloatSameTypeInfer)
      .set_compute_cpu(spatial_cpu::DeformablePSROIPooling)
      .set_compute_gpu(WEFT_GPU(cuda::DeformablePSROIPoolingGpu))
      .set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) {
        std::vector<NodeEntry> ins = {og[0]};
        ins.insert(ins.end(), n->inputs.begin(), n->inputs.end());
        return ViaBackwardOp(n, kBwd, ins);
      });

  WEFT_REGISTER_OP(bwd, kBwd);
  bwd.describe("Gradient of _contrib_DeformablePSROIPooling: inputs (out_grad, data, rois[, trans]); outputs the "
               "gradients of data, rois (zeros) and trans.")
      .add_input("out_grad")
      .add_input("data")
      .add_input("rois")
      .add_input("trans");
  bwd.list_input_names = [](const Params& p) {
    std::vector<std::string> r = {"out_grad"};
    for (const std::string& s : FwdNames(p)) r.push_back(s);
    return r;
  };
  bwd.set_num_outputs([](const Params& p) { return NoTrans(p) ? 2 : 3; });
  bwd.list_output_names = [](const Params& p) {
    std::vector<std::string> r;
    for (const std::string& s : FwdNames(p)) r.push_back(s + "_grad");
    return r;
  };
  AddDPSParams(bwd);
  bwd.set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        for (const Shape& s : *in)
          if (!s.known()) return false;
        const Shape o = DPSOut(p, kBwd, (*in)[1], (*in)[2], NoTrans(p) ? nullptr : &(*in)[3]);
        WEFT_CHECK((*in)[0] == o, kShape) << kBwd << ": input 'out_grad' has shape " << (*in)[0].ToString()
                                          << ", expected " << o.ToString();
        for (size_t i = 0; i + 1 < in->size(); ++i) AssignShape(out, i, (*in)[i + 1], std::string(kBwd) + ": output");
        return true;
      })
      .set_infer_type(nnx::FloatSameTypeInfer)
      .set_compute_cpu(spatial_cpu::DeformablePSROIPoolingBackward)
      .set_compute_gpu(WEFT_GPU(cuda::DeformablePSROIPoolingBackwardGpu));
  return true;
}();

}  // namespace
}  // namespace weft
