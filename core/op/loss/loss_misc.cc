// Small operators used around losses and gradients (MXNet 1.x): smooth_l1
// and its backward, BlockGrad (stop_gradient), make_loss, MakeLoss and its
// backward. Kernels: core/op/loss/loss_cpu.cc.
//
// MXNet's `identity` is an alias of `_copy`; in Weft `_copy` is an alias of
// _copyto (core/op/shape/reshape.cc), so `identity` belongs there, not here (an
// alias added from this file would depend on static initialisation order).
#include <string>
#include <vector>

#include "core/graph/grad_builder.h"
#include "core/op/common/copy_cpu.h"
#include "core/op/loss/loss_cpu.h"
#include "core/op/common/nnx_util.h"
#include "core/opdef/op_def.h"
#include "core/op/loss/loss_misc_gpu.h"
#include "core/op/elemwise/elemwise_gpu.h"

namespace weft {
namespace {

void CopyCompute(const OpContext&, const Params&, const std::vector<TensorView>& in, const std::vector<OpReq>& req,
                 const std::vector<TensorView>& out) {
  tensor_cpu::ConvertCopy(in[0], req[0], out[0]);
}

void AddScalarParams(OpDef& op) {
  op.add_param("scalar", ParamType::kFloat, "1", "The sigma of the smooth L1 function.")
      .add_param("is_int", ParamType::kBool, "True",
                 "Indicate whether scalar input is int type (accepted for MXNet 1.9 compatibility).");
}

[[maybe_unused]] const bool kSmoothL1Registered = [] {
  WEFT_REGISTER_OP(fwd, "smooth_l1").set_compute_gpu(WEFT_GPU(cuda::SmoothL1Gpu));
  fwd.describe("Calculate Smooth L1 Loss(lhs, scalar) by summing\n\n"
               ".. math::\n\n    f(x) =\n    \\begin{cases}\n    (\\sigma x)^2/2,& \\text{if }x < 1/\\sigma^2\\\\\n"
               "    |x|-0.5/\\sigma^2,& \\text{otherwise}\n    \\end{cases}\n\n"
               "where :math:`x` is an element of the tensor *lhs* and :math:`\\sigma` is the scalar.\n\n"
               "Example::\n\n  smooth_l1([1, 2, 3, 4]) = [0.5, 1.5, 2.5, 3.5]\n"
               "  smooth_l1([1, 2, 3, 4], scalar=1) = [0.5, 1.5, 2.5, 3.5]")
      .add_input("data");
  AddScalarParams(fwd);
  fwd.set_infer_type(nnx::FloatSameTypeInfer)
      .set_compute_cpu([](const OpContext&, const Params& p, const std::vector<TensorView>& in,
                          const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
        nnx_cpu::SmoothL1Forward(in[0], p.GetFloat("scalar"), req[0], out[0]);
      })
      .add_inplace(0, 0)
      .set_fusion(FusionClass::kElementwise)
      .set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) {
        return ViaBackwardOp(n, "_backward_smooth_l1", {og[0], n->inputs[0]});
      });

  WEFT_REGISTER_OP(bwd, "_backward_smooth_l1").set_compute_gpu(WEFT_GPU(cuda::BackwardSmoothL1Gpu));
  bwd.describe("Gradient of smooth_l1 from (out_grad, data).").add_input("out_grad").add_input("data");
  AddScalarParams(bwd);
  bwd.set_infer_type(nnx::FloatSameTypeInfer)
      .set_compute_cpu([](const OpContext&, const Params& p, const std::vector<TensorView>& in,
                          const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
        nnx_cpu::SmoothL1Backward(in[0], in[1], p.GetFloat("scalar"), req[0], out[0]);
      })
      .add_inplace(0, 0)
      .set_fusion(FusionClass::kElementwise);
  return true;
}();

WEFT_REGISTER_OP("BlockGrad").set_compute_gpu(WEFT_GPU(cuda::CopyGpu("BlockGrad")))
    .set_fused_form(FusedForm::kIdentity)
    .describe("Stops gradient computation.\n\n"
              "Stops the accumulated gradient of the inputs from flowing through this operator in the backward "
              "direction. In other words, this operator prevents the contribution of its inputs to be taken "
              "into account for computing gradients. The forward pass is the identity.\n\n"
              "Example::\n\n  v1 = [1, 2]\n  v2 = [0, 1]\n  a = Variable('a')\n  b = Variable('b')\n"
              "  b_stop_grad = stop_gradient(3 * b)\n  loss = MakeLoss(b_stop_grad + a)")
    .add_alias("stop_gradient")
    .add_input("data")
    .set_compute_cpu(CopyCompute)
    .add_inplace(0, 0)
    .set_fusion(FusionClass::kElementwise)
    .set_gradient(ZeroGradients);

WEFT_REGISTER_OP("make_loss").set_compute_gpu(WEFT_GPU(cuda::CopyGpu("make_loss")))
    .set_fused_form(FusedForm::kIdentity)
    .describe("Make your own loss function in network construction.\n\n"
              "This operator accepts a customized loss function symbol as a terminal loss and the symbol "
              "should be an operator with no backward dependency. The output of this function is the gradient "
              "of loss with respect to the input data (its gradient is ones). The forward pass is the identity.")
    .add_input("data")
    .set_compute_cpu(CopyCompute)
    .add_inplace(0, 0)
    .set_fusion(FusionClass::kElementwise)
    .set_gradient([](const NodePtr& n, const std::vector<NodeEntry>&) -> std::vector<NodeEntry> {
      GradBuilder b(n);  // ones, whatever the head gradient (MXNet)
      return {b("ones_like", {n->inputs[0]})};
    });

void AddMakeLossParams(OpDef& op) {
  op.add_param("grad_scale", ParamType::kFloat, "1", "Gradient scale as a supplement to unary and binary operators")
      .add_param("valid_thresh", ParamType::kFloat, "0",
                 "clip each element in the array to 0 when it is less than ``valid_thresh``. This is used when "
                 "``normalization`` is set to ``'valid'``.")
      .add_enum_param("normalization", {"batch", "null", "valid"}, "null",
                      "If this is set to null, the output gradient will not be normalized. If this is set to "
                      "batch, the output gradient will be divided by the batch size. If this is set to valid, "
                      "the output gradient will be divided by the number of valid input elements.");
}

int MakeLossNorm(const Params& p) {
  const std::string& n = p.GetString("normalization");
  return n == "batch" ? 1 : n == "valid" ? 2 : 0;
}

[[maybe_unused]] const bool kMakeLossRegistered = [] {
  WEFT_REGISTER_OP(fwd, "MakeLoss").set_compute_gpu(WEFT_GPU(cuda::CopyGpu("MakeLoss")));
  fwd.describe("Make your own loss function in network construction.\n\n"
               "This operator accepts a customized loss function symbol as a terminal loss and the symbol should "
               "be an operator with no backward dependency. The output of this function is the gradient of loss "
               "with respect to the input data: grad_scale, divided by the batch size (normalization='batch') "
               "or by the number of elements above valid_thresh (normalization='valid'). The forward pass is the "
               "identity.")
      .add_input("data");
  AddMakeLossParams(fwd);
  fwd.set_compute_cpu(CopyCompute)
      .add_inplace(0, 0)
      .set_gradient([](const NodePtr& n, const std::vector<NodeEntry>&) {
        return ViaBackwardOp(n, "_backward_MakeLoss", {n->inputs[0]});  // a loss: the head gradient is not used
      });

  WEFT_REGISTER_OP(bwd, "_backward_MakeLoss").set_compute_gpu(WEFT_GPU(cuda::BackwardMakeLossGpu));
  bwd.describe("Gradient of MakeLoss from its input data: a constant (see MakeLoss).").add_input("data");
  AddMakeLossParams(bwd);
  bwd.set_infer_type(nnx::FloatSameTypeInfer)
      .set_compute_cpu([](const OpContext&, const Params& p, const std::vector<TensorView>& in,
                          const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
        nnx_cpu::MakeLossBackward(in[0], p.GetFloat("grad_scale"), p.GetFloat("valid_thresh"), MakeLossNorm(p),
                                  req[0], out[0]);
      });
  return true;
}();

}  // namespace
}  // namespace weft
