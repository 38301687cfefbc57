// Dropout (MXNet 1.x): outputs (output, mask) with one visible. The mask has
// data's shape with the `axes` dims set to 1 (variational dropout shares one
// mask along them) and holds 0 or 1/(1-p). Dropout applies when training or
// with mode='always'; otherwise the output is the input and the mask is ones.
// It needs the device generator (set_needs_rng): masks follow push order and
// are reproducible after weft.random.seed. Kernels: core/op/random/dropout_embedding_cpu.cc.
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/op/axis_util.h"
#include "core/graph/grad_builder.h"
#include "core/op/common/copy_cpu.h"
#include "core/op/random/dropout_cpu.h"
#include "core/op/elemwise/elemwise_cpu.h"
#include "core/op/common/nnx_util.h"
#include "core/opdef/op_def.h"
#include "core/op/random/random_dropout_gpu.h"
#include "core/op/op_util.h"
#include "core/op/random_state.h"

namespace weft {
namespace {

void AddDropoutParams(OpDef& op) {
  op.add_param("p", ParamType::kFloat, "0.5", "Fraction of the input that gets dropped out during training time.")
      .add_enum_param("mode", {"always", "training"}, "training",
                      "Whether to only turn on dropout during training or to also turn on for inference.")
      .add_param("axes", ParamType::kShape, "()", "Axes for variational dropout kernel.")
      .add_param("cudnn_off", ParamType::kBool, "False",
                 "Whether to turn off cudnn in dropout operator (accepted and ignored on CPU).");
  op.params.back().optional = true;
}

Shape MaskShape(const Params& p, const Shape& d) {
  const std::string& op = p.op()->name;
  const double prob = p.GetFloat("p");
  WEFT_CHECK(prob >= 0 && prob <= 1, kInvalidArgument) << op << ": parameter 'p' must be in [0, 1], got " << prob;
  Shape m = d;
  if (!p.IsNone("axes")) {
    tensor::CheckNoNone(p.GetTuple("axes"), op, "axes");
    for (int64_t a : p.GetTuple("axes")) m[tensor::NormalizeAxis(a, d.ndim(), op, "data", 0, "axes")] = 1;
  }
  return m;
}

bool Applies(const OpContext& ctx, const Params& p) {
  return (ctx.is_train || p.GetString("mode") == "always") && p.GetFloat("p") > 0;
}

[[maybe_unused]] const bool kDropoutRegistered = [] {
  WEFT_REGISTER_OP(fwd, "Dropout").set_compute_gpu(WEFT_GPU(cuda::DropoutGpu));
  fwd.set_same_shape(SameShapeSlots::Data());
  fwd.describe("Applies dropout operation to input array.\n\n"
               "- During training, each element of the input is set to zero with probability p.\n"
               "  The whole array is rescaled by :math:`1/(1-p)` to keep the expected\n"
               "  sum of the input unchanged.\n\n"
               "- During testing, this operator does not change the input if mode is 'training'.\n"
               "  If mode is 'always', the same computaion as during training will be applied.\n\n"
               "With `axes`, one mask value is shared along those axes (variational dropout). The mask is a "
               "hidden second output (0 or 1/(1-p)), used by the gradient.")
      .add_input("data");
  AddDropoutParams(fwd);
  fwd.set_num_outputs(2)
      .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        const Shape& d = (*in)[0];
        if (!d.known()) return false;
        AssignShape(out, 0, d, "Dropout: output");
        AssignShape(out, 1, MaskShape(p, d), "Dropout: mask");
        return true;
      })
      .set_infer_type(nnx::FloatSameTypeInfer)
      .set_compute_cpu([](const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                          const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
        if (!Applies(ctx, p)) {
          tensor_cpu::ConvertCopy(in[0], req[0], out[0]);
          tensor_cpu::FillCPU(out[1], req[1], 1.0);
          return;
        }
        WEFT_CHECK(ctx.rng != nullptr, kInternal) << "Dropout: called without a random generator";
        // The mask is drawn into a temporary unless it may simply be overwritten.
        const bool direct = req[1] == OpReq::kWriteTo || req[1] == OpReq::kWriteInplace;
        std::vector<char> tmp(direct ? 0 : static_cast<size_t>(out[1].Size()) * DTypeSize(out[1].dtype));
        const TensorView mask = direct ? out[1] : TensorView{tmp.data(), out[1].dtype, out[1].shape};
        nnx_cpu::DropoutMask(ctx.rng->engine(), p.GetFloat("p"), mask);
        elemwise_cpu::BroadcastBinaryKernel(elemwise_cpu::BinaryKind::kMul, in[0], mask, req[0], out[0]);
        if (req[1] == OpReq::kAddTo) tensor_cpu::AddInto(mask, out[1]);
      })
      .set_needs_rng()
      .add_inplace(0, 0);
  fwd.num_visible_outputs = 1;
  fwd.list_output_names = [](const Params&) { return std::vector<std::string>{"output", "mask"}; };
  fwd.set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) {
    return ViaBackwardOp(n, "_backward_Dropout", {og[0], OutputOf(n, 1)});  // the mask the forward drew
  });

  WEFT_REGISTER_OP(bwd, "_backward_Dropout").set_compute_gpu(WEFT_GPU(cuda::BackwardDropoutGpu));
  bwd.describe("Gradient of Dropout from (out_grad, mask): out_grad * mask when training or mode='always', "
               "else out_grad.")
      .add_input("out_grad")
      .add_input("mask");
  AddDropoutParams(bwd);
  bwd.set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        const Shape& g = (*in)[0];
        if (!g.known()) return false;
        AssignShape(in, 1, MaskShape(p, g), "_backward_Dropout: input 'mask'");
        AssignShape(out, 0, g, "_backward_Dropout: output");
        return true;
      })
      .set_infer_type(nnx::FloatSameTypeInfer)
      .set_compute_cpu([](const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                          const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
        if (Applies(ctx, p))
          elemwise_cpu::BroadcastBinaryKernel(elemwise_cpu::BinaryKind::kMul, in[0], in[1], req[0], out[0]);
        else
          tensor_cpu::ConvertCopy(in[0], req[0], out[0]);
      })
      .add_inplace(0, 0)
      // Second order: linear in out_grad with the same mask, so the op itself on
      // the incoming gradient; the mask is a draw, not a function of anything.
      .set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) -> std::vector<NodeEntry> {
        GradBuilder b(n);
        return {OutputOf(b.NodeWithAttrs("_backward_Dropout", {og[0], b.in(1)})), b.Zeros(b.in(1))};
      });
  return true;
}();

}  // namespace
}  // namespace weft
