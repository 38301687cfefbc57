// Layer + activation operators written by the fusion pass (core/graph/fusion.cc):
// _fused_fully_connected_act = Activation(FullyConnected(...)) and
// _fused_convolution_act = Activation(Convolution(...)), as one node whose
// activation runs on the layer's output while it is in cache. Each takes the
// layer's inputs and parameters plus Activation's act_type; shape inference
// and the layer's computation are the layer's own (through the registry).
// Kernels: core/op/fused/fused_nn_cpu.cc.
#include <string>
#include <utility>
#include <vector>

#include "core/op/fused/fused_elemwise_cpu.h"
#include "core/op/fused/fused_nn_cpu.h"
#include "core/op/layer/layer_rules.h"
#include "core/op/common/dnnl_nn.h"
#include "core/op/common/layer_util.h"
#include "core/op/common/nnx_util.h"
#include "core/op/common/nn_path.h"
#include "core/opdef/op_def.h"
#include "core/op/fused/fused_nn_gpu.h"

namespace weft {
namespace {

const std::vector<std::string> kActTypes = {"relu", "sigmoid", "log_sigmoid", "mish", "tanh", "softrelu", "softsign"};

// The layer's parameters: every attribute but act_type.
Params LayerParams(const OpDef& layer, const Params& p) {
  std::vector<std::pair<std::string, std::string>> attrs;
  for (const auto& kv : p.raw())
    if (kv.first != "act_type") attrs.push_back(kv);
  return Params::Parse(layer, attrs);
}

const OpDef& Layer(const char* name) { return OpRegistry::Get()->FindOrThrow(name); }

FInferShape LayerShape(const char* layer) {
  return [layer](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
    const OpDef& op = Layer(layer);
    return op.InferShape(LayerParams(op, p), in, out);
  };
}

void AddActType(OpDef& op) {
  nnx::AddRequiredEnum(op, "act_type", kActTypes, "Activation function applied to the layer's output.");
}

bool RegisterFusedFC() {
  WEFT_REGISTER_OP(op, "_fused_fully_connected_act").set_compute_gpu(WEFT_GPU(cuda::FusedFullyConnectedActGpu));
  op.describe("Activation(FullyConnected(data, weight, bias), act_type) as one operator (written by the graph "
              "fusion pass; see WEFT_FUSION): the GEMM, then bias and activation in one pass over blocks of "
              "rows. Parameters as FullyConnected's, plus Activation's act_type.")
      .add_input("data")
      .add_input("weight")
      .add_input("bias")
      .add_required_param("num_hidden", ParamType::kInt, "Number of hidden nodes of the output.")
      .add_param("no_bias", ParamType::kBool, "False", "Whether to disable the bias parameter.")
      .add_param("flatten", ParamType::kBool, "True",
                 "Whether to collapse all but the first axis of the input data tensor.");
  AddActType(op);
  op.set_infer_type(nn::FloatTypeInfer)
      .set_infer_shape(LayerShape("FullyConnected"))
      .set_compute_cpu([](const OpContext&, const Params& p, const std::vector<TensorView>& in,
                          const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
        const nn_cpu::FCGeom g = nn::FCGeometry(p, in[0].shape);
        const bool bias = !p.GetBool("no_bias") && in.size() > 2;
        fused_cpu::FCActForward(g, fused_cpu::ActKindByName(p.GetString("act_type"), "_fused_fully_connected_act"),
                                in[0], in[1], bias ? &in[2] : nullptr, req[0], out[0]);
      });
  op.list_input_names = nn::WeightInputNames;
  // No gradient rule: the pass runs after gradient construction.
  return true;
}

bool RegisterFusedConv() {
  WEFT_REGISTER_OP(op, "_fused_convolution_act").set_compute_gpu(WEFT_GPU(cuda::FusedConvolutionActGpu));
  op.set_uses_input_stamps();  // the weights kept in oneDNN's layout (Note [Weight layout cache])
  op.describe("Activation(Convolution(data, weight, bias), act_type) as one operator (written by the graph "
              "fusion pass; see WEFT_FUSION): the convolution, then the activation in place on its output. "
              "Parameters as Convolution's, plus Activation's act_type.")
      .add_input("data")
      .add_input("weight")
      .add_input("bias");
  nn::AddConvolutionParams(op);
  AddActType(op);
  op.set_infer_type(nn::FloatTypeInfer)
      .set_infer_shape(LayerShape("Convolution"))
      .set_compute_cpu([](const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                          const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
        if (req[0] == OpReq::kNull) return;
        const OpDef& conv = Layer("Convolution");
        const nnx_cpu::ActKind act = fused_cpu::ActKindByName(p.GetString("act_type"), "_fused_convolution_act");
#if WEFT_USE_DNNL  // ReLU as the oneDNN primitive's post-op: the output is written once
        if (act == nnx_cpu::ActKind::kReLU && req[0] != OpReq::kAddTo && in[0].dtype == DType::kFloat32 &&
            nn_cpu::UseDnnl() && in[0].Size() > 0 && in[1].Size() > 0) {
          dnnl_cpu::ConvPostOps post;
          post.relu = true;
          if (dnnl_cpu::ConvForwardKept(ctx.InferenceStamp(1),
                                        nn::ConvGeometry(LayerParams(conv, p), in[0].shape), in[0], in[1],
                                        in.size() > 2 ? &in[2] : nullptr, post, out[0]))
            return;
        }
#endif
        if (req[0] != OpReq::kAddTo) {
          conv.compute_cpu(ctx, LayerParams(conv, p), in, {OpReq::kWriteTo}, out);
          fused_cpu::ActivationEpilogue(act, nullptr, req[0], out[0]);
          return;
        }
        std::vector<double> scratch(static_cast<size_t>(out[0].Size()));  // out + act(conv): conv to scratch
        TensorView t{scratch.data(), out[0].dtype, out[0].shape};
        conv.compute_cpu(ctx, LayerParams(conv, p), in, {OpReq::kWriteTo}, {t});
        fused_cpu::ActivationEpilogue(act, &t, OpReq::kAddTo, out[0]);
      });
  op.list_input_names = nn::WeightInputNames;
  // No gradient rule: the pass runs after gradient construction.
  return true;
}

[[maybe_unused]] const bool kFusedFCRegistered = RegisterFusedFC();
[[maybe_unused]] const bool kFusedConvRegistered = RegisterFusedConv();

}  // namespace
}  // namespace weft
