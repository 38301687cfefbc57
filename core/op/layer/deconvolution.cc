// Deconvolution (transposed convolution, MXNet 1.x) and its backward op
// _backward_Deconvolution. Deconvolution is the data gradient of a
// convolution whose input is the deconvolution's output, so it runs on the
// convolution kernels with x and y swapped (core/op/layer/layer_cpu.h).
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/op/axis_util.h"
#include "core/op/layer/layer_grad.h"
#include "core/op/layer/layer_cpu.h"
#include "core/op/layer/layer_rules.h"
#include "core/op/common/layer_util.h"
#include "core/opdef/op_def.h"
#include "core/op/layer/convolution_gpu.h"
#include "core/op/op_util.h"

namespace weft {
namespace nn {

// out = stride*(in-1) + dilate*(kernel-1) + 1 - 2*pad + adj; a target_shape
// (any entry non-zero) replaces pad and adj as MXNet's InferPad does.
// Declared in core/op/layer/layer_rules.h (shared with the GPU kernels).
DeconvPlan DeconvGeometry(const Params& p, const Shape& data) {
  const std::string op = "Deconvolution";
  const std::vector<int64_t> kernel = nn::KernelParam(p);
  const int nd = static_cast<int>(kernel.size());
  nn::CheckLayout(p, nd);
  nn::CheckDataRank(op, data, nd);
  std::vector<int64_t> stride = nn::AxisParam(p, "stride", nd, 1, 1);
  std::vector<int64_t> dilate = nn::AxisParam(p, "dilate", nd, 1, 1);
  std::vector<int64_t> pad = nn::AxisParam(p, "pad", nd, 0, 0);
  std::vector<int64_t> adj = nn::AxisParam(p, "adj", nd, 0, 0);
  std::vector<int64_t> target = nn::AxisParam(p, "target_shape", nd, 0, 0);
  bool use_target = false;
  for (int64_t t : target) use_target = use_target || t != 0;
  DeconvPlan pl;
  nn_cpu::ConvGeom& g = pl.g;
  g.nd = nd;
  g.batch = data[0];
  g.out_c = data[1];
  g.in_c = p.GetInt("num_filter");
  g.groups = p.GetInt("num_group");
  WEFT_CHECK(g.in_c > 0, kInvalidArgument) << op << ": num_filter must be positive, got " << g.in_c;
  WEFT_CHECK(g.groups > 0, kInvalidArgument) << op << ": num_group must be positive, got " << g.groups;
  WEFT_CHECK(g.out_c % g.groups == 0, kShape) << op << ": input channels (" << g.out_c
                                              << ") must be divisible by num_group (" << g.groups << ")";
  WEFT_CHECK(g.in_c % g.groups == 0, kInvalidArgument)
      << op << ": num_filter (" << g.in_c << ") must be divisible by num_group (" << g.groups << ")";
  pl.out = Shape{g.batch, g.in_c};
  pl.weight = Shape{g.out_c, g.in_c / g.groups};
  for (int i = 0; i < nd; ++i) {
    const int64_t in = data[2 + i], dk = dilate[i] * (kernel[i] - 1) + 1;
    int64_t full = stride[i] * (in - 1) + dk;
    if (use_target) {
      WEFT_CHECK(full >= target[i], kInvalidArgument)
          << op << ": target_shape " << tensor::TupleString(target) << " is too big for input 'data' "
          << data.ToString() << " (at most " << full << " on axis " << 2 + i << ")";
      const int64_t total = full - target[i];
      adj[i] = total % 2;
      pad[i] = (total + 1) / 2;
    } else {
      WEFT_CHECK(adj[i] < stride[i] || adj[i] < dilate[i], kInvalidArgument)
          << op << ": adj " << tensor::TupleString(adj) << " must be smaller than stride or dilate";
    }
    const int64_t o = full - 2 * pad[i] + adj[i];
    WEFT_CHECK(o > 0, kShape) << op << ": pad " << tensor::TupleString(pad) << " leaves no output for input 'data' "
                              << data.ToString() << " on axis " << 2 + i;
    pl.out.push_back(o);
    pl.weight.push_back(kernel[i]);
    const int s = 3 - nd + i;
    g.in[s] = o;
    g.out[s] = in;
    g.kernel[s] = kernel[i];
    g.stride[s] = stride[i];
    g.dilate[s] = dilate[i];
    g.pad[s] = pad[i];
  }
  return pl;
}

}  // namespace nn

namespace {

using nn::DeconvPlan;

OpDef& Declare(const char* name) {
  WEFT_REGISTER_OP(op, name);
  op.add_required_param("kernel", ParamType::kShape, "Deconvolution kernel size: (w,), (h, w) or (d, h, w).")
      .add_param("stride", ParamType::kShape, "()", "Stride per axis. Defaults to 1 for each axis.")
      .add_param("dilate", ParamType::kShape, "()", "Dilation per axis. Defaults to 1 for each axis.")
      .add_param("pad", ParamType::kShape, "()",
                 "Padding removed from both sides of the output of each axis. Defaults to no padding.")
      .add_param("adj", ParamType::kShape, "()",
                 "Extra size added at the end of each output axis (must be smaller than stride or dilate). "
                 "Ignored when target_shape is set.")
      .add_param("target_shape", ParamType::kShape, "()",
                 "Output spatial shape; when set, pad and adj are computed from it.")
      .add_required_param("num_filter", ParamType::kInt, "Number of output channels.")
      .add_param("num_group", ParamType::kInt, "1", "Number of group partitions.")
      .add_param("no_bias", ParamType::kBool, "True", "Whether to disable the bias parameter.");
  nn::AddCudnnParams(op, 512);
  nn::AddLayoutParam(op);
  return op;
}

OpDef& RegisterForward() {
  OpDef& op = Declare("Deconvolution").set_compute_gpu(WEFT_GPU(cuda::DeconvolutionGpu));
  op.describe("Computes an N-D transposed convolution (N = 1, 2, 3), the gradient of Convolution with "
              "respect to its input.\n\n"
              "data (batch, C, *in), weight (C, num_filter/num_group, *kernel) and bias (num_filter,) give "
              "out (batch, num_filter, *out) with out = stride*(in-1) + dilate*(kernel-1) + 1 - 2*pad + adj. "
              "weight and bias shapes are inferred from data. no_bias defaults to True as in MXNet.")
      .add_input("data")
      .add_input("weight")
      .add_input("bias")
      .set_infer_type(nn::FloatOr16BitTypeInfer)
      .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        if (!(*in)[0].known()) return false;
        DeconvPlan pl = nn::DeconvGeometry(p, (*in)[0]);
        AssignShape(in, 1, pl.weight, "Deconvolution: input 'weight'");
        if (in->size() > 2) AssignShape(in, 2, Shape{pl.g.in_c}, "Deconvolution: input 'bias'");
        AssignShape(out, 0, pl.out, "Deconvolution: output");
        return true;
      })
      .set_compute_cpu([](const OpContext&, const Params& p, const std::vector<TensorView>& in,
                          const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
        if (req[0] == OpReq::kNull) return;
        DeconvPlan pl = nn::DeconvGeometry(p, in[0].shape);
        nn_cpu::ConvBackwardData(pl.g, in[0], in[1], req[0], out[0]);
        if (in.size() > 2) nn_cpu::AddBias(in[2], pl.g.batch, pl.g.in_c, pl.g.InSize(), out[0]);
      });
  op.list_input_names = nn::WeightInputNames;
  op.set_gradient(WeightLayerGradient);
  return op;
}

OpDef& RegisterBackward() {
  OpDef& op = Declare("_backward_Deconvolution").set_compute_gpu(WEFT_GPU(cuda::BackwardDeconvolutionGpu));
  op.describe("Gradients of Deconvolution: inputs (out_grad, data, weight), outputs (data_grad, weight_grad"
              "[, bias_grad]). Takes Deconvolution's parameters.")
      .add_input("out_grad")
      .add_input("data")
      .add_input("weight")
      .set_num_outputs([](const Params& p) { return p.GetBool("no_bias") ? 2 : 3; })
      .set_infer_type(nn::FloatOr16BitTypeInfer)
      .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        AssignShape(in, 1, (*out)[0], "_backward_Deconvolution: input 'data'");
        if (!(*in)[1].known()) return false;
        DeconvPlan pl = nn::DeconvGeometry(p, (*in)[1]);
        AssignShape(in, 0, pl.out, "_backward_Deconvolution: input 'out_grad'");
        AssignShape(in, 2, pl.weight, "_backward_Deconvolution: input 'weight'");
        AssignShape(out, 0, (*in)[1], "_backward_Deconvolution: output 'data_grad'");
        AssignShape(out, 1, pl.weight, "_backward_Deconvolution: output 'weight_grad'");
        if (out->size() > 2) AssignShape(out, 2, Shape{pl.g.in_c}, "_backward_Deconvolution: output 'bias_grad'");
        return true;
      })
      .set_compute_cpu([](const OpContext&, const Params& p, const std::vector<TensorView>& in,
                          const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
        DeconvPlan pl = nn::DeconvGeometry(p, in[1].shape);
        // In convolution terms out_grad is the input x and data is the output y.
        nn_cpu::ConvForward(pl.g, in[0], in[2], nullptr, req[0], out[0]);
        nn_cpu::ConvBackwardWeight(pl.g, in[1], in[0], req[1], out[1], nullptr, OpReq::kNull);
        if (out.size() > 2) nn_cpu::BiasGrad(in[0], pl.g.batch, pl.g.in_c, pl.g.InSize(), req[2], out[2]);
      });
  op.list_output_names = nn::WeightGradNames;
  op.set_gradient(WeightLayerSecondOrder);
  return op;
}

[[maybe_unused]] OpDef& reg_deconv = RegisterForward();
[[maybe_unused]] OpDef& reg_deconv_backward = RegisterBackward();

}  // namespace
}  // namespace weft
