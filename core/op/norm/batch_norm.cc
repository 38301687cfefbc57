// BatchNorm (MXNet 1.x) and _backward_BatchNorm. Kernels: core/op/norm/batch_norm_cpu.cc.
//
// Note [BatchNorm statistics]
// Inputs are (data, gamma, beta, moving_mean, moving_var); the moving
// statistics are aux states written by the op (mutate_inputs {3, 4}, engine
// writes). When training (OpContext::is_train) without use_global_stats the
// batch's mean and biased variance normalise the data and are folded into the
// moving statistics, moving = moving * momentum + batch * (1 - momentum), in
// the forward pass (MXNet's CPU kernel does it in the backward pass; the GPU
// and oneDNN paths, and the resulting values, are the same). Otherwise the
// moving statistics normalise and nothing is written to them.
// The outputs are (output, mean, var): "var" holds the inverse standard
// deviation 1/sqrt(var + eps) as in MXNet, and only output is visible (all
// three with output_mean_var=True once the registry supports a
// parameter-dependent visible count). Parameters and statistics use float32
// for 16-bit data, else data's dtype.
//
// _backward_BatchNorm takes (out_grad, mean, var, data, gamma, beta,
// moving_mean, moving_var), like MXNet's BatchNormGrad, and returns the
// gradients of data, gamma and beta; it uses the saved batch statistics when
// is_train and not use_global_stats, the moving ones otherwise.
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

void AddBatchNormParams(OpDef& op) {
  op.add_param("eps", ParamType::kFloat, "0.001",
               "Epsilon to prevent div 0. Must be no less than CUDNN_BN_MIN_EPSILON defined in cudnn.h when using "
               "cudnn (usually 1e-5)")
      .add_param("momentum", ParamType::kFloat, "0.9", "Momentum for moving average")
      .add_param("fix_gamma", ParamType::kBool, "True", "Fix gamma while training")
      .add_param("use_global_stats", ParamType::kBool, "False",
                 "Whether use global moving statistics instead of local batch-norm. This will force change "
                 "batch-norm into a scale shift operator.")
      .add_param("output_mean_var", ParamType::kBool, "False", "Output the mean and inverse std ")
      .add_param("axis", ParamType::kInt, "1", "Specify which shape axis the channel is specified")
      .add_param("cudnn_off", ParamType::kBool, "False", "Do not select CUDNN operator, if available (ignored)")
      .add_optional_param("min_calib_range", ParamType::kFloat,
                          "The minimum scalar value in the form of float32 obtained through calibration "
                          "(quantization only; ignored).")
      .add_optional_param("max_calib_range", ParamType::kFloat,
                          "The maximum scalar value in the form of float32 obtained through calibration "
                          "(quantization only; ignored).");
}

int Axis(const Params& p, const Shape& d) {
  return tensor::NormalizeAxis(p.GetInt("axis"), d.ndim(), p.op()->name, "data");
}

DType ParamDType(DType data) {
  return (data == DType::kFloat16 || data == DType::kBFloat16) ? DType::kFloat32 : data;
}

}  // namespace

namespace nnx {

nnx_cpu::BatchNormArgs BatchNormArgsOf(const Params& p, const Shape& d, bool is_train) {
  nnx_cpu::BatchNormArgs a;
  const AxisSplit s = SplitAt(d, Axis(p, d));
  a.outer = s.outer;
  a.channels = s.n;
  a.inner = s.inner;
  a.eps = p.GetFloat("eps");
  a.momentum = p.GetFloat("momentum");
  a.fix_gamma = p.GetBool("fix_gamma");
  a.batch_stats = is_train && !p.GetBool("use_global_stats");
  a.update_moving = a.batch_stats;
  return a;
}

}  // namespace nnx

namespace {

using nnx::BatchNormArgsOf;

// Types: slots in `data_like` take data's dtype, every other input the parameter dtype.
bool InferTypes(const Params& p, std::vector<DType>* in, std::vector<DType>* out, size_t data_index,
                const std::vector<size_t>& data_like) {
  const std::string& op = p.op()->name;
  DType t = (*in)[data_index];
  if (t == DType::kUnknown) return false;
  nnx::CheckFloating(t, op, "input 'data'");
  const DType pt = ParamDType(t);
  for (size_t i = 0; i < in->size(); ++i) {
    bool is_data = false;
    for (size_t k : data_like) is_data = is_data || k == i;
    AssignType(in, i, is_data ? t : pt, op + ": input '" + nnx::InputName(p, i) + "'");
  }
  for (size_t i = 0; i < out->size(); ++i) AssignType(out, i, i == 0 ? t : pt, op + ": output " + std::to_string(i));
  return true;
}

[[maybe_unused]] const bool kBatchNormRegistered = [] {
  WEFT_REGISTER_OP(fwd, "BatchNorm").set_compute_gpu(WEFT_GPU(cuda::BatchNormGpu));
  fwd.set_same_shape(SameShapeSlots::Data());
  // Folds into a convolution before it at inference (Note [Fusion patterns on
  // the op], core/opdef/op_def.h): the fused op reads channels on axis 1 and
  // returns no statistics.
  fwd.set_fusion_pattern(FusionPattern::Norm({"eps", "momentum", "fix_gamma", "use_global_stats"},
                                             [](const Params& p) {
                                               return p.GetInt("axis") == 1 && !p.GetBool("output_mean_var");
                                             }));
  fwd.add_alias("BatchNorm_v1");  // MXNet's legacy layer: its parameters are a subset (issue 17)
  fwd.describe("Batch normalization.\n\n"
               "Normalizes a data batch by mean and variance, and applies a scale ``gamma`` as well as offset "
               "``beta``.\n\n"
               ".. math::\n\n  out[:,i,:,...] = \\frac{data[:,i,:,...] - mean[i]}{\\sqrt{var[i]+\\epsilon}} "
               "\\gamma[i] + \\beta[i]\n\n"
               "When training (and not use_global_stats) mean and var are those of the batch and the moving "
               "statistics are updated in place: moving_mean = moving_mean * momentum + mean * (1 - momentum), "
               "likewise moving_var. Otherwise moving_mean and moving_var are used. If ``fix_gamma`` is true, "
               "gamma is treated as 1. The channel axis is ``axis`` (default 1). The hidden outputs are the mean "
               "and the inverse standard deviation that were used.")
      .add_input("data")
      .add_input("gamma")
      .add_input("beta")
      .add_input("moving_mean")
      .add_input("moving_var");
  AddBatchNormParams(fwd);
  fwd.set_num_outputs(3)
      .set_mutate_inputs({3, 4})
      .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        const Shape& d = (*in)[0];
        if (!d.known()) return false;
        WEFT_CHECK(d.ndim() >= 1, kShape) << "BatchNorm: input 'data' must have at least one dimension";
        const Shape c{d[Axis(p, d)]};
        static const char* kNames[] = {"data", "gamma", "beta", "moving_mean", "moving_var"};
        for (size_t i = 1; i < 5; ++i) AssignShape(in, i, c, std::string("BatchNorm: input '") + kNames[i] + "'");
        AssignShape(out, 0, d, "BatchNorm: output");
        AssignShape(out, 1, c, "BatchNorm: output 'mean'");
        AssignShape(out, 2, c, "BatchNorm: output 'var'");
        return true;
      })
      .set_infer_type([](const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
        return InferTypes(p, in, out, 0, {0});
      })
      .set_compute_cpu([](const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                          const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
        nnx_cpu::BatchNormForward(BatchNormArgsOf(p, in[0].shape, ctx.is_train), in[0], in[1], in[2], in[3], in[4],
                                  req, out[0], out[1], out[2]);
      });
  // MXNet hints how to initialise the moving statistics (FORMATS.md B.5).
  fwd.set_input_var_attrs = [](int input, std::map<std::string, std::string>* attrs) {
    if (input == 3 && !attrs->count("__init__")) (*attrs)["__init__"] = "[\"zero\", {}]";
    if (input == 4 && !attrs->count("__init__")) (*attrs)["__init__"] = "[\"one\", {}]";
  };
  // output_mean_var makes the saved mean and inverse std visible (MXNet).
  fwd.num_visible_outputs_fn = [](const Params& p) { return p.GetBool("output_mean_var") ? 3 : 1; };
  fwd.list_output_names = [](const Params&) { return std::vector<std::string>{"output", "mean", "var"}; };
  fwd.set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) {
    // The saved batch statistics; the moving statistics (aux states) take no gradient.
    const std::vector<NodeEntry>& x = n->inputs;
    return ViaBackwardOp(n, "_backward_BatchNorm",
                         {og[0], OutputOf(n, 1), OutputOf(n, 2), x[0], x[1], x[2], x[3], x[4]});
  });

  WEFT_REGISTER_OP(bwd, "_backward_BatchNorm").set_compute_gpu(WEFT_GPU(cuda::BackwardBatchNormGpu));
  bwd.describe("Gradient of BatchNorm from (out_grad, mean, var, data, gamma, beta, moving_mean, moving_var); "
               "see Note [BatchNorm statistics] in core/op/norm/batch_norm.cc.")
      .add_input("out_grad")
      .add_input("mean")
      .add_input("var")
      .add_input("data")
      .add_input("gamma")
      .add_input("beta")
      .add_input("moving_mean")
      .add_input("moving_var");
  AddBatchNormParams(bwd);
  bwd.set_num_outputs(3)
      .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        const Shape& d = (*in)[3];
        if (!d.known()) return false;
        const Shape c{d[Axis(p, d)]};
        AssignShape(in, 0, d, "_backward_BatchNorm: input 'out_grad'");
        for (size_t i : {1, 2, 4, 5, 6, 7})
          AssignShape(in, i, c, "_backward_BatchNorm: input '" + nnx::InputName(p, i) + "'");
        AssignShape(out, 0, d, "_backward_BatchNorm: output 0");
        AssignShape(out, 1, c, "_backward_BatchNorm: output 1");
        AssignShape(out, 2, c, "_backward_BatchNorm: output 2");
        return true;
      })
      .set_infer_type([](const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
        return InferTypes(p, in, out, 3, {0, 3});
      })
      .set_compute_cpu([](const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                          const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
        nnx_cpu::BatchNormBackward(BatchNormArgsOf(p, in[3].shape, ctx.is_train), in[0], in[1], in[2], in[3], in[4],
                                   in[6], in[7], req, out[0], out[1], out[2]);
      })
      .add_inplace(0, 0);
  bwd.list_output_names = [](const Params&) {
    return std::vector<std::string>{"data_grad", "gamma_grad", "beta_grad"};
  };
  return true;
}();

}  // namespace
}  // namespace weft
