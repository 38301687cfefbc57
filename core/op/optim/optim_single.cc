// Single-tensor optimizer updates with MXNet 1.9.1's names, parameters and
// in-place states (FMutateInputs): ftml_update, rmspropalex_update, the lamb
// phases and their mp_ twins, mp_sgd_update, mp_sgd_mom_update,
// mp_nag_mom_update, _contrib_adamw_update, _contrib_mp_adamw_update,
// _contrib_group_adagrad_update and multi_lars. The mp_* updates keep a
// float32 master copy (weight32) of a float16/float32 weight and float32
// states. Rules: optim_rules.h; kernels: update_drivers_cpu.cc, update_drivers.cu.
#include <algorithm>
#include <string>
#include <vector>

#include "core/op/common/nnx_util.h"
#include "core/opdef/op_def.h"
#include "core/op/optim/update_drivers_cpu.h"
#include "core/op/optim/update_infer.h"
#include "core/op/optim/update_drivers_gpu.h"

namespace weft {
namespace optim {
namespace {

// Inputs in `scalars` are one-element arrays (shape (1,)); `hist` (when >= 0)
// is group_adagrad's history, shape (rows, 1); every other input and the
// output share the weight's shape.
FInferShape ShapeRule(std::vector<int> scalars, int hist = -1) {
  return [scalars, hist](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
    const std::string& op = p.op()->name;
    std::vector<ShapeSlot> same;
    bool known = true;
    for (size_t i = 0; i < in->size(); ++i) {
      const bool scalar = std::find(scalars.begin(), scalars.end(), static_cast<int>(i)) != scalars.end();
      if (scalar) {
        FixShape(op, InShape(p, in, i), Shape{1});
      } else if (static_cast<int>(i) != hist) {
        same.push_back(InShape(p, in, i));
      }
    }
    same.push_back(OutShape(p, out, 0));
    known = UnifyShapes(op, same) && known;
    if (hist >= 0) {
      const Shape& w = (*in)[0];
      WEFT_CHECK(!w.known() || w.ndim() >= 1, kShape) << op << ": input 'weight': expected at least 1 dimension, got "
                                                      << w.ToString();
      if (w.known()) FixShape(op, InShape(p, in, static_cast<size_t>(hist)), Shape{w[0], 1});
      known = known && (*in)[static_cast<size_t>(hist)].known();
    }
    return known;
  };
}

// Multi-precision dtypes: weight, grad and the output share a floating dtype
// (float16 or float32); the inputs from `first_fp32` on are float32, and so
// is the output when out_fp32 (mp_lamb_update_phase1's g).
FInferType MpTypeRule(size_t first_fp32, bool out_fp32) {
  return [first_fp32, out_fp32](const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
    const std::string& op = p.op()->name;
    std::vector<TypeSlot> low = {InType(p, in, 0)};
    for (size_t i = 1; i < first_fp32; ++i) low.push_back(InType(p, in, i));
    if (out_fp32) FixType(op, OutType(p, out, 0), DType::kFloat32);
    else low.push_back(OutType(p, out, 0));
    const bool known = UnifyFloatTypes(op, low);
    for (size_t i = first_fp32; i < in->size(); ++i) FixType(op, InType(p, in, i), DType::kFloat32);
    return known;
  };
}

OpDef& Declare(const char* name, const std::vector<const char*>& inputs, std::vector<int> mutated,
               const std::string& doc) {
  WEFT_REGISTER_OP(op, name);
  op.describe(doc);
  for (const char* n : inputs) op.add_input(n);
  op.set_mutate_inputs(std::move(mutated));
  return op;
}

void AddLr(OpDef& op) { op.add_required_param("lr", ParamType::kFloat, "Learning rate"); }
void AddLazy(OpDef& op) {
  op.add_param("lazy_update", ParamType::kBool, "True",
               "If true, lazy updates are applied if gradient's stype is row_sparse and both weight and momentum "
               "have the same stype (accepted; arrays are dense here).");
}
void AddMomentum(OpDef& op) {
  op.add_param("momentum", ParamType::kFloat, "0", "The decay rate of momentum estimates at each epoch.");
}
void AddLambPhase1Params(OpDef& op) {
  op.add_param("beta1", ParamType::kFloat, "0.9", "The decay rate for the 1st moment estimates.")
      .add_param("beta2", ParamType::kFloat, "0.999", "The decay rate for the 2nd moment estimates.")
      .add_param("epsilon", ParamType::kFloat, "1e-06", "A small constant for numerical stability.")
      .add_required_param("t", ParamType::kInt, "Index update count.")
      .add_param("bias_correction", ParamType::kBool, "True", "Whether to use bias correction.");
  AddWd(op, true);
  AddRescaleGrad(op);
  AddClipGradient(op);
}
void AddLambPhase2Params(OpDef& op) {
  AddLr(op);
  op.add_param("lower_bound", ParamType::kFloat, "-1",
               "Lower limit of norm of weight. If lower_bound <= 0, Lower limit is not set")
      .add_param("upper_bound", ParamType::kFloat, "-1",
                 "Upper limit of norm of weight. If upper_bound <= 0, Upper limit is not set");
}
void AddAdamWParams(OpDef& op) {
  AddLr(op);
  op.add_param("beta1", ParamType::kFloat, "0.9", "The decay rate for the 1st moment estimates.")
      .add_param("beta2", ParamType::kFloat, "0.999", "The decay rate for the 2nd moment estimates.")
      .add_param("epsilon", ParamType::kFloat, "1e-08", "A small constant for numerical stability.");
  AddWd(op);
  op.add_required_param("eta", ParamType::kFloat, "Learning rate schedule multiplier");
  AddClipGradient(op);
}

// t >= 1 where the rule divides by 1 - beta^t.
void CheckStep(const Params& p) {
  if (p.op()->ParamIndex("bias_correction") >= 0 && !p.GetBool("bias_correction")) return;
  WEFT_CHECK(p.GetInt("t") >= 1, kInvalidArgument)
      << p.op()->name << ": parameter 't' (the update count) must be at least 1, got " << p.GetInt("t");
}

FInferShape Checked(FInferShape f) {
  return [f](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
    CheckStep(p);
    return f(p, in, out);
  };
}

const char* const kLambPhase1Doc =
    "Phase I of lamb update it performs the following operations and returns g:.\n\n"
    "Link to paper: https://arxiv.org/pdf/1904.00962.pdf\n\n"
    "  grad = clip(grad * rescale_grad, clip_gradient)\n"
    "  mean = beta1 * mean + (1 - beta1) * grad\n  var = beta2 * var + (1 - beta2) * grad ^ 2\n"
    "  if bias_correction: g = (mean / (1 - beta1^t)) / (sqrt(var / (1 - beta2^t)) + epsilon) + wd * weight\n"
    "  else: g = mean / (sqrt(var) + epsilon) + wd * weight\n\nmean and var are updated in place.";
const char* const kLambPhase2Doc =
    "Phase II of lamb update it performs the following operations and updates grad.\n\n"
    "  r1 = max(r1, lower_bound) if lower_bound >= 0; r1 = min(r1, upper_bound) if upper_bound >= 0\n"
    "  lr = lr if r1 == 0 or r2 == 0 else lr * r1 / r2\n  weight = weight - lr * g\n\n"
    "r1 and r2 are the norms of the weight and of g (one-element arrays).";
const char* const kAdamWDoc =
    "Update function for AdamW optimizer. AdamW is seen as a modification of Adam by decoupling the weight decay "
    "from the optimization steps taken w.r.t. the loss function.\n\n"
    "  grad = clip(grad * rescale_grad, clip_gradient)\n  m = beta1 * m + (1 - beta1) * grad\n"
    "  v = beta2 * v + (1 - beta2) * grad^2\n  w -= eta * (learning_rate * m / (sqrt(v) + epsilon) + w * wd)\n\n"
    "rescale_grad is an input (a one-element array): if it is NaN, the update is skipped (the weight is "
    "returned unchanged).";

[[maybe_unused]] const bool kRegistered = [] {
  {
    OpDef& op = Declare("ftml_update", {"weight", "grad", "d", "v", "z"}, {2, 3, 4},
                        "The FTML optimizer described in *FTML - Follow the Moving Leader in Deep Learning*.\n\n"
                        "  g = clip(rescale_grad * grad + wd * weight, clip_grad)\n"
                        "  v = beta2 * v + (1 - beta2) * g^2\n"
                        "  d_t = (1 - beta1^t) / lr * (sqrt(v / (1 - beta2^t)) + epsilon)\n"
                        "  z = beta1 * z + (1 - beta1) * g - (d_t - beta1 * d) * weight\n"
                        "  d = d_t\n  weight = -z / d_t\n\nd, v and z are updated in place.");
    AddLr(op);
    op.add_param("beta1", ParamType::kFloat, "0.6", "Generally close to 0.5.")
        .add_param("beta2", ParamType::kFloat, "0.999", "Generally close to 1.")
        .add_param("epsilon", ParamType::kFloat, "1e-08", "Epsilon to prevent div 0.")
        .add_required_param("t", ParamType::kInt, "Number of update.");
    AddWd(op);
    AddRescaleGrad(op);
    AddClipGradient(op, "clip_grad");
    op.set_infer_shape(Checked(ShapeRule({})))
        .set_infer_type(RealSameTypeInfer)
        .set_compute_cpu(FtmlUpdateCpu)
        .set_compute_gpu(WEFT_GPU(cuda::FtmlUpdateGpu))
        .add_inplace(0, 0);
  }
  {
    OpDef& op = Declare("rmspropalex_update", {"weight", "grad", "n", "g", "delta"}, {2, 3, 4},
                        "Update function for RMSPropAlex optimizer (Graves 2013, Eq. 38-45).\n\n"
                        "  grad = clip(rescale_grad * grad + wd * weight, clip_gradient)\n"
                        "  n = (1 - gamma1) * grad^2 + gamma1 * n\n  g = (1 - gamma1) * grad + gamma1 * g\n"
                        "  delta = gamma2 * delta - lr * grad / sqrt(n - g^2 + epsilon)\n"
                        "  weight = clip(weight + delta, clip_weights)\n\nn, g and delta are updated in place.");
    AddLr(op);
    op.add_param("gamma1", ParamType::kFloat, "0.95", "Decay rate.")
        .add_param("gamma2", ParamType::kFloat, "0.9", "Decay rate.")
        .add_param("epsilon", ParamType::kFloat, "1e-08", "A small constant for numerical stability.");
    AddWd(op);
    AddRescaleGrad(op);
    AddClipGradient(op);
    op.add_param("clip_weights", ParamType::kFloat, "-1",
                 "Clip weights to the range of [-clip_weights, clip_weights] If clip_weights <= 0, weight clipping "
                 "is turned off. weights = max(min(weights, clip_weights), -clip_weights).");
    op.set_infer_shape(ShapeRule({}))
        .set_infer_type(RealSameTypeInfer)
        .set_compute_cpu(RmspropAlexUpdateCpu)
        .set_compute_gpu(WEFT_GPU(cuda::RmspropAlexUpdateGpu))
        .add_inplace(0, 0);
  }
  {
    OpDef& op = Declare("lamb_update_phase1", {"weight", "grad", "mean", "var"}, {2, 3}, kLambPhase1Doc);
    AddLambPhase1Params(op);
    op.set_infer_shape(Checked(ShapeRule({})))
        .set_infer_type(RealSameTypeInfer)
        .set_compute_cpu(LambUpdatePhase1Cpu)
        .set_compute_gpu(WEFT_GPU(cuda::LambUpdatePhase1Gpu));
  }
  {
    OpDef& op = Declare("mp_lamb_update_phase1", {"weight", "grad", "mean", "var", "weight32"}, {2, 3},
                        std::string("Mixed Precision version of ") + kLambPhase1Doc +
                            "\n\nThe rule runs on weight32 (float32); g is float32.");
    AddLambPhase1Params(op);
    op.set_infer_shape(Checked(ShapeRule({})))
        .set_infer_type(MpTypeRule(2, true))
        .set_compute_cpu(MpLambUpdatePhase1Cpu)
        .set_compute_gpu(WEFT_GPU(cuda::MpLambUpdatePhase1Gpu));
  }
  {
    OpDef& op = Declare("lamb_update_phase2", {"weight", "g", "r1", "r2"}, {}, kLambPhase2Doc);
    AddLambPhase2Params(op);
    op.set_infer_shape(ShapeRule({2, 3}))
        .set_infer_type(RealSameTypeInfer)
        .set_compute_cpu(LambUpdatePhase2Cpu)
        .set_compute_gpu(WEFT_GPU(cuda::LambUpdatePhase2Gpu))
        .add_inplace(0, 0);
  }
  {
    OpDef& op = Declare("mp_lamb_update_phase2", {"weight", "g", "r1", "r2", "weight32"}, {4},
                        std::string("Mixed Precision version of ") + kLambPhase2Doc +
                            "\n\ng, r1, r2 and weight32 are float32; weight32 is updated in place.");
    AddLambPhase2Params(op);
    op.set_infer_shape(ShapeRule({2, 3}))
        .set_infer_type(MpTypeRule(1, false))
        .set_compute_cpu(MpLambUpdatePhase2Cpu)
        .set_compute_gpu(WEFT_GPU(cuda::MpLambUpdatePhase2Gpu))
        .add_inplace(0, 0);
  }
  {
    OpDef& op = Declare("mp_sgd_update", {"weight", "grad", "weight32"}, {2},
                        "Updater function for multi-precision sgd optimizer.\n\n"
                        "  weight32 = (1 - lr * wd) * weight32 - lr * clip(rescale_grad * grad, clip_gradient)\n"
                        "  weight = weight32 (cast)\n\nweight32 (float32) is updated in place.");
    AddLr(op);
    AddWd(op);
    AddRescaleGrad(op);
    AddClipGradient(op);
    AddLazy(op);
    op.set_infer_shape(ShapeRule({}))
        .set_infer_type(MpTypeRule(2, false))
        .set_compute_cpu(MpSgdUpdateCpu)
        .set_compute_gpu(WEFT_GPU(cuda::MpSgdUpdateGpu))
        .add_inplace(0, 0);
  }
  {
    OpDef& op = Declare("mp_sgd_mom_update", {"weight", "grad", "mom", "weight32"}, {2, 3},
                        "Updater function for multi-precision sgd optimizer.\n\n"
                        "  mom = momentum * mom - lr * wd * weight32 - lr * clip(rescale_grad * grad, clip_gradient)\n"
                        "  weight32 = weight32 + mom\n  weight = weight32 (cast)\n\n"
                        "mom and weight32 (float32) are updated in place.");
    AddLr(op);
    AddMomentum(op);
    AddWd(op);
    AddRescaleGrad(op);
    AddClipGradient(op);
    AddLazy(op);
    op.set_infer_shape(ShapeRule({}))
        .set_infer_type(MpTypeRule(2, false))
        .set_compute_cpu(MpSgdMomUpdateCpu)
        .set_compute_gpu(WEFT_GPU(cuda::MpSgdMomUpdateGpu))
        .add_inplace(0, 0);
  }
  {
    OpDef& op = Declare("mp_nag_mom_update", {"weight", "grad", "mom", "weight32"}, {2, 3},
                        "Update function for multi-precision Nesterov Accelerated Gradient( NAG) optimizer.\n\n"
                        "  grad = clip(rescale_grad * grad, clip_gradient) + wd * weight32\n"
                        "  mom = momentum * mom + grad\n  weight32 = weight32 - lr * (momentum * mom + grad)\n"
                        "  weight = weight32 (cast)\n\nmom and weight32 (float32) are updated in place.");
    AddLr(op);
    AddMomentum(op);
    AddWd(op);
    AddRescaleGrad(op);
    AddClipGradient(op);
    op.set_infer_shape(ShapeRule({}))
        .set_infer_type(MpTypeRule(2, false))
        .set_compute_cpu(MpNagMomUpdateCpu)
        .set_compute_gpu(WEFT_GPU(cuda::MpNagMomUpdateGpu))
        .add_inplace(0, 0);
  }
  {
    OpDef& op = Declare("_contrib_adamw_update", {"weight", "grad", "mean", "var", "rescale_grad"}, {2, 3}, kAdamWDoc);
    AddAdamWParams(op);
    op.set_infer_shape(ShapeRule({4}))
        .set_infer_type(RealSameTypeInfer)
        .set_compute_cpu(AdamWUpdateCpu)
        .set_compute_gpu(WEFT_GPU(cuda::AdamWUpdateGpu))
        .add_inplace(0, 0);
  }
  {
    OpDef& op = Declare("_contrib_mp_adamw_update", {"weight", "grad", "mean", "var", "weight32", "rescale_grad"},
                        {2, 3, 4},
                        std::string("Multi-precision version of the AdamW update.\n\n") + kAdamWDoc +
                            "\n\nThe rule runs on weight32; mean, var, weight32 and rescale_grad are float32.");
    AddAdamWParams(op);
    op.set_infer_shape(ShapeRule({5}))
        .set_infer_type(MpTypeRule(2, false))
        .set_compute_cpu(MpAdamWUpdateCpu)
        .set_compute_gpu(WEFT_GPU(cuda::MpAdamWUpdateGpu))
        .add_inplace(0, 0);
  }
  {
    OpDef& op = Declare("_contrib_group_adagrad_update", {"weight", "grad", "history"}, {2},
                        "Update function for the Group AdaGrad optimizer (one accumulator per row).\n\n"
                        "  grad = clip(grad * rescale_grad, clip_gradient)\n"
                        "  history += mean(square(grad), axis=1, keepdims=True)\n"
                        "  weight -= lr * grad / sqrt(history + epsilon)\n\n"
                        "history has shape (weight.shape[0], 1) and is updated in place.");
    AddLr(op);
    AddRescaleGrad(op);
    AddClipGradient(op);
    op.add_param("epsilon", ParamType::kFloat, "1e-05", "Epsilon for numerical stability");
    op.set_infer_shape(ShapeRule({}, 2))
        .set_infer_type(RealSameTypeInfer)
        .set_compute_cpu(GroupAdagradUpdateCpu)
        .set_compute_gpu(WEFT_GPU(cuda::GroupAdagradUpdateGpu))
        .add_inplace(0, 0);
  }
  {
    OpDef& op = Declare("multi_lars", {"lrs", "weights_sum_sq", "grads_sum_sq", "wds"}, {},
                        "Compute the LARS coefficients of multiple weights and grads from their sums of square.\n\n"
                        "  w_norm = sqrt(weights_sum_sq); g_norm = sqrt(grads_sum_sq)\n"
                        "  lrs = lrs * eta * w_norm / (g_norm * rescale_grad + wds * w_norm + eps)\n"
                        "        where w_norm > 0 and grads_sum_sq > 0, else lrs");
    op.add_required_param("eta", ParamType::kFloat, "LARS eta")
        .add_required_param("eps", ParamType::kFloat, "LARS eps");
    AddRescaleGrad(op);
    op.set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
          for (size_t i = 0; i < in->size(); ++i)
            WEFT_CHECK(!(*in)[i].known() || (*in)[i].ndim() == 1, kShape)
                << "multi_lars: input '" << nnx::InputName(p, i) << "': expected a 1-D array (one entry per "
                << "weight), got shape " << (*in)[i].ToString();
          return ShapeRule({})(p, in, out);
        })
        .set_infer_type(RealSameTypeInfer)
        .set_compute_cpu(MultiLarsUpdateCpu)
        .set_compute_gpu(WEFT_GPU(cuda::MultiLarsUpdateGpu))
        .add_inplace(0, 0);
  }
  return true;
}();

}  // namespace
}  // namespace optim
}  // namespace weft
