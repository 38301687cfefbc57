// FullyConnected (MXNet 1.x): out = data * weight^T + bias, and its backward
// op _backward_FullyConnected. Kernels: core/op/layer/fully_connected_cpu.cc.
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/op/layer/layer_grad.h"
#include "core/op/layer/layer_cpu.h"
#include "core/op/layer/layer_rules.h"
#include "core/op/layer/fully_connected_gpu.h"
#include "core/op/common/layer_util.h"
#include "core/opdef/op_def.h"
#include "core/op/op_util.h"

namespace weft {
namespace nn {

// Declared in core/op/layer/layer_rules.h (shared with the GPU kernels).
nn_cpu::FCGeom FCGeometry(const Params& p, const Shape& data, Shape* out) {
  const int64_t hidden = p.GetInt("num_hidden");
  WEFT_CHECK(hidden > 0, kInvalidArgument) << "FullyConnected: num_hidden must be positive, got " << hidden;
  WEFT_CHECK(data.ndim() >= 1, kShape) << "FullyConnected: input 'data' must have at least 1 dimension, got "
                                       << data.ToString();
  nn_cpu::FCGeom g;
  g.hidden = hidden;
  const int nd = data.ndim();
  if (p.GetBool("flatten")) {
    g.rows = data[0];
    g.in_dim = data.ProdRange(1, nd);
    if (out != nullptr) *out = Shape{data[0], hidden};
  } else {
    g.rows = data.ProdRange(0, nd - 1);
    g.in_dim = data[nd - 1];
    if (out != nullptr) {
      *out = data;
      (*out)[nd - 1] = hidden;
    }
  }
  return g;
}

}  // namespace nn

namespace {

using nn_cpu::FCGeom;

// Fills weight (num_hidden, in_dim) and bias (num_hidden,) from data; a bias
// given as (num_hidden, 1) is accepted, as in MXNet.
void InferParams(const Params& p, const Shape& data, std::vector<Shape>* in, size_t weight_at, Shape* out) {
  FCGeom g = nn::FCGeometry(p, data, out);
  AssignShape(in, weight_at, Shape{g.hidden, g.in_dim}, "FullyConnected: input 'weight'");
  if (!p.GetBool("no_bias") && weight_at + 1 < in->size()) {
    Shape& b = (*in)[weight_at + 1];
    if (!(b.known() && b == Shape{g.hidden, 1})) AssignShape(in, weight_at + 1, Shape{g.hidden}, "FullyConnected: input 'bias'");
  }
}

OpDef& Declare(const char* name) {
  WEFT_REGISTER_OP(op, name);
  op.add_required_param("num_hidden", ParamType::kInt, "Number of hidden nodes of the output.")
      .add_param("no_bias", ParamType::kBool, "False", "Whether to disable the bias parameter.")
      .add_param("flatten", ParamType::kBool, "True",
                 "Whether to collapse all but the first axis of the input data tensor.");
  return op;
}

OpDef& RegisterForward() {
  OpDef& op = Declare("FullyConnected").set_compute_gpu(WEFT_GPU(cuda::FullyConnectedGpu));
  // Note [Fusion patterns on the op] (core/opdef/op_def.h).
  op.set_fusion_pattern(FusionPattern::Layer("_fused_fully_connected_act"));
  op.describe("Applies a linear transformation: out = data * weight^T + bias.\n\n"
              "With flatten=True (the default) data of shape (batch, x1, ..., xn) is used as "
              "(batch, x1*...*xn) and the output is (batch, num_hidden). With flatten=False the "
              "transformation applies to the last axis: data (x1, ..., xn, input_dim) gives "
              "(x1, ..., xn, num_hidden). weight has shape (num_hidden, input_dim) and bias "
              "(num_hidden,); both are inferred from data. float32 and float64 (OpenBLAS GEMM).")
    .add_input("data")
    .add_input("weight")
    .add_input("bias")
    .set_infer_type(nn::FloatOr16BitTypeInfer)
    .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
      if (!(*in)[0].known()) return false;
      Shape o;
      InferParams(p, (*in)[0], in, 1, &o);
      AssignShape(out, 0, o, "FullyConnected: output");
      return true;
    })
    .set_compute_cpu([](const OpContext&, const Params& p, const std::vector<TensorView>& in,
                        const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
      FCGeom g = nn::FCGeometry(p, in[0].shape);
      nn_cpu::FCForward(g, in[0], in[1], p.GetBool("no_bias") ? nullptr : &in[2], req[0], out[0]);
    });
  op.list_input_names = nn::WeightInputNames;
  op.set_gradient(WeightLayerGradient);
  return op;
}

OpDef& RegisterBackward() {
  OpDef& op = Declare("_backward_FullyConnected").set_compute_gpu(WEFT_GPU(cuda::BackwardFullyConnectedGpu));
  op.describe("Gradients of FullyConnected: inputs (out_grad, data, weight), outputs (data_grad, "
              "weight_grad[, bias_grad]). Takes FullyConnected's parameters.")
    .add_input("out_grad")
    .add_input("data")
    .add_input("weight")
    .set_num_outputs([](const Params& p) { return p.GetBool("no_bias") ? 2 : 3; })
    .set_infer_type(nn::FloatOr16BitTypeInfer)
    .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
      AssignShape(in, 1, (*out)[0], "_backward_FullyConnected: input 'data'");
      if (!(*in)[1].known()) return false;
      const Shape data = (*in)[1];
      Shape o;
      std::vector<Shape> fwd{data, (*in)[2], Shape::Unknown()};
      InferParams(p, data, &fwd, 1, &o);
      AssignShape(in, 0, o, "_backward_FullyConnected: input 'out_grad'");
      AssignShape(in, 2, fwd[1], "_backward_FullyConnected: input 'weight'");
      AssignShape(out, 0, data, "_backward_FullyConnected: output 'data_grad'");
      AssignShape(out, 1, fwd[1], "_backward_FullyConnected: output 'weight_grad'");
      if (out->size() > 2) AssignShape(out, 2, Shape{p.GetInt("num_hidden")}, "_backward_FullyConnected: output 'bias_grad'");
      return true;
    })
    .set_compute_cpu([](const OpContext&, const Params& p, const std::vector<TensorView>& in,
                        const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
      FCGeom g = nn::FCGeometry(p, in[1].shape);
      const bool bias = out.size() > 2;
      nn_cpu::FCBackward(g, in[0], in[1], in[2], req[0], out[0], req[1], out[1], bias ? &out[2] : nullptr,
                         bias ? req[2] : OpReq::kNull);
    });
  op.list_output_names = nn::WeightGradNames;
  op.set_gradient(WeightLayerSecondOrder);
  return op;
}

[[maybe_unused]] OpDef& reg_fc = RegisterForward();
[[maybe_unused]] OpDef& reg_fc_backward = RegisterBackward();

}  // namespace
}  // namespace weft
