// The aggregated optimizer updates with MXNet 1.9.1's names and parameters:
// multi_sgd_update, multi_sgd_mom_update, multi_mp_sgd_update,
// multi_mp_sgd_mom_update, their preloaded_multi_* twins (lrs and wds as
// arrays after the groups), _contrib_multi_adamw_update,
// _contrib_multi_mp_adamw_update (rescale_grad as the last input),
// _contrib_multi_lamb_update and _contrib_multi_mp_lamb_update. The inputs are
// num_weights (num_tensors) groups (weight, grad, states..., [weight32]); the
// outputs are the new weights, one per group; the states are updated in place.
// Rules: optim_rules.h; kernels: update_drivers_cpu.cc, update_drivers.cu.
#include <string>
#include <vector>

#include "core/opdef/op_def.h"
#include "core/op/optim/update_drivers_cpu.h"
#include "core/op/optim/update_infer.h"
#include "core/op/optim/update_drivers_gpu.h"

namespace weft {
namespace optim {
namespace {

// Note [Multi-update groups]
// The engine writes and the in-place pairs of an op are declared once, not
// per call, so the multi_* updates declare them for the largest group count
// (MXNet's kernels take at most 60 tensors per call too); the entries past a
// call's inputs are ignored (the graph passes and PrepareOp skip them).
constexpr int kMaxGroups = 60;

struct Layout {
  const char* count;                // "num_weights" or "num_tensors"
  std::vector<const char*> group;   // input names of one group
  std::vector<int> states;          // their indexes that are updated in place
  int fp32_from;                    // group index from which inputs are float32 (mp), else -1
  std::vector<const char*> tail;    // inputs after the groups (lrs, wds / rescale_grad), float32
};

int64_t Count(const Params& p, const Layout& l) {
  const int64_t n = PositiveCount(p, l.count);
  WEFT_CHECK(n <= kMaxGroups, kInvalidArgument) << p.op()->name << ": parameter '" << l.count << "' must be at most "
                                                << kMaxGroups << " (tensors per call), got " << n;
  return n;
}

void CheckTuples(const Params& p, const Layout& l, int64_t n) {
  for (const char* t : {"lrs", "learning_rates", "wds", "etas", "step_count"}) {
    if (p.op()->ParamIndex(t) < 0) continue;
    const size_t size = std::string(t) == "step_count" ? p.GetTuple(t).size() : p.GetFloatTuple(t).size();
    CheckTupleSize(p, t, size, n, l.count);
  }
  if (p.op()->ParamIndex("step_count") >= 0 && p.GetBool("bias_correction")) {
    for (int64_t s : p.GetTuple("step_count")) {
      WEFT_CHECK(s >= 1, kInvalidArgument) << p.op()->name << ": parameter 'step_count' entries must be at least 1, "
                                           << "got " << s;
    }
  }
}

void Declare(const char* name, const char* alias, const Layout& l, const std::string& doc,
             void (*params)(OpDef&), FCompute cpu, FCompute gpu) {
  WEFT_REGISTER_OP(op, name);
  if (alias != nullptr) op.add_alias(alias);
  op.describe(doc + "\n\nInputs: " + l.count + " groups (" + [&] {
    std::string g;
    for (const char* n : l.group) g += (g.empty() ? "" : ", ") + std::string(n);
    return g;
  }() + ")" + (l.tail.empty() ? std::string() : [&] {
    std::string t = ", then";
    for (const char* n : l.tail) t += std::string(" ") + n;
    return t;
  }()) + ". Outputs: the " + l.count + " new weights.");
  op.add_input("data");
  op.set_variadic(l.count);
  params(op);
  op.add_param(l.count, ParamType::kInt, "1", "Number of updated weights.");
  const size_t stride = l.group.size();
  op.list_input_names = [l, stride](const Params& p) {
    const int64_t n = Count(p, l);
    std::vector<std::string> names;
    for (int64_t k = 0; k < n; ++k)
      for (const char* g : l.group) names.push_back(std::string(g) + "_" + std::to_string(k));
    for (const char* t : l.tail) names.push_back(t);
    return names;
  };
  op.set_num_outputs([l](const Params& p) { return static_cast<int>(Count(p, l)); });
  std::vector<int> mutated;
  for (int k = 0; k < kMaxGroups; ++k) {
    for (int s : l.states) mutated.push_back(k * static_cast<int>(stride) + s);
    op.add_inplace(k * static_cast<int>(stride), k);
  }
  op.set_mutate_inputs(mutated);
  op.set_infer_shape([l, stride](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
    const int64_t n = Count(p, l);
    CheckTuples(p, l, n);
    const std::string& name = p.op()->name;
    bool known = true;
    for (int64_t k = 0; k < n; ++k) {
      std::vector<ShapeSlot> same;
      for (size_t j = 0; j < stride; ++j) same.push_back(InShape(p, in, static_cast<size_t>(k) * stride + j));
      same.push_back(OutShape(p, out, static_cast<size_t>(k)));
      known = UnifyShapes(name, same) && known;
    }
    for (size_t t = 0; t < l.tail.size(); ++t) {
      const size_t i = static_cast<size_t>(n) * stride + t;
      const bool scale = std::string(l.tail[t]) == "rescale_grad";
      FixShape(name, InShape(p, in, i), scale ? Shape{1} : Shape{n});
    }
    return known;
  });
  op.set_infer_type([l, stride](const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
    const int64_t n = Count(p, l);
    const std::string& name = p.op()->name;
    bool known = true;
    for (int64_t k = 0; k < n; ++k) {
      std::vector<TypeSlot> low;
      for (size_t j = 0; j < stride; ++j) {
        const size_t i = static_cast<size_t>(k) * stride + j;
        if (l.fp32_from >= 0 && static_cast<int>(j) >= l.fp32_from) FixType(name, InType(p, in, i), DType::kFloat32);
        else low.push_back(InType(p, in, i));
      }
      low.push_back(OutType(p, out, static_cast<size_t>(k)));
      known = UnifyFloatTypes(name, low) && known;
    }
    for (size_t t = 0; t < l.tail.size(); ++t)
      FixType(name, InType(p, in, static_cast<size_t>(n) * stride + t), DType::kFloat32);
    return known;
  });
  op.set_compute_cpu(std::move(cpu)).set_compute_gpu(std::move(gpu));
}

void LrsWds(OpDef& op) {
  op.add_required_param("lrs", ParamType::kFloatTuple, "Learning rates.")
      .add_required_param("wds", ParamType::kFloatTuple,
                          "Weight decay augments the objective function with a regularization term that penalizes "
                          "large weights. The penalty scales with the square of the magnitude of each weight.");
}
void Momentum(OpDef& op) {
  op.add_param("momentum", ParamType::kFloat, "0", "The decay rate of momentum estimates at each epoch.");
}
void SgdParams(OpDef& op) {
  LrsWds(op);
  AddRescaleGrad(op);
  AddClipGradient(op);
}
void SgdMomParams(OpDef& op) {
  LrsWds(op);
  Momentum(op);
  AddRescaleGrad(op);
  AddClipGradient(op);
}
void PreloadedSgdParams(OpDef& op) {
  AddRescaleGrad(op);
  AddClipGradient(op);
}
void PreloadedSgdMomParams(OpDef& op) {
  Momentum(op);
  AddRescaleGrad(op);
  AddClipGradient(op);
}
void AdamWParams(OpDef& op) {
  op.add_required_param("lrs", ParamType::kFloatTuple, "Learning rates")
      .add_param("beta1", ParamType::kFloat, "0.9", "The decay rate for the 1st moment estimates.")
      .add_param("beta2", ParamType::kFloat, "0.999", "The decay rate for the 2nd moment estimates.")
      .add_param("epsilon", ParamType::kFloat, "1e-08", "A small constant for numerical stability.")
      .add_required_param("wds", ParamType::kFloatTuple,
                          "Weight decay augments the objective function with a regularization term that penalizes "
                          "large weights. The penalty scales with the square of the magnitude of each weight.")
      .add_required_param("etas", ParamType::kFloatTuple, "Learning rates schedule multiplier");
  AddClipGradient(op);
}
void LambParams(OpDef& op) {
  op.add_required_param("learning_rates", ParamType::kFloatTuple, "List of learning rates")
      .add_param("beta1", ParamType::kFloat, "0.9", "Exponential decay rate for the first moment estimates.")
      .add_param("beta2", ParamType::kFloat, "0.999", "Exponential decay rate for the second moment estimates.")
      .add_param("epsilon", ParamType::kFloat, "1e-06", "Small value to avoid division by 0.")
      .add_required_param("wds", ParamType::kFloatTuple, "List of Weight decays.Weight decay augments the objective "
                                                         "function with a regularization term that penalizes large "
                                                         "weights. The penalty scales with the square of the "
                                                         "magnitude of each weight.");
  AddRescaleGrad(op);
  op.add_param("lower_bound", ParamType::kFloat, "-1", "Lower limit of norm of weight. If lower_bound <= 0, Lower "
                                                       "limit is not set")
      .add_param("upper_bound", ParamType::kFloat, "-1", "Upper limit of norm of weight. If upper_bound <= 0, Upper "
                                                         "limit is not set");
  AddClipGradient(op);
  op.add_param("bias_correction", ParamType::kBool, "True", "Whether to use bias correction.")
      .add_required_param("step_count", ParamType::kShape, "Step count for each tensor");
}

const char* const kSgdDoc =
    "Update function for Stochastic Gradient Descent (SDG) optimizer, on several weights at once.\n\n"
    "  weight = weight - lr * (clip(rescale_grad * grad, clip_gradient) + wd * weight)";
const char* const kSgdMomDoc =
    "Momentum update function for Stochastic Gradient Descent (SGD) optimizer, on several weights at once.\n\n"
    "  v = momentum * v - lr * wd * weight - lr * clip(rescale_grad * grad, clip_gradient)\n"
    "  weight = weight + v\n\nThe momenta are updated in place.";
const char* const kMp = "\n\nMulti-precision: each group's weight32 (float32) is the weight the rule updates (in "
                        "place); the weight (float16 or float32) gets its value.";
const char* const kPreloaded = "\n\nThe learning rates and weight decays are the float32 arrays lrs and wds (one "
                               "entry per weight) after the groups.";

[[maybe_unused]] const bool kRegistered = [] {
  const Layout sgd{"num_weights", {"weight", "grad"}, {}, -1, {}};
  const Layout sgd_mom{"num_weights", {"weight", "grad", "mom"}, {2}, -1, {}};
  const Layout mp_sgd{"num_weights", {"weight", "grad", "weight32"}, {2}, 2, {}};
  const Layout mp_sgd_mom{"num_weights", {"weight", "grad", "mom", "weight32"}, {2, 3}, 2, {}};
  Declare("multi_sgd_update", nullptr, sgd, kSgdDoc, SgdParams, MultiSgdUpdateCpu,
          WEFT_GPU(cuda::MultiSgdUpdateGpu));
  Declare("multi_sgd_mom_update", nullptr, sgd_mom, kSgdMomDoc, SgdMomParams, MultiSgdMomUpdateCpu,
          WEFT_GPU(cuda::MultiSgdMomUpdateGpu));
  Declare("multi_mp_sgd_update", nullptr, mp_sgd, std::string(kSgdDoc) + kMp, SgdParams, MultiMpSgdUpdateCpu,
          WEFT_GPU(cuda::MultiMpSgdUpdateGpu));
  Declare("multi_mp_sgd_mom_update", nullptr, mp_sgd_mom, std::string(kSgdMomDoc) + kMp, SgdMomParams,
          MultiMpSgdMomUpdateCpu, WEFT_GPU(cuda::MultiMpSgdMomUpdateGpu));
  auto preloaded = [](Layout l) {
    l.tail = {"lrs", "wds"};
    return l;
  };
  Declare("preloaded_multi_sgd_update", nullptr, preloaded(sgd), std::string(kSgdDoc) + kPreloaded,
          PreloadedSgdParams, PreloadedMultiSgdUpdateCpu, WEFT_GPU(cuda::PreloadedMultiSgdUpdateGpu));
  Declare("preloaded_multi_sgd_mom_update", nullptr, preloaded(sgd_mom), std::string(kSgdMomDoc) + kPreloaded,
          PreloadedSgdMomParams, PreloadedMultiSgdMomUpdateCpu, WEFT_GPU(cuda::PreloadedMultiSgdMomUpdateGpu));
  Declare("preloaded_multi_mp_sgd_update", nullptr, preloaded(mp_sgd), std::string(kSgdDoc) + kMp + kPreloaded,
          PreloadedSgdParams, PreloadedMultiMpSgdUpdateCpu, WEFT_GPU(cuda::PreloadedMultiMpSgdUpdateGpu));
  Declare("preloaded_multi_mp_sgd_mom_update", nullptr, preloaded(mp_sgd_mom),
          std::string(kSgdMomDoc) + kMp + kPreloaded, PreloadedSgdMomParams, PreloadedMultiMpSgdMomUpdateCpu,
          WEFT_GPU(cuda::PreloadedMultiMpSgdMomUpdateGpu));

  const char* adamw_doc =
      "Update function for AdamW optimizer, on several weights at once.\n\n"
      "  grad = clip(grad * rescale_grad, clip_gradient)\n  m = beta1 * m + (1 - beta1) * grad\n"
      "  v = beta2 * v + (1 - beta2) * grad^2\n  w -= eta * (learning_rate * m / (sqrt(v) + epsilon) + w * wd)\n\n"
      "with each weight's learning rate, wd and eta from lrs, wds and etas. rescale_grad is the last input (a float32 "
      "one-element array): if it is NaN, the update is skipped. mean and var are updated in place.";
  Declare("_contrib_multi_adamw_update", nullptr,
          Layout{"num_weights", {"weight", "grad", "mean", "var"}, {2, 3}, -1, {"rescale_grad"}}, adamw_doc,
          AdamWParams, MultiAdamWUpdateCpu, WEFT_GPU(cuda::MultiAdamWUpdateGpu));
  Declare("_contrib_multi_mp_adamw_update", nullptr,
          Layout{"num_weights", {"weight", "grad", "mean", "var", "weight32"}, {2, 3, 4}, 2, {"rescale_grad"}},
          std::string(adamw_doc) + kMp, AdamWParams, MultiMpAdamWUpdateCpu, WEFT_GPU(cuda::MultiMpAdamWUpdateGpu));

  const char* lamb_doc =
      "Compute the LAMB coefficients of multiple weights and grads, and update the weights.\n\n"
      "Per tensor (step t from step_count):\n"
      "  grad = clip(grad * rescale_grad, clip_gradient)\n"
      "  mean = beta1 * mean + (1 - beta1) * grad; var = beta2 * var + (1 - beta2) * grad^2\n"
      "  g = (mean / (1 - beta1^t)) / (sqrt(var / (1 - beta2^t)) + epsilon) + wd * weight  (no 1 - beta^t "
      "without bias_correction)\n"
      "  r1 = norm(weight) held in [lower_bound, upper_bound]; r2 = norm(g)\n"
      "  weight -= (lr * r1 / r2 if r1 > 0 and r2 > 0 else lr) * g\n\nmean and var are updated in place.";
  Declare("_contrib_multi_lamb_update", nullptr,
          Layout{"num_tensors", {"weight", "grad", "mean", "var"}, {2, 3}, -1, {}}, lamb_doc, LambParams,
          MultiLambUpdateCpu, WEFT_GPU(cuda::MultiLambUpdateGpu));
  Declare("_contrib_multi_mp_lamb_update", nullptr,
          Layout{"num_tensors", {"weight", "grad", "mean", "var", "weight32"}, {2, 3, 4}, 2, {}},
          std::string(lamb_doc) + kMp, LambParams, MultiMpLambUpdateCpu, WEFT_GPU(cuda::MultiMpLambUpdateGpu));
  return true;
}();

}  // namespace
}  // namespace optim
}  // namespace weft
