// Fused optimizer updates with MXNet 1.x names and parameters: sgd_update,
// sgd_mom_update, nag_mom_update, adam_update, rmsprop_update, ftrl_update,
// signum_update, signsgd_update. Inputs are (weight, grad, states...); the
// states are updated in place (mutate_inputs: engine writes) and the output is
// the new weight. MXNet's frontends call them with out=weight, which the
// in-place pair (weight, output) allows. lazy_update is accepted (dense
// arrays only). Kernels: core/op/optim/optimizer_update_cpu.cc.
#include <string>
#include <vector>

#include "core/op/optim/optimizer_update_cpu.h"
#include "core/op/common/nnx_util.h"
#include "core/opdef/op_def.h"
#include "core/op/optim/optimizer_update_gpu.h"
#include "core/op/op_util.h"

namespace weft {
namespace {

using nnx_cpu::OptimizerKind;


struct Spec {
  const char* name;
  OptimizerKind kind;
  std::vector<const char*> states;
  const char* doc;
  FCompute gpu;
};

// Parameters in MXNet's order: lr first, then the optimizer's own, then the common ones.
void AddParams(OpDef& op, OptimizerKind kind) {
  op.add_required_param("lr", ParamType::kFloat, "Learning rate");
  switch (kind) {
    case OptimizerKind::kSGDMom:
    case OptimizerKind::kNAG:
    case OptimizerKind::kSignum:
      op.add_param("momentum", ParamType::kFloat, "0", "The decay rate of momentum estimates at each epoch.");
      break;
    case OptimizerKind::kAdam:
      op.add_param("beta1", ParamType::kFloat, "0.9", "The decay rate for the 1st moment estimates.")
          .add_param("beta2", ParamType::kFloat, "0.999", "The decay rate for the 2nd moment estimates.")
          .add_param("epsilon", ParamType::kFloat, "1e-08", "A small constant for numerical stability.");
      break;
    case OptimizerKind::kRMSProp:
      op.add_param("gamma1", ParamType::kFloat, "0.95", "The decay rate of momentum estimates.")
          .add_param("epsilon", ParamType::kFloat, "1e-08", "A small constant for numerical stability.");
      break;
    case OptimizerKind::kFtrl:
      op.add_param("lamda1", ParamType::kFloat, "0.01", "The L1 regularization coefficient.")
          .add_param("beta", ParamType::kFloat, "1", "Per-Coordinate Learning Rate beta.");
      break;
    default:
      break;
  }
  op.add_param("wd", ParamType::kFloat, "0",
               "Weight decay augments the objective function with a regularization term that penalizes large "
               "weights. The penalty scales with the square of the magnitude of each weight.")
      .add_param("rescale_grad", ParamType::kFloat, "1", "Rescale gradient to grad = rescale_grad*grad.")
      .add_param("clip_gradient", ParamType::kFloat, "-1",
                 "Clip gradient to the range of [-clip_gradient, clip_gradient] If clip_gradient <= 0, gradient "
                 "clipping is turned off. grad = max(min(grad, clip_gradient), -clip_gradient).");
  if (kind == OptimizerKind::kRMSProp)
    op.add_param("clip_weights", ParamType::kFloat, "-1",
                 "Clip weights to the range of [-clip_weights, clip_weights] If clip_weights <= 0, weight clipping "
                 "is turned off. weights = max(min(weights, clip_weights), -clip_weights).");
  if (kind == OptimizerKind::kSignum)
    op.add_param("wd_lh", ParamType::kFloat, "0", "The amount of weight decay that does not go into gradient/momentum "
                                                  "calculationsotherwise do weight decay algorithmically only.");
  if (kind == OptimizerKind::kSGD || kind == OptimizerKind::kSGDMom || kind == OptimizerKind::kAdam)
    op.add_param("lazy_update", ParamType::kBool, "True",
                 "If true, lazy updates are applied if gradient's stype is row_sparse (accepted; arrays are "
                 "dense here).");
}

const Spec kSpecs[] = {
    {"sgd_update", OptimizerKind::kSGD, {},
     "Update function for Stochastic Gradient Descent (SGD) optimizer.\n\n"
     "It updates the weights using::\n\n weight = weight - learning_rate * (gradient + wd * weight)\n\n"
     "with gradient = clip(rescale_grad * grad, clip_gradient).", WEFT_GPU(cuda::SgdUpdateGpu)},
    {"sgd_mom_update", OptimizerKind::kSGDMom, {"mom"},
     "Momentum update function for Stochastic Gradient Descent (SGD) optimizer.\n\n"
     "Momentum update has better convergence rates on neural networks. Mathematically it looks like below:\n\n"
     "  v_1 = momentum * v_0 - lr * (rescale_grad * grad + wd * weight)\n  weight = weight + v_1\n\n"
     "mom is updated in place.", WEFT_GPU(cuda::SgdMomUpdateGpu)},
    {"nag_mom_update", OptimizerKind::kNAG, {"mom"},
     "Update function for Nesterov Accelerated Gradient( NAG) optimizer.\n\n"
     "  grad = clip(rescale_grad * grad) + wd * weight\n  mom = momentum * mom + grad\n"
     "  weight = weight - lr * (momentum * mom + grad)\n\nmom is updated in place.", WEFT_GPU(cuda::NagMomUpdateGpu)},
    {"adam_update", OptimizerKind::kAdam, {"mean", "var"},
     "Update function for Adam optimizer. Adam is seen as a generalization of AdaGrad.\n\n"
     "  g = clip(rescale_grad * grad + wd * weight)\n  m = beta1 * m + (1 - beta1) * g\n"
     "  v = beta2 * v + (1 - beta2) * g^2\n  w = w - learning_rate * m / (sqrt(v) + epsilon)\n\n"
     "mean and var are updated in place (no bias correction, as in MXNet).", WEFT_GPU(cuda::AdamUpdateGpu)},
    {"rmsprop_update", OptimizerKind::kRMSProp, {"n"},
     "Update function for `RMSProp` optimizer.\n\n"
     "  g = clip(rescale_grad * grad + wd * weight)\n  n = (1 - gamma1) * g^2 + gamma1 * n\n"
     "  w = w - learning_rate * g / sqrt(n + epsilon)\n\nthen clipped to clip_weights when set; n is updated in "
     "place.", WEFT_GPU(cuda::RmspropUpdateGpu)},
    {"ftrl_update", OptimizerKind::kFtrl, {"z", "n"},
     "Update function for Ftrl optimizer. Referenced from *Ad Click Prediction: a View from the Trenches*.\n\n"
     "  rescaled_grad = clip(grad * rescale_grad, clip_gradient)\n"
     "  z += rescaled_grad - (sqrt(n + rescaled_grad**2) - sqrt(n)) * weight / learning_rate\n"
     "  n += rescaled_grad**2\n"
     "  w = (sign(z) * lamda1 - z) / ((beta + sqrt(n)) / learning_rate + wd) * (abs(z) > lamda1)\n\n"
     "z and n are updated in place.", WEFT_GPU(cuda::FtrlUpdateGpu)},
    {"signum_update", OptimizerKind::kSignum, {"mom"},
     "SIGN momentUM (Signum) optimizer.\n\n"
     "  g_t = clip(rescale_grad * grad) + wd * weight\n  m_t = momentum * m_{t-1} - (1 - momentum) * g_t\n"
     "  weight = (1 - lr * wd_lh) * weight + lr * sign(m_t)\n\nmom is updated in place.", WEFT_GPU(cuda::SignumUpdateGpu)},
    {"signsgd_update", OptimizerKind::kSignSGD, {},
     "Update function for SignSGD optimizer.\n\n  weight = (1 - lr * wd) * weight - lr * sign(gradient)", WEFT_GPU(cuda::SignsgdUpdateGpu)},
};

[[maybe_unused]] const bool kOptimizersRegistered = [] {
  for (const Spec& s : kSpecs) {
    WEFT_REGISTER_OP(op, s.name).set_compute_gpu(s.gpu);
    op.describe(s.doc).add_input("weight").add_input("grad");
    std::vector<int> mutated;
    for (const char* st : s.states) {
      mutated.push_back(static_cast<int>(op.input_names.size()));
      op.add_input(st);
    }
    AddParams(op, s.kind);
    const OptimizerKind kind = s.kind;
    op.set_mutate_inputs(mutated)
        .set_infer_shape([&op](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
          return SameShapeInfer(op, p, in, out);
        })
        .set_infer_type(nnx::FloatSameTypeInfer)
        .set_compute_cpu([kind](const OpContext&, const Params& p, const std::vector<TensorView>& in,
                                const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
          nnx_cpu::OptimizerUpdate(kind, nnx_cpu::OptimizerArgsOf(p), in, req[0], out[0]);
        })
        .add_inplace(0, 0);
  }
  return true;
}();

}  // namespace
}  // namespace weft
