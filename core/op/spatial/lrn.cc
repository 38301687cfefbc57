// LRN: local response normalisation across channels (MXNet 1.x), with its
// backward operator. Outputs (output, tmp_norm); only output is visible.
// tmp_norm holds the normaliser knorm + alpha / nsize * (window sum of
// data^2), which the gradient reads back as MXNet's does. Data is
// (batch, channel, spatial...) with at least one spatial dim (MXNet: 4-D).
// Kernels: core/op/spatial/lrn_cpu.cc.
#include <string>
#include <vector>

#include "core/graph/grad_builder.h"
#include "core/op/spatial/lrn_cpu.h"
#include "core/op/common/layer_util.h"
#include "core/opdef/op_def.h"
#include "core/op/spatial/pooling_lrn_gpu.h"
#include "core/op/op_util.h"

namespace weft {
namespace {

void AddLRNParams(OpDef& op) {
  op.add_param("alpha", ParamType::kFloat, "0.0001", "The variance scaling parameter :math:`\\alpha` in the LRN "
                                                      "expression.")
      .add_param("beta", ParamType::kFloat, "0.75", "The power parameter :math:`\\beta` in the LRN expression.")
      .add_param("knorm", ParamType::kFloat, "2", "The parameter :math:`k` in the LRN expression.")
      .add_required_param("nsize", ParamType::kInt, "normalization window width in elements (odd).");
}

using nnx_cpu::LRNArgsOf;

[[maybe_unused]] const bool kLRNRegistered = [] {
  WEFT_REGISTER_OP(fwd, "LRN").set_compute_gpu(WEFT_GPU(cuda::LRNGpu));
  fwd.set_same_shape(SameShapeSlots::Data());
  fwd.describe("Applies local response normalization to the input.\n\n"
               "The local response normalization layer performs \"lateral inhibition\" by normalizing\n"
               "over local input regions.\n\n"
               "If :math:`a_{x,y}^{i}` is the activity of a neuron computed by applying kernel :math:`i` at "
               "position\n:math:`(x, y)` and then applying the ReLU nonlinearity, the response-normalized\n"
               "activity :math:`b_{x,y}^{i}` is given by the expression:\n\n"
               ".. math::\n"
               "   b_{x,y}^{i} = \\frac{a_{x,y}^{i}}{\\Bigg({k + \\frac{\\alpha}{n} "
               "\\sum_{j=max(0, i-\\frac{n}{2})}^{min(N-1, i+\\frac{n}{2})} (a_{x,y}^{j})^{2}}\\Bigg)^{\\beta}}\n\n"
               "where the sum runs over :math:`n` \"adjacent\" kernel maps at the same spatial position, and "
               ":math:`N` is the total\nnumber of kernels in the layer.\n\n"
               "data is (batch, channel, spatial...), float32 or float64 (and float16/bfloat16 on GPU); nsize must be odd. A hidden second "
               "output, tmp_norm, holds the normaliser (the denominator before the power beta).")
      .add_input("data");
  AddLRNParams(fwd);
  // In-place: the kernel computes a tile's norms before writing its outputs.
  fwd.set_num_outputs(2)
      .add_inplace(0, 0)
      .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        const Shape& d = (*in)[0];
        if (!d.known()) return false;
        LRNArgsOf(p, d, "data");
        AssignShape(out, 0, d, "LRN: output");
        AssignShape(out, 1, d, "LRN: output 'tmp_norm'");
        return true;
      })
      .set_infer_type(nn::FloatOr16BitTypeInfer)
      .set_compute_cpu([](const OpContext&, const Params& p, const std::vector<TensorView>& in,
                          const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
        nnx_cpu::LRNForward(LRNArgsOf(p, in[0].shape, "data"), in[0], req[0], out[0], req[1], out[1]);
      });
  fwd.num_visible_outputs = 1;
  fwd.list_output_names = [](const Params&) { return std::vector<std::string>{"output", "tmp_norm"}; };
  fwd.set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) {
    return ViaBackwardOp(n, "_backward_LRN", {og[0], n->inputs[0], OutputOf(n, 1)});
  });

  WEFT_REGISTER_OP(bwd, "_backward_LRN").set_compute_gpu(WEFT_GPU(cuda::BackwardLRNGpu));
  bwd.describe("Gradient of LRN from (out_grad, data, tmp_norm), tmp_norm being LRN's hidden output: "
               "out_grad * tmp_norm^-beta - 2 alpha beta / nsize * data * (window sum over channels of "
               "out_grad * data * tmp_norm^(-beta-1)). Takes LRN's parameters.")
      .add_input("out_grad")
      .add_input("data")
      .add_input("tmp_norm");
  AddLRNParams(bwd);
  bwd.set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        if (!SameShapeInfer(*p.op(), p, in, out)) return false;
        LRNArgsOf(p, (*in)[1], "data");
        return true;
      })
      .set_infer_type(nn::FloatOr16BitTypeInfer)
      .set_compute_cpu([](const OpContext&, const Params& p, const std::vector<TensorView>& in,
                          const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
        nnx_cpu::LRNBackward(LRNArgsOf(p, in[1].shape, "data"), in[0], in[1], in[2], req[0], out[0]);
      })
      .add_inplace(0, 0);
  bwd.list_output_names = [](const Params&) { return std::vector<std::string>{"data_grad"}; };
  return true;
}();

}  // namespace
}  // namespace weft
