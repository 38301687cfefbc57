// Correlation (MXNet 1.x, FlowNet's correlation layer) and
// _backward_Correlation (correlation_rules.h). Outputs (output, tmp1, tmp2) as
// in MXNet: the hidden tmp1/tmp2 are the padded inputs in (N, H + 2 pad,
// W + 2 pad, C). Gradients flow to both inputs.
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/graph/grad_builder.h"
#include "core/op/common/nnx_util.h"
#include "core/opdef/op_def.h"
#include "core/op/op_util.h"
#include "core/op/spatial/correlation_rules.h"
#include "core/op/spatial/spatial_cpu.h"
#include "core/op/spatial/spatial_gpu.h"

namespace weft {
namespace {

void AddCorrParams(OpDef& op) {
  op.add_param("kernel_size", ParamType::kInt, "1", "kernel size for Correlation must be an odd number")
      .add_param("max_displacement", ParamType::kInt, "1", "Max displacement of Correlation ")
      .add_param("stride1", ParamType::kInt, "1", "stride1 quantize data1 globally")
      .add_param("stride2", ParamType::kInt, "1", "stride2 quantize data2 within the neighborhood centered around data1")
      .add_param("pad_size", ParamType::kInt, "0", "pad for Correlation")
      .add_param("is_multiply", ParamType::kBool, "True",
                 "operation type is either multiplication or subduction");
}

void CheckPair(const std::string& op, const Shape& a, const Shape& b) {
  WEFT_CHECK(a.ndim() == 4, kShape) << op << ": input 'data1' must be 4-D (batch, channel, height, width), got "
                                    << a.ToString();
  WEFT_CHECK(a == b, kShape) << op << ": inputs 'data1' " << a.ToString() << " and 'data2' " << b.ToString()
                             << " must have the same shape";
}

[[maybe_unused]] const bool kCorrRegistered = [] {
  WEFT_REGISTER_OP(fwd, "Correlation");
  fwd.describe("Applies correlation to inputs.\n\n"
               "The correlation layer performs multiplicative patch comparisons between two feature maps (FlowNet). "
               "For output point (i, j) patch 1 sits at (i, j) * stride1 + max_displacement of the padded data1; "
               "output channel t compares it with the patch of data2 displaced by ((t % G) - R, (t / G) - R) * "
               "stride2, G = 2 R + 1, R = max_displacement / stride2: the sum over a kernel_size x kernel_size "
               "patch and all channels of data1 * data2 (is_multiply) or |data1 - data2|, divided by "
               "kernel_size^2 * channels. Output (batch, G^2, ceil((H + 2 pad - 2 border) / stride1), ...), "
               "border = max_displacement + (kernel_size - 1) / 2.")
      .add_input("data1")
      .add_input("data2")
      .set_num_outputs(3);
  fwd.num_visible_outputs = 1;
  fwd.list_output_names = [](const Params&) { return std::vector<std::string>{"output", "tmp1", "tmp2"}; };
  AddCorrParams(fwd);
  fwd.set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        if (!(*in)[0].known() || !(*in)[1].known()) return false;
        CheckPair("Correlation", (*in)[0], (*in)[1]);
        const spatial::CorrGeom g = spatial::CorrGeomOf(p, "Correlation", (*in)[0]);
        AssignShape(out, 0, Shape{g.n, g.OC(), g.oh, g.ow}, "Correlation: output");
        const Shape tmp{g.n, g.h + 2 * g.pad, g.w + 2 * g.pad, g.c};
        AssignShape(out, 1, tmp, "Correlation: output 'tmp1'");
        AssignShape(out, 2, tmp, "Correlation: output 'tmp2'");
        return true;
      })
      .set_infer_type(nnx::FloatSameTypeInfer)
      .set_compute_cpu(spatial_cpu::Correlation)
      .set_compute_gpu(WEFT_GPU(cuda::CorrelationGpu))
      .set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) {
        return ViaBackwardOp(n, "_backward_Correlation", {og[0], n->inputs[0], n->inputs[1]});
      });

  WEFT_REGISTER_OP(bwd, "_backward_Correlation");
  bwd.describe("Gradient of Correlation: inputs (out_grad, data1, data2); outputs the gradients of data1 and data2.")
      .add_input("out_grad")
      .add_input("data1")
      .add_input("data2")
      .set_num_outputs(2);
  bwd.list_output_names = [](const Params&) { return std::vector<std::string>{"data1_grad", "data2_grad"}; };
  AddCorrParams(bwd);
  bwd.set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        for (const Shape& s : *in)
          if (!s.known()) return false;
        CheckPair("_backward_Correlation", (*in)[1], (*in)[2]);
        const spatial::CorrGeom g = spatial::CorrGeomOf(p, "_backward_Correlation", (*in)[1]);
        const Shape want{g.n, g.OC(), g.oh, g.ow};
        WEFT_CHECK((*in)[0] == want, kShape) << "_backward_Correlation: input 'out_grad' has shape "
                                             << (*in)[0].ToString() << ", expected " << want.ToString();
        AssignShape(out, 0, (*in)[1], "_backward_Correlation: output 'data1_grad'");
        AssignShape(out, 1, (*in)[2], "_backward_Correlation: output 'data2_grad'");
        return true;
      })
      .set_infer_type(nnx::FloatSameTypeInfer)
      .set_compute_cpu(spatial_cpu::CorrelationBackward)
      .set_compute_gpu(WEFT_GPU(cuda::CorrelationBackwardGpu));
  return true;
}();

}  // namespace
}  // namespace weft
