// LayerNorm and InstanceNorm (MXNet 1.x) with their backward operators.
// Kernels: core/op/norm/layer_norm_cpu.cc.
//
// LayerNorm outputs (output, mean, std), InstanceNorm (output, mean, var);
// only output is visible (see Note [BatchNorm statistics] on
// output_mean_var). The backward operators take (out_grad, data, gamma, mean,
// std|var) and return the gradients of data, gamma and beta.
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/op/axis_util.h"
#include "core/graph/grad_builder.h"
#include "core/op/norm/norm_cpu.h"
#include "core/op/common/nnx_util.h"
#include "core/op/norm/norm_rules.h"
#include "core/opdef/op_def.h"
#include "core/op/norm/norm_gpu.h"
#include "core/op/op_util.h"

namespace weft {
namespace {

// ---- LayerNorm ----

int LnAxis(const Params& p, const Shape& d) {
  return tensor::NormalizeAxis(p.GetInt("axis"), d.ndim(), p.op()->name, "data");
}

}  // namespace

namespace nnx {

nnx_cpu::RowNormArgs LayerNormArgsOf(const Params& p, const Shape& d) {
  const AxisSplit s = SplitAt(d, LnAxis(p, d));
  nnx_cpu::RowNormArgs a;
  a.outer = s.outer;
  a.n = s.n;
  a.inner = s.inner;
  a.eps = p.GetFloat("eps");
  return a;
}

}  // namespace nnx

namespace {

using nnx::InstanceNormArgsOf;
using nnx::LayerNormArgsOf;

Shape LnStatShape(const Params& p, const Shape& d) {
  Shape s = d;
  s[LnAxis(p, d)] = 1;
  return s;
}

void AddLnParams(OpDef& op) {
  op.add_param("axis", ParamType::kInt, "-1",
               "The axis to perform layer normalization. Usually, this should be be axis of the channel "
               "dimension. Negative values means indexing from right to left.")
      .add_param("eps", ParamType::kFloat, "1e-05", "An `epsilon` parameter to prevent division by 0.")
      .add_param("output_mean_var", ParamType::kBool, "False", "Output the mean and std calculated along the given axis.");
}

[[maybe_unused]] const bool kLayerNormRegistered = [] {
  WEFT_REGISTER_OP(fwd, "LayerNorm").set_compute_gpu(WEFT_GPU(cuda::LayerNormGpu));
  fwd.set_same_shape(SameShapeSlots::Data());
  fwd.describe("Layer normalization.\n\n"
               "Normalizes the channels of the input tensor by mean and variance, and applies a scale ``gamma`` "
               "as well as offset ``beta``.\n\n"
               ".. math::\n\n  out = \\frac{data - mean(data, axis)}{\\sqrt{var(data, axis) + \\epsilon}} * gamma "
               "+ beta\n\n"
               "gamma and beta have shape (data.shape[axis],). The hidden outputs are the mean and the standard "
               "deviation sqrt(var + eps), with data's shape except 1 along axis.")
      .add_input("data")
      .add_input("gamma")
      .add_input("beta");
  AddLnParams(fwd);
  fwd.set_num_outputs(3)
      .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        const Shape& d = (*in)[0];
        if (!d.known()) return false;
        WEFT_CHECK(d.ndim() >= 1, kShape) << "LayerNorm: input 'data' must have at least one dimension";
        const Shape c{d[LnAxis(p, d)]};
        AssignShape(in, 1, c, "LayerNorm: input 'gamma'");
        AssignShape(in, 2, c, "LayerNorm: input 'beta'");
        AssignShape(out, 0, d, "LayerNorm: output");
        AssignShape(out, 1, LnStatShape(p, d), "LayerNorm: output 'mean'");
        AssignShape(out, 2, LnStatShape(p, d), "LayerNorm: output 'std'");
        return true;
      })
      .set_infer_type(nnx::FloatSameTypeInfer)
      .set_compute_cpu([](const OpContext&, const Params& p, const std::vector<TensorView>& in,
                          const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
        nnx_cpu::RowNormForward(LayerNormArgsOf(p, in[0].shape), in[0], in[1], in[2], req, out[0], out[1], out[2]);
      });
  fwd.num_visible_outputs_fn = [](const Params& p) { return p.GetBool("output_mean_var") ? 3 : 1; };
  fwd.list_output_names = [](const Params&) { return std::vector<std::string>{"output", "mean", "std"}; };
  fwd.set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) {
    return ViaBackwardOp(n, "_backward_LayerNorm", {og[0], n->inputs[0], n->inputs[1], OutputOf(n, 1), OutputOf(n, 2)});
  });

  WEFT_REGISTER_OP(bwd, "_backward_LayerNorm").set_compute_gpu(WEFT_GPU(cuda::BackwardLayerNormGpu));
  bwd.describe("Gradient of LayerNorm from (out_grad, data, gamma, mean, std).")
      .add_input("out_grad")
      .add_input("data")
      .add_input("gamma")
      .add_input("mean")
      .add_input("std");
  AddLnParams(bwd);
  bwd.set_num_outputs(3)
      .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        const Shape& d = (*in)[1];
        if (!d.known()) return false;
        const Shape c{d[LnAxis(p, d)]};
        AssignShape(in, 0, d, "_backward_LayerNorm: input 'out_grad'");
        AssignShape(in, 2, c, "_backward_LayerNorm: input 'gamma'");
        AssignShape(in, 3, LnStatShape(p, d), "_backward_LayerNorm: input 'mean'");
        AssignShape(in, 4, LnStatShape(p, d), "_backward_LayerNorm: input 'std'");
        AssignShape(out, 0, d, "_backward_LayerNorm: output 0");
        AssignShape(out, 1, c, "_backward_LayerNorm: output 1");
        AssignShape(out, 2, c, "_backward_LayerNorm: output 2");
        return true;
      })
      .set_infer_type(nnx::FloatSameTypeInfer)
      .set_compute_cpu([](const OpContext&, const Params& p, const std::vector<TensorView>& in,
                          const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
        nnx_cpu::RowNormBackward(LayerNormArgsOf(p, in[1].shape), in[0], in[1], in[2], in[3], in[4], req, out[0],
                                 out[1], out[2]);
      })
      .add_inplace(0, 0);
  bwd.list_output_names = [](const Params&) {
    return std::vector<std::string>{"data_grad", "gamma_grad", "beta_grad"};
  };
  return true;
}();

// ---- InstanceNorm ----

void CheckInstanceData(const std::string& op, const Shape& d) {
  WEFT_CHECK(d.ndim() >= 3, kShape) << op << ": input 'data' must have at least 3 dims (batch, channel, spatial...), "
                                    << "got " << d.ToString();
}

}  // namespace

namespace nnx {

nnx_cpu::RowNormArgs InstanceNormArgsOf(const Params& p, const Shape& d) {
  CheckInstanceData(p.op()->name, d);
  nnx_cpu::RowNormArgs a;
  a.outer = d[0] * d[1];
  a.n = d.ProdRange(2, d.ndim());
  a.inner = 1;
  a.channels = d[1];
  a.eps = p.GetFloat("eps");
  a.store_var = true;
  return a;
}

}  // namespace nnx

namespace {

void AddInParams(OpDef& op) {
  op.add_param("eps", ParamType::kFloat, "0.001",
               "An `epsilon` parameter to prevent division by 0.");
}

[[maybe_unused]] const bool kInstanceNormRegistered = [] {
  WEFT_REGISTER_OP(fwd, "InstanceNorm").set_compute_gpu(WEFT_GPU(cuda::InstanceNormGpu));
  fwd.set_same_shape(SameShapeSlots::Data());
  fwd.describe("Applies instance normalization to the n-dimensional input array.\n\n"
               "This operator takes an n-dimensional input array where (n>2) and normalizes the input using the "
               "following formula:\n\n"
               ".. math::\n\n  out = \\frac{x - mean[data]}{ \\sqrt{Var[data]} + \\epsilon} * gamma + beta\n\n"
               "(computed as (x - mean) / sqrt(var + eps)), where mean and var are taken over the spatial "
               "dims of each (sample, channel); gamma and beta have shape (channels,). The hidden outputs are "
               "the mean and variance, shape (batch, channels).")
      .add_input("data")
      .add_input("gamma")
      .add_input("beta");
  AddInParams(fwd);
  fwd.set_num_outputs(3)
      .set_infer_shape([](const Params&, std::vector<Shape>* in, std::vector<Shape>* out) {
        const Shape& d = (*in)[0];
        if (!d.known()) return false;
        CheckInstanceData("InstanceNorm", d);
        AssignShape(in, 1, Shape{d[1]}, "InstanceNorm: input 'gamma'");
        AssignShape(in, 2, Shape{d[1]}, "InstanceNorm: input 'beta'");
        AssignShape(out, 0, d, "InstanceNorm: output");
        AssignShape(out, 1, Shape{d[0], d[1]}, "InstanceNorm: output 'mean'");
        AssignShape(out, 2, Shape{d[0], d[1]}, "InstanceNorm: output 'var'");
        return true;
      })
      .set_infer_type(nnx::FloatSameTypeInfer)
      .set_compute_cpu([](const OpContext&, const Params& p, const std::vector<TensorView>& in,
                          const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
        nnx_cpu::RowNormForward(InstanceNormArgsOf(p, in[0].shape), in[0], in[1], in[2], req, out[0], out[1], out[2]);
      });
  fwd.num_visible_outputs = 1;
  fwd.list_output_names = [](const Params&) { return std::vector<std::string>{"output", "mean", "var"}; };
  fwd.set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) {
    return ViaBackwardOp(n, "_backward_InstanceNorm",
                         {og[0], n->inputs[0], n->inputs[1], OutputOf(n, 1), OutputOf(n, 2)});
  });

  WEFT_REGISTER_OP(bwd, "_backward_InstanceNorm").set_compute_gpu(WEFT_GPU(cuda::BackwardInstanceNormGpu));
  bwd.describe("Gradient of InstanceNorm from (out_grad, data, gamma, mean, var).")
      .add_input("out_grad")
      .add_input("data")
      .add_input("gamma")
      .add_input("mean")
      .add_input("var");
  AddInParams(bwd);
  bwd.set_num_outputs(3)
      .set_infer_shape([](const Params&, std::vector<Shape>* in, std::vector<Shape>* out) {
        const Shape& d = (*in)[1];
        if (!d.known()) return false;
        CheckInstanceData("_backward_InstanceNorm", d);
        AssignShape(in, 0, d, "_backward_InstanceNorm: input 'out_grad'");
        AssignShape(in, 2, Shape{d[1]}, "_backward_InstanceNorm: input 'gamma'");
        AssignShape(in, 3, Shape{d[0], d[1]}, "_backward_InstanceNorm: input 'mean'");
        AssignShape(in, 4, Shape{d[0], d[1]}, "_backward_InstanceNorm: input 'var'");
        AssignShape(out, 0, d, "_backward_InstanceNorm: output 0");
        AssignShape(out, 1, Shape{d[1]}, "_backward_InstanceNorm: output 1");
        AssignShape(out, 2, Shape{d[1]}, "_backward_InstanceNorm: output 2");
        return true;
      })
      .set_infer_type(nnx::FloatSameTypeInfer)
      .set_compute_cpu([](const OpContext&, const Params& p, const std::vector<TensorView>& in,
                          const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
        nnx_cpu::RowNormBackward(InstanceNormArgsOf(p, in[1].shape), in[0], in[1], in[2], in[3], in[4], req, out[0],
                                 out[1], out[2]);
      })
      .add_inplace(0, 0);
  bwd.list_output_names = [](const Params&) {
    return std::vector<std::string>{"data_grad", "gamma_grad", "beta_grad"};
  };
  return true;
}();

}  // namespace
}  // namespace weft
