// Convolution (MXNet 1.x, 1-D/2-D/3-D, grouped, dilated) and its backward op
// _backward_Convolution. Kernels: core/op/layer/convolution_cpu.cc (im2col + OpenBLAS) and
// core/op/layer/convolution_dnnl.cc (oneDNN), chosen per Note [NN kernel paths].
#include <string>
#include <vector>

#include "core/base/checked_math.h"
#include "core/base/error.h"
#include "core/op/axis_util.h"
#include "core/op/common/dnnl_nn.h"
#include "core/op/layer/layer_grad.h"
#include "core/op/layer/layer_cpu.h"
#include "core/op/layer/layer_rules.h"
#include "core/op/common/layer_util.h"
#include "core/op/common/nn_path.h"
#include "core/opdef/op_def.h"
#include "core/op/layer/convolution_gpu.h"
#include "core/op/op_util.h"

namespace weft {
namespace nn {

using nn_cpu::ConvGeom;

// Validates the parameters against data (batch, channel, spatial...) and
// returns the geometry (core/op/layer/layer_rules.h, shared with the GPU kernels).
ConvGeom ConvGeometry(const Params& p, const Shape& data) {
  const std::string op = "Convolution";
  const std::vector<int64_t> kernel = nn::KernelParam(p);
  const int nd = static_cast<int>(kernel.size());
  nn::CheckLayout(p, nd);
  nn::CheckDataRank(op, data, nd);
  const std::vector<int64_t> stride = nn::AxisParam(p, "stride", nd, 1, 1);
  const std::vector<int64_t> dilate = nn::AxisParam(p, "dilate", nd, 1, 1);
  const std::vector<int64_t> pad = nn::AxisParam(p, "pad", nd, 0, 0);
  ConvGeom g;
  g.nd = nd;
  g.batch = data[0];
  g.in_c = data[1];
  g.out_c = p.GetInt("num_filter");
  g.groups = p.GetInt("num_group");
  WEFT_CHECK(g.out_c > 0, kInvalidArgument) << op << ": num_filter must be positive, got " << g.out_c;
  WEFT_CHECK(g.groups > 0, kInvalidArgument) << op << ": num_group must be positive, got " << g.groups;
  WEFT_CHECK(g.in_c % g.groups == 0, kShape) << op << ": input channels (" << g.in_c
                                             << ") must be divisible by num_group (" << g.groups << ")";
  WEFT_CHECK(g.out_c % g.groups == 0, kInvalidArgument)
      << op << ": num_filter (" << g.out_c << ") must be divisible by num_group (" << g.groups << ")";
  nn::Place3(kernel, g.kernel);
  nn::Place3(stride, g.stride);
  nn::Place3(dilate, g.dilate);
  nn::Place3(pad, g.pad);
  for (int i = 0; i < nd; ++i) {
    const int s = 3 - nd + i;
    // Checked: a dim read from a file may be near INT64_MAX (the symbol JSON fuzzer's
    // (2, 4, 8, 8222...) overflowed in + 2 * pad).
    const int64_t in = data[2 + i];
    const int64_t dk = CheckedAdd(CheckedMul(g.dilate[s], g.kernel[s] - 1, "Convolution: dilated kernel"), 1,
                                  "Convolution: dilated kernel");
    const int64_t padded = CheckedAdd(in, CheckedMul(2, g.pad[s], "Convolution: padding"), "Convolution: padded input");
    WEFT_CHECK(padded >= dk, kShape)
        << op << ": kernel " << tensor::TupleString(kernel) << " (dilated to " << dk << ") exceeds input 'data' "
        << data.ToString() << " padded by " << g.pad[s] << " on axis " << 2 + i;
    g.in[s] = in;
    g.out[s] = (padded - dk) / g.stride[s] + 1;
  }
  return g;
}

}  // namespace nn

namespace {

using nn_cpu::ConvGeom;

Shape OutShape(const ConvGeom& g) {
  Shape s{g.batch, g.out_c};
  for (int i = 3 - g.nd; i < 3; ++i) s.push_back(g.out[i]);
  return s;
}

Shape WeightShape(const ConvGeom& g) {
  Shape s{g.out_c, g.in_c / g.groups};
  for (int i = 3 - g.nd; i < 3; ++i) s.push_back(g.kernel[i]);
  return s;
}

OpDef& Declare(const char* name) {
  WEFT_REGISTER_OP(op, name);
  nn::AddConvolutionParams(op);
  return op;
}

OpDef& RegisterForward() {
  OpDef& op = Declare("Convolution").set_compute_gpu(WEFT_GPU(cuda::ConvolutionGpu));
  // Note [Fusion patterns on the op] (core/opdef/op_def.h).
  op.set_fusion_pattern(FusionPattern::Layer("_fused_convolution_act", "_fused_convolution_bn"));
  op.add_alias("Convolution_v1");  // MXNet's legacy layer: its parameters are a subset (issue 17)
  op.describe("Computes an N-D convolution (N = 1, 2, 3) over (batch, channel, spatial...) input.\n\n"
              "data (batch, C, *in), weight (num_filter, C/num_group, *kernel) and bias (num_filter,) give "
              "out (batch, num_filter, *out) with out = floor((in + 2*pad - dilate*(kernel-1) - 1) / stride) + 1. "
              "weight and bias shapes are inferred from data. Only channel-first layouts; float32 and "
              "float64 (oneDNN for float32 when built with it, else im2col + OpenBLAS).")
      .add_input("data")
      .add_input("weight")
      .add_input("bias")
      .set_infer_type(nn::FloatOr16BitTypeInfer)
      .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        if (!(*in)[0].known()) return false;
        ConvGeom g = nn::ConvGeometry(p, (*in)[0]);
        AssignShape(in, 1, WeightShape(g), "Convolution: input 'weight'");
        if (in->size() > 2) AssignShape(in, 2, Shape{g.out_c}, "Convolution: input 'bias'");
        AssignShape(out, 0, OutShape(g), "Convolution: output");
        return true;
      })
      .set_compute_cpu([](const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                          const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
        ConvGeom g = nn::ConvGeometry(p, in[0].shape);
        const TensorView* bias = in.size() > 2 ? &in[2] : nullptr;
#if WEFT_USE_DNNL  // inference: the weights kept in oneDNN's layout (Note [Weight layout cache])
        if (ctx.InferenceStamp(1) != 0 && (req[0] == OpReq::kWriteTo || req[0] == OpReq::kWriteInplace) &&
            in[0].dtype == DType::kFloat32 && nn_cpu::UseDnnl() && in[0].Size() > 0 && in[1].Size() > 0 &&
            dnnl_cpu::ConvForwardKept(ctx.InferenceStamp(1), g, in[0], in[1], bias, dnnl_cpu::ConvPostOps(), out[0]))
          return;
#endif
        nn_cpu::ConvForward(g, in[0], in[1], bias, req[0], out[0]);
      });
  op.set_uses_input_stamps();
  op.list_input_names = nn::WeightInputNames;
  op.set_gradient(WeightLayerGradient);
  return op;
}

OpDef& RegisterBackward() {
  OpDef& op = Declare("_backward_Convolution").set_compute_gpu(WEFT_GPU(cuda::BackwardConvolutionGpu));
  op.describe("Gradients of Convolution: inputs (out_grad, data, weight), outputs (data_grad, weight_grad"
              "[, bias_grad]). Takes Convolution's parameters.")
      .add_input("out_grad")
      .add_input("data")
      .add_input("weight")
      .set_num_outputs([](const Params& p) { return p.GetBool("no_bias") ? 2 : 3; })
      .set_infer_type(nn::FloatOr16BitTypeInfer)
      .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        AssignShape(in, 1, (*out)[0], "_backward_Convolution: input 'data'");
        if (!(*in)[1].known()) return false;
        ConvGeom g = nn::ConvGeometry(p, (*in)[1]);
        AssignShape(in, 0, OutShape(g), "_backward_Convolution: input 'out_grad'");
        AssignShape(in, 2, WeightShape(g), "_backward_Convolution: input 'weight'");
        AssignShape(out, 0, (*in)[1], "_backward_Convolution: output 'data_grad'");
        AssignShape(out, 1, WeightShape(g), "_backward_Convolution: output 'weight_grad'");
        if (out->size() > 2) AssignShape(out, 2, Shape{g.out_c}, "_backward_Convolution: output 'bias_grad'");
        return true;
      })
      .set_compute_cpu([](const OpContext&, const Params& p, const std::vector<TensorView>& in,
                          const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
        ConvGeom g = nn::ConvGeometry(p, in[1].shape);
        const bool bias = out.size() > 2;
        nn_cpu::ConvBackward(g, in[0], in[1], in[2], req[0], out[0], req[1], out[1], bias ? &out[2] : nullptr,
                             bias ? req[2] : OpReq::kNull);
      });
  op.list_output_names = nn::WeightGradNames;
  op.set_gradient(WeightLayerSecondOrder);
  return op;
}

[[maybe_unused]] OpDef& reg_conv = RegisterForward();
[[maybe_unused]] OpDef& reg_conv_backward = RegisterBackward();

}  // namespace
}  // namespace weft
