// Pooling (MXNet 1.x: max, avg, sum, lp; valid, full and same conventions;
// global pooling) over 1-D, 2-D and 3-D channel-first data, and its backward
// op _backward_Pooling. Kernels: core/op/spatial/pooling_cpu.cc (direct loops) and
// core/op/spatial/pooling_dnnl.cc, chosen per Note [NN kernel paths].
#include <cstring>
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/op/axis_util.h"
#include "core/graph/grad_builder.h"
#include "core/op/spatial/pooling_cpu.h"
#include "core/op/spatial/pooling_rules.h"
#include "core/op/common/layer_util.h"
#include "core/opdef/op_def.h"
#include "core/op/spatial/pooling_lrn_gpu.h"
#include "core/op/op_util.h"

namespace weft {
namespace nn {
namespace {

using nn_cpu::PoolGeom;
using nn_cpu::PoolType;

PoolType TypeOf(const std::string& s) {
  if (s == "avg") return PoolType::kAvg;
  if (s == "sum") return PoolType::kSum;
  if (s == "lp") return PoolType::kLp;
  return PoolType::kMax;
}

}  // namespace

// Output size per axis (MXNet): valid 1 + floor((in + 2p - k) / s), full
// 1 + ceil((in + 2p - k) / s), same ceil((in + 2p) / s) (1-D only, no pad).
// Declared in core/op/layer/layer_rules.h (shared with the GPU kernels).
PoolGeom PoolGeometry(const Params& p, const Shape& data) {
  const std::string op = "Pooling";
  WEFT_CHECK(data.ndim() >= 3 && data.ndim() <= 5, kShape)
      << op << ": input 'data' must be 3-D (batch, channel, width), 4-D (batch, channel, height, width) or 5-D, got "
      << data.ToString();
  const bool global = p.GetBool("global_pool");
  std::vector<int64_t> kernel;
  int nd;
  if (global) {
    nd = data.ndim() - 2;
    kernel.assign(data.dims().begin() + 2, data.dims().end());
  } else {
    WEFT_CHECK(!p.GetTuple("kernel").empty(), kInvalidArgument)
        << op << ": parameter 'kernel' is required unless global_pool=True";
    kernel = nn::KernelParam(p);
    nd = static_cast<int>(kernel.size());
    nn::CheckDataRank(op, data, nd);
  }
  nn::CheckLayout(p, nd);
  PoolGeom g;
  g.nd = nd;
  g.batch = data[0];
  g.channels = data[1];
  g.type = TypeOf(p.GetString("pool_type"));
  g.count_include_pad = p.IsNone("count_include_pad") || p.GetBool("count_include_pad");
  if (g.type == PoolType::kLp) {
    WEFT_CHECK(!p.IsNone("p_value"), kInvalidArgument) << op << ": pool_type='lp' needs p_value (1, 2 or 3)";
    const int64_t pv = p.GetInt("p_value");
    WEFT_CHECK(pv >= 1 && pv <= 3, kInvalidArgument) << op << ": p_value must be 1, 2 or 3, got " << pv;
    g.p_value = static_cast<int>(pv);
  }
  std::vector<int64_t> stride = global ? std::vector<int64_t>(nd, 1) : nn::AxisParam(p, "stride", nd, 1, 1);
  std::vector<int64_t> pad = global ? std::vector<int64_t>(nd, 0) : nn::AxisParam(p, "pad", nd, 0, 0);
  const std::string& conv = p.GetString("pooling_convention");
  if (conv == "same") {
    WEFT_CHECK(nd == 1, kInvalidArgument) << op << ": pooling_convention='same' supports 1-D pooling only";
    for (int64_t v : pad)
      WEFT_CHECK(v == 0, kInvalidArgument) << op << ": pooling_convention='same' does not take 'pad'";
  }
  for (int i = 0; i < nd; ++i) {
    const int s = 3 - nd + i;
    const int64_t in = data[2 + i], span = in + 2 * pad[i];
    WEFT_CHECK(kernel[i] <= span, kShape) << op << ": kernel " << tensor::TupleString(kernel)
                                          << " exceeds input 'data' " << data.ToString() << " padded by " << pad[i]
                                          << " on axis " << 2 + i;
    int64_t o;
    if (global) o = 1;
    else if (conv == "valid") o = 1 + (span - kernel[i]) / stride[i];
    else if (conv == "full") o = 1 + (span - kernel[i] + stride[i] - 1) / stride[i];
    else o = (span + stride[i] - 1) / stride[i];
    g.in[s] = in;
    g.out[s] = o;
    g.kernel[s] = kernel[i];
    g.stride[s] = stride[i];
    g.pad[s] = pad[i];
  }
  return g;
}

}  // namespace nn

namespace {

using nn_cpu::PoolGeom;

Shape OutShape(const PoolGeom& g) {
  Shape s{g.batch, g.channels};
  for (int i = 3 - g.nd; i < 3; ++i) s.push_back(g.out[i]);
  return s;
}

OpDef& Declare(const char* name) {
  WEFT_REGISTER_OP(op, name);
  op.add_param("kernel", ParamType::kShape, "()", "Pooling kernel size: (w,), (h, w) or (d, h, w).")
      .add_enum_param("pool_type", {"avg", "lp", "max", "sum"}, "max", "Pooling type to be applied.")
      .add_param("global_pool", ParamType::kBool, "False",
                 "Ignore kernel size and pool over the whole spatial extent of the input.")
      .add_param("cudnn_off", ParamType::kBool, "False", "Turn off cuDNN pooling; accepted and ignored on CPU.")
      .add_enum_param("pooling_convention", {"full", "same", "valid"}, "valid",
                      "How the output size is rounded: valid (floor), full (ceil) or same (ceil(in/stride), "
                      "1-D only).")
      .add_param("stride", ParamType::kShape, "()", "Stride per axis. Defaults to 1 for each axis.")
      .add_param("pad", ParamType::kShape, "()", "Padding per axis. Defaults to no padding.")
      .add_optional_param("p_value", ParamType::kInt, "Value of p for Lp pooling: 1, 2 or 3.")
      .add_optional_param("count_include_pad", ParamType::kBool,
                          "Average pooling only: whether padding elements count in the divisor. "
                          "None means True. With a 5x5 kernel on a 3x3 corner the sum of the 9 valid "
                          "elements is divided by 25 if True, by 9 if False.");
  nn::AddLayoutParam(op);
  return op;
}

// Note [Pooling workspace output]
// MXNet 1.9.1 as distributed is built with oneDNN, whose max pooling declares
// a second, hidden output (an int32 workspace the shape of the output) when
// the kernel has 1 to 3 axes and the layout is channel-first. Symbol files
// record output counts (node_row_ptr), so Pooling keeps MXNet's count: the
// hidden output exists under the same rule. weft's backward does not read it
// (it finds the argmax from data and output), so it is written as zeros.
bool HasWorkspace(const Params& p) {
  const size_t k = p.GetTuple("kernel").size();
  return p.GetString("pool_type") == "max" && k >= 1 && k <= 3 &&
         (p.IsNone("layout") || p.GetString("layout").compare(0, 2, "NC") == 0);
}

OpDef& RegisterForward() {
  OpDef& op = Declare("Pooling").set_compute_gpu(WEFT_GPU(cuda::PoolingGpu));
  op.add_alias("Pooling_v1");  // MXNet's legacy layer: its parameters are a subset (issue 17)
  op.describe("Performs pooling on the input (batch, channel, spatial...) over 1, 2 or 3 spatial axes.\n\n"
              "max takes the window maximum (padding ignored), avg the window mean, sum the window sum, "
              "lp (sum x^p)^(1/p). Only channel-first layouts; float32 and float64. Max pooling with a "
              "kernel also has a hidden int32 output (MXNet's oneDNN workspace; zeros here).")
      .add_input("data")
      .set_num_outputs([](const Params& p) { return HasWorkspace(p) ? 2 : 1; })
      .set_infer_type([](const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
        std::vector<DType> out0((*out).begin(), (*out).begin() + 1);
        bool done = nn::FloatOr16BitTypeInfer(p, in, &out0);
        (*out)[0] = out0[0];
        if (out->size() > 1) AssignType(out, 1, DType::kInt32, "Pooling: output 'workspace'");
        return done;
      })
      .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        if (!(*in)[0].known()) return false;
        const Shape o = OutShape(nn::PoolGeometry(p, (*in)[0]));
        AssignShape(out, 0, o, "Pooling: output");
        if (out->size() > 1) AssignShape(out, 1, o, "Pooling: output 'workspace'");
        return true;
      })
      .set_compute_cpu([](const OpContext&, const Params& p, const std::vector<TensorView>& in,
                          const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
        nn_cpu::PoolForward(nn::PoolGeometry(p, in[0].shape), in[0], req[0], out[0]);
        if (out.size() > 1 && (req[1] == OpReq::kWriteTo || req[1] == OpReq::kWriteInplace))
          out[1].ZeroFill();
      })
      .set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) {
        return ViaBackwardOp(n, "_backward_Pooling", {og[0], n->inputs[0], OutputOf(n, 0)});
      });
  op.num_visible_outputs = 1;
  op.list_output_names = [](const Params& p) {
    return HasWorkspace(p) ? std::vector<std::string>{"output", "workspace"} : std::vector<std::string>{"output"};
  };
  return op;
}

OpDef& RegisterBackward() {
  OpDef& op = Declare("_backward_Pooling").set_compute_gpu(WEFT_GPU(cuda::BackwardPoolingGpu));
  op.describe("Gradient of Pooling: inputs (out_grad, data, output) where output is Pooling's result; "
              "output data_grad. Takes Pooling's parameters.")
      .add_input("out_grad")
      .add_input("data")
      .add_input("output")
      .set_infer_type(nn::FloatOr16BitTypeInfer)
      .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        AssignShape(in, 1, (*out)[0], "_backward_Pooling: input 'data'");
        if (!(*in)[1].known()) return false;
        const Shape o = OutShape(nn::PoolGeometry(p, (*in)[1]));
        AssignShape(in, 0, o, "_backward_Pooling: input 'out_grad'");
        AssignShape(in, 2, o, "_backward_Pooling: input 'output'");
        AssignShape(out, 0, (*in)[1], "_backward_Pooling: output");
        return true;
      })
      .set_compute_cpu([](const OpContext&, const Params& p, const std::vector<TensorView>& in,
                          const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
        nn_cpu::PoolBackward(nn::PoolGeometry(p, in[1].shape), in[0], in[1], in[2], req[0], out[0]);
      })
      // Second order, for the linear pool types: avg and sum pooling are linear
      // maps whose backward is their transpose, so the gradient by out_grad is
      // the forward pooling of the incoming gradient (same window counts); data
      // and output only decide nothing here. max and lp select or weigh by the
      // data and have no rule.
      .set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) -> std::vector<NodeEntry> {
        const std::string& type = n->params.GetString("pool_type");
        WEFT_CHECK(type == "avg" || type == "sum", kInvalidArgument)
            << "Pooling: no second-order gradient for pool_type='" << type << "' (avg and sum have one)";
        GradBuilder b(n);
        return {OutputOf(b.NodeWithAttrs("Pooling", {og[0]})), b.Zeros(b.in(1)), b.Zeros(b.in(2))};
      });
  return op;
}

[[maybe_unused]] OpDef& reg_pool = RegisterForward();
[[maybe_unused]] OpDef& reg_pool_backward = RegisterBackward();

}  // namespace
}  // namespace weft
