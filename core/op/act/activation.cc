// Activation and LeakyReLU (MXNet 1.x names, parameters and outputs) with
// their backward operators. Kernels: core/op/act/activation_cpu.cc.
//
// Note [Activation backward inputs]
// _backward_Activation takes (out_grad, output) for relu, sigmoid, tanh,
// softrelu and log_sigmoid, whose derivatives are functions of the output (so
// the forward may run in place), and (out_grad, output, data) for softsign
// and mish, which need the input. _backward_LeakyReLU takes (out_grad, data),
// plus gamma for prelu (then it also returns gamma's gradient) or the mask
// output for rrelu.
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/graph/grad_builder.h"
#include "core/op/act/activation_cpu.h"
#include "core/op/common/nnx_util.h"
#include "core/opdef/op_def.h"
#include "core/op/act/activation_gpu.h"
#include "core/op/op_util.h"
#include "core/op/random_state.h"

namespace weft {
namespace {

using nnx_cpu::ActKind;
using nnx_cpu::ActKindOf;
using nnx_cpu::LeakyKind;
using nnx_cpu::LeakyKindOf;

const std::vector<std::string> kActTypes = {"relu", "sigmoid", "log_sigmoid", "mish", "tanh", "softrelu", "softsign"};


bool ActNeedsData(const Params& p) {
  ActKind k = ActKindOf(p);
  return k == ActKind::kSoftSign || k == ActKind::kMish;
}

const char* kActDoc =
    "Applies an activation function element-wise to the input.\n\n"
    "The following activation functions are supported:\n\n"
    "- `relu`: Rectified Linear Unit, :math:`y = max(x, 0)`\n"
    "- `sigmoid`: :math:`y = \\frac{1}{1 + exp(-x)}`\n"
    "- `log_sigmoid`: :math:`y = log(\\frac{1}{1 + exp(-x)})`\n"
    "- `mish`: :math:`y = x * tanh(log(1 + exp(x)))`\n"
    "- `tanh`: Hyperbolic tangent, :math:`y = \\frac{exp(x) - exp(-x)}{exp(x) + exp(-x)}`\n"
    "- `softrelu`: Soft ReLU, or SoftPlus, :math:`y = log(1 + exp(x))`\n"
    "- `softsign`: :math:`y = \\frac{x}{1 + abs(x)}`";

bool RegisterActivation() {
  WEFT_REGISTER_OP(fwd, "Activation").set_compute_gpu(WEFT_GPU(cuda::ActivationGpu)).set_fused_form(FusedForm::kAct, "a");
  fwd.describe(kActDoc).add_input("data");
  fwd.set_fusion_pattern(FusionPattern::Of(FusionPattern::kActivation));  // a layer's post-op (core/opdef/op_def.h)
  nnx::AddRequiredEnum(fwd, "act_type", kActTypes, "Activation function to be applied.");
  fwd.set_infer_type(nnx::FloatSameTypeInfer)
      .set_compute_cpu([](const OpContext&, const Params& p, const std::vector<TensorView>& in,
                          const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
        nnx_cpu::ActivationForward(ActKindOf(p), in[0], req[0], out[0]);
      })
      .add_inplace(0, 0)
      .set_fusion(FusionClass::kElementwise);

  fwd.set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) {
    std::vector<NodeEntry> in = {og[0], OutputOf(n, 0)};  // Note [Activation backward inputs]
    if (ActNeedsData(n->params)) in.push_back(n->inputs[0]);
    return ViaBackwardOp(n, "_backward_Activation", in);
  });

  WEFT_REGISTER_OP(bwd, "_backward_Activation")
                     .set_compute_gpu(WEFT_GPU(cuda::BackwardActivationGpu))
                     .set_fused_form(FusedForm::kActGrad, "g");
  bwd.describe("Gradient of Activation: out_grad * act'(x). See Note [Activation backward inputs]: "
               "(out_grad, output) for relu, sigmoid, tanh, softrelu and log_sigmoid; "
               "(out_grad, output, data) for softsign and mish.")
      .add_input("out_grad")
      .add_input("output")
      .add_input("data");
  nnx::AddRequiredEnum(bwd, "act_type", kActTypes, "Activation function of the forward operator.");
  bwd.set_infer_type(nnx::FloatSameTypeInfer)
      .set_compute_cpu([](const OpContext&, const Params& p, const std::vector<TensorView>& in,
                          const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
        nnx_cpu::ActivationBackward(ActKindOf(p), in[0], in[1], in.size() > 2 ? &in[2] : nullptr, req[0],
                                   out[0]);
      })
      .add_inplace(0, 0)
      .set_fusion(FusionClass::kElementwise);
  // Second order (autograd.grad with create_graph). The op is linear in
  // out_grad, so that part is the op itself on the incoming gradient; the part
  // through `output` is out_grad * d act'/dy, written with forward ops, and
  // autograd carries it on to x through Activation's own gradient.
  bwd.set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) -> std::vector<NodeEntry> {
    GradBuilder b(n);
    const NodeEntry& g = og[0];
    const NodeEntry y = b.in(1);
    const NodeEntry gog = b.Mul(g, b.in(0));
    NodeEntry d_y;
    switch (ActKindOf(n->params)) {
      case nnx_cpu::ActKind::kReLU: d_y = b.Zeros(y); break;  // act' is a step
      case nnx_cpu::ActKind::kSigmoid:  // act' = y (1 - y)
        d_y = b.Mul(gog, b.Scalar("_rminus_scalar", b.Scalar("_mul_scalar", y, 2), 1));
        break;
      case nnx_cpu::ActKind::kTanh: d_y = b.Mul(gog, b.Scalar("_mul_scalar", y, -2)); break;  // act' = 1 - y^2
      case nnx_cpu::ActKind::kSoftReLU: d_y = b.Mul(gog, b("exp", {b.Neg(y)})); break;     // act' = 1 - e^-y
      case nnx_cpu::ActKind::kLogSigmoid: d_y = b.Neg(b.Mul(gog, b("exp", {y}))); break;   // act' = 1 - e^y
      default:
        WEFT_THROW(kInvalidArgument) << "Activation: no second-order gradient for act_type='"
                                     << n->params.GetString("act_type")
                                     << "' (relu, sigmoid, tanh, softrelu and log_sigmoid have one)";
    }
    return {OutputOf(b.NodeWithAttrs("_backward_Activation", {g, y})), d_y};
  });
  bwd.list_input_names = [](const Params& p) {
    std::vector<std::string> n = {"out_grad", "output"};
    if (ActNeedsData(p)) n.push_back("data");
    return n;
  };
  return true;
}

[[maybe_unused]] const bool kActivationRegistered = RegisterActivation();

// ---- LeakyReLU ----


void AddLeakyParams(OpDef& op) {
  op.add_enum_param("act_type", {"elu", "gelu", "leaky", "prelu", "rrelu", "selu"}, "leaky",
                    "Activation function to be applied.")
      .add_param("slope", ParamType::kFloat, "0.25", "Init slope for the activation. (For leaky and elu only)")
      .add_param("lower_bound", ParamType::kFloat, "0.125",
                 "Lower bound of random slope. (For rrelu only)")
      .add_param("upper_bound", ParamType::kFloat, "0.334",
                 "Upper bound of random slope. (For rrelu only)");
}

// prelu's gamma: one element, data.shape[1] elements, or data's shape.
void CheckGamma(const Shape& d, const Shape& g, const std::string& op) {
  const bool ok = g.Size() == 1 || g == d || (d.ndim() >= 2 && g.ndim() == 1 && g[0] == d[1]);
  WEFT_CHECK(ok, kShape) << op << ": input 'gamma' has shape " << g.ToString() << "; expected (1,), ("
                         << (d.ndim() >= 2 ? d[1] : 1) << ",) (one slope per channel, axis 1) or data's shape "
                         << d.ToString();
}

const char* kLeakyDoc =
    "Applies Leaky rectified linear unit activation element-wise to the input.\n\n"
    "Leaky ReLUs attempt to fix the \"dying ReLU\" problem by allowing a small `slope` "
    "when the input is negative and has a slope of one when input is positive.\n\n"
    "The following modified ReLU Activation functions are supported:\n\n"
    "- *elu*: Exponential Linear Unit. `y = x > 0 ? x : slope * (exp(x)-1)`\n"
    "- *selu*: Scaled Exponential Linear Unit. `y = lambda * (x > 0 ? x : alpha * (exp(x) - 1))` where "
    "*lambda = 1.0507009873554804934193349852946* and *alpha = 1.6732632423543772848170429916717*.\n"
    "- *leaky*: Leaky ReLU. `y = x > 0 ? x : slope * x`\n"
    "- *prelu*: Parametric ReLU. This is same as *leaky* except that `slope` is learnt during "
    "training (input `gamma`: one slope per channel of axis 1, a single slope, or one per element).\n"
    "- *rrelu*: Randomized ReLU. same as *leaky* but the `slope` is uniformly and randomly chosen "
    "from *[lower_bound, upper_bound)* for training, while fixed to be "
    "*(lower_bound+upper_bound)/2* for inference; the slopes are the hidden output `mask`.\n"
    "- *gelu*: Gaussian Error Linear Unit. `y = 0.5 * x * (1 + erf(x / sqrt(2)))`";

bool RegisterLeakyReLU() {
  WEFT_REGISTER_OP(fwd, "LeakyReLU").set_compute_gpu(WEFT_GPU(cuda::LeakyReLUGpu));
  fwd.set_same_shape(SameShapeSlots::Data());
  fwd.describe(kLeakyDoc).add_input("data").add_input("gamma");
  AddLeakyParams(fwd);
  fwd.set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        const Shape& d = (*in)[0];
        if (!d.known()) return false;
        if (LeakyKindOf(p) == LeakyKind::kPReLU) {
          if (!(*in)[1].known()) (*in)[1] = Shape{d.ndim() >= 2 ? d[1] : 1};
          CheckGamma(d, (*in)[1], "LeakyReLU");
        }
        for (size_t i = 0; i < out->size(); ++i) AssignShape(out, i, d, "LeakyReLU: output " + std::to_string(i));
        return true;
      })
      .set_infer_type(nnx::FloatSameTypeInfer)
      .set_compute_cpu([](const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                          const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
        const LeakyKind k = LeakyKindOf(p);
        if (k == LeakyKind::kRReLU) {
          std::mt19937_64* gen = (ctx.is_train && ctx.rng != nullptr) ? &ctx.rng->engine() : nullptr;
          nnx_cpu::RReLUForward(gen, p.GetFloat("lower_bound"), p.GetFloat("upper_bound"), in[0], req[0], out[0],
                               req[1], out[1]);
        } else {
          nnx_cpu::LeakyForward(k, p.GetFloat("slope"), in[0], in.size() > 1 ? &in[1] : nullptr, req[0], out[0]);
        }
      })
      .set_num_outputs([](const Params& p) { return LeakyKindOf(p) == LeakyKind::kRReLU ? 2 : 1; })
      .set_needs_rng()
      .add_inplace(0, 0);
  fwd.num_visible_outputs = 1;
  // Only rrelu draws random slopes; other kinds must not serialise on the generator var.
  fwd.needs_rng_fn = [](const Params& p) { return LeakyKindOf(p) == LeakyKind::kRReLU; };
  fwd.set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) {
    std::vector<NodeEntry> in = {og[0], n->inputs[0]};  // Note [Activation backward inputs]
    const LeakyKind k = LeakyKindOf(n->params);
    if (k == LeakyKind::kPReLU) in.push_back(n->inputs[1]);
    if (k == LeakyKind::kRReLU) in.push_back(OutputOf(n, 1));  // the slopes the forward drew
    return ViaBackwardOp(n, "_backward_LeakyReLU", in);
  });
  fwd.list_input_names = [](const Params& p) {
    return LeakyKindOf(p) == LeakyKind::kPReLU ? std::vector<std::string>{"data", "gamma"}
                                                : std::vector<std::string>{"data"};
  };
  fwd.list_output_names = [](const Params& p) {
    return LeakyKindOf(p) == LeakyKind::kRReLU ? std::vector<std::string>{"output", "mask"}
                                                : std::vector<std::string>{"output"};
  };

  WEFT_REGISTER_OP(bwd, "_backward_LeakyReLU").set_compute_gpu(WEFT_GPU(cuda::BackwardLeakyReLUGpu));
  bwd.describe("Gradient of LeakyReLU. See Note [Activation backward inputs]: (out_grad, data), plus "
               "gamma for prelu (outputs: data and gamma gradients) or the forward's mask for rrelu.")
      .add_input("out_grad")
      .add_input("data")
      .add_input("gamma")
      .add_input("mask");
  AddLeakyParams(bwd);
  bwd.set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        if (!(*in)[0].known()) return false;
        AssignShape(in, 1, (*in)[0], "_backward_LeakyReLU: input 'data'");
        AssignShape(out, 0, (*in)[0], "_backward_LeakyReLU: output 0");
        const LeakyKind k = LeakyKindOf(p);
        if (k == LeakyKind::kPReLU) {
          if (!(*in)[2].known()) return false;
          CheckGamma((*in)[1], (*in)[2], "_backward_LeakyReLU");
          AssignShape(out, 1, (*in)[2], "_backward_LeakyReLU: output 1");
        } else if (k == LeakyKind::kRReLU) {
          AssignShape(in, 2, (*in)[0], "_backward_LeakyReLU: input 'mask'");
        }
        return true;
      })
      .set_infer_type(nnx::FloatSameTypeInfer)
      .set_compute_cpu([](const OpContext&, const Params& p, const std::vector<TensorView>& in,
                          const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
        const LeakyKind k = LeakyKindOf(p);
        const TensorView* extra = in.size() > 2 ? &in[2] : nullptr;
        nnx_cpu::LeakyBackward(k, p.GetFloat("slope"), in[0], in[1], k == LeakyKind::kPReLU ? extra : nullptr,
                              k == LeakyKind::kRReLU ? extra : nullptr, req[0], out[0],
                              out.size() > 1 ? req[1] : OpReq::kNull, out.size() > 1 ? &out[1] : nullptr);
      })
      .set_num_outputs([](const Params& p) { return LeakyKindOf(p) == LeakyKind::kPReLU ? 2 : 1; })
      .add_inplace(0, 0);
  // Second order for the parameter-free kinds: linear in out_grad (the op on
  // the incoming gradient), plus out_grad * act''(x) by data.
  bwd.set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) -> std::vector<NodeEntry> {
    GradBuilder b(n);
    const NodeEntry& g = og[0];
    const NodeEntry x = b.in(1);
    const NodeEntry gog = b.Mul(g, b.in(0));
    auto negative_part = [&](double scale) {  // scale * e^x where x <= 0
      return b.Mul(b.Scalar("_mul_scalar", b("exp", {x}), scale), b.Scalar("_lesser_equal_scalar", x, 0));
    };
    NodeEntry d_x;
    switch (LeakyKindOf(n->params)) {
      case LeakyKind::kLeaky: d_x = b.Zeros(x); break;  // act' is a step
      case LeakyKind::kELU: d_x = b.Mul(gog, negative_part(n->params.GetFloat("slope"))); break;
      case LeakyKind::kSELU: d_x = b.Mul(gog, negative_part(nnx_cpu::kSeluLambda * nnx_cpu::kSeluAlpha)); break;
      case LeakyKind::kGELU: {  // act'' = pdf(x) (2 - x^2)
        const NodeEntry x2 = b("square", {x});
        const NodeEntry pdf =
            b.Scalar("_mul_scalar", b("exp", {b.Scalar("_mul_scalar", x2, -0.5)}), nnx_cpu::kInvSqrt2Pi);
        d_x = b.Mul(gog, b.Mul(pdf, b.Scalar("_rminus_scalar", x2, 2)));
        break;
      }
      default:
        WEFT_THROW(kInvalidArgument) << "LeakyReLU: no second-order gradient for act_type='"
                                     << n->params.GetString("act_type") << "' (leaky, elu, selu and gelu have one)";
    }
    return {OutputOf(b.NodeWithAttrs("_backward_LeakyReLU", {g, x})), d_x};
  });
  bwd.list_input_names = [](const Params& p) {
    const LeakyKind k = LeakyKindOf(p);
    if (k == LeakyKind::kPReLU) return std::vector<std::string>{"out_grad", "data", "gamma"};
    if (k == LeakyKind::kRReLU) return std::vector<std::string>{"out_grad", "data", "mask"};
    return std::vector<std::string>{"out_grad", "data"};
  };
  bwd.list_output_names = [](const Params& p) {
    return LeakyKindOf(p) == LeakyKind::kPReLU ? std::vector<std::string>{"data_grad", "gamma_grad"}
                                                : std::vector<std::string>{"data_grad"};
  };
  return true;
}

[[maybe_unused]] const bool kLeakyReLURegistered = RegisterLeakyReLU();

}  // namespace
}  // namespace weft
