// Pointwise operators with a parameter or a gradient of their own (MXNet 1.x):
// hard_sigmoid, _contrib_quadratic and _contrib_backward_quadratic,
// _contrib_div_sqrt_dim, the straight-through estimators _contrib_round_ste /
// _contrib_sign_ste, _contrib_gradientmultiplier and its backward, and the
// gamma gradients _backward_gamma / _backward_gammaln (the gradient rules of
// the gamma and gammaln rows, Note [Unary math rows]). Kernels: the
// elementwise kinds (elemwise_cpu.h) or the parametrised rules
// (pointwise_rules.h).
#include <string>
#include <vector>

#include "core/graph/grad_builder.h"
#include "core/op/common/copy_cpu.h"
#include "core/op/common/nnx_util.h"
#include "core/op/elemwise/elemwise_cpu.h"
#include "core/op/elemwise/elemwise_gpu.h"
#include "core/op/elemwise/pointwise_cpu.h"
#include "core/op/elemwise/pointwise_gpu.h"
#include "core/opdef/op_def.h"
#include "core/op/op_util.h"

namespace weft {
namespace {

using elemwise_cpu::BinaryKind;
using elemwise_cpu::UnaryKind;
using pointwise::PointKind;

OpDef& Pointwise(const char* name, PointKind kind) {
  WEFT_REGISTER_OP(op, name);
  op.set_same_shape(SameShapeSlots::All());
  op.set_compute_gpu(WEFT_GPU(cuda::PointwiseGpu(kind, name)));
  op.set_compute_cpu(pointwise::PointwiseCompute(kind, name))
      .set_infer_shape([&op](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        return SameShapeInfer(op, p, in, out);
      })
      .set_infer_type(nnx::FloatSameTypeInfer)
      .add_inplace(0, 0)
      .set_fusion(FusionClass::kElementwise);
  return op;
}

void CopyCompute(const OpContext&, const Params&, const std::vector<TensorView>& in, const std::vector<OpReq>& req,
                 const std::vector<TensorView>& out) {
  tensor_cpu::ConvertCopy(in[0], req[0], out[0]);
}

void AddScalar(OpDef& op, const char* doc) {
  op.add_param("scalar", ParamType::kFloat, "1", doc)
      .add_param("is_int", ParamType::kBool, "True",
                 "Indicate whether scalar input is int type (accepted for MXNet 1.9 compatibility)");
}

[[maybe_unused]] const bool kRegistered = [] {
  Pointwise("hard_sigmoid", PointKind::kHardSigmoid)
      .describe("Computes hard sigmoid of x element-wise.\n\n.. math::\n   y = max(0, min(1, alpha * x + beta))")
      .add_input("data")
      .add_param("alpha", ParamType::kFloat, "0.2", "Slope of hard sigmoid")
      .add_param("beta", ParamType::kFloat, "0.5", "Bias of hard sigmoid.")
      .set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) -> std::vector<NodeEntry> {
        // alpha where 0 < alpha x + beta < 1 (the output strictly inside), else 0
        GradBuilder b(n);
        const NodeEntry y = b.out();
        const NodeEntry inside = b.Mul(b.Scalar("_greater_scalar", y, 0), b.Scalar("_lesser_scalar", y, 1));
        return {b.Scalar("_mul_scalar", b.Mul(og[0], inside), n->params.GetFloat("alpha"))};
      });

  auto quadratic_params = [](OpDef& op) {
    op.add_param("a", ParamType::kFloat, "0", "Coefficient of the quadratic term in the quadratic function.")
        .add_param("b", ParamType::kFloat, "0", "Coefficient of the linear term in the quadratic function.")
        .add_param("c", ParamType::kFloat, "0", "Constant term in the quadratic function.");
  };
  OpDef& quad = Pointwise("_contrib_quadratic", PointKind::kQuadratic);
  quad.describe("This operators implements the quadratic function.\n\n.. math::\n    f(x) = ax^2+bx+c\n\n"
                "where :math:`x` is an input tensor and all operations\nin the function are element-wise.\n\n"
                "Example::\n\n  x = [[1, 2], [3, 4]]\n  y = quadratic(data=x, a=1, b=2, c=3)\n"
                "  y = [[6, 11], [18, 27]]")
      .add_input("data");
  quadratic_params(quad);
  quad.set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) {
    return ViaBackwardOp(n, "_contrib_backward_quadratic", {og[0], n->inputs[0]});
  });
  OpDef& quad_bwd = Pointwise("_contrib_backward_quadratic", PointKind::kQuadraticGrad);
  quad_bwd.describe("Gradient of _contrib_quadratic from (out_grad, data): out_grad * (2 a data + b).")
      .add_input("out_grad")
      .add_input("data");
  quadratic_params(quad_bwd);

  Pointwise("_contrib_div_sqrt_dim", PointKind::kScale)
      .describe("Rescale the input by the square root of the channel dimension.\n\n"
                "   out = data / sqrt(data.shape[-1])")
      .add_input("data")
      .set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) -> std::vector<NodeEntry> {
        GradBuilder b(n);  // linear: the gradient is rescaled the same way
        return {b("_contrib_div_sqrt_dim", {og[0]})};
      });

  // Straight-through estimators: round / sign forward, the identity backward.
  struct Ste {
    const char* name;
    UnaryKind kind;
    const char* doc;
  };
  for (const Ste& s : {Ste{"_contrib_round_ste", UnaryKind::kRound,
                           "Straight-through-estimator of `round()`.\n\n"
                           "In forward pass, returns element-wise rounded value to the nearest integer of the input "
                           "(same as `round()`).\n\nIn backward pass, returns gradients of ``1`` everywhere (instead "
                           "of ``0`` everywhere as in `round()`):\n:math:`\\frac{d}{dx}{round\\_ste(x)} = 1` vs. "
                           ":math:`\\frac{d}{dx}{round(x)} = 0`.\nThis is useful for quantized training.\n\n"
                           "Example::\n  x = round_ste([-1.5, 1.5, -1.9, 1.9, 2.7])\n  x.backward()\n"
                           "  x = [-2.,  2., -2.,  2.,  3.]\n  x.grad() = [1.,  1., 1.,  1.,  1.]"},
                       Ste{"_contrib_sign_ste", UnaryKind::kSign,
                           "Straight-through-estimator of `sign()`.\n\n"
                           "In forward pass, returns element-wise sign of the input (same as `sign()`).\n\n"
                           "In backward pass, returns gradients of ``1`` everywhere (instead of ``0`` everywhere as "
                           "in ``sign()``):\n:math:`\\frac{d}{dx}{sign\\_ste(x)} = 1` vs. "
                           ":math:`\\frac{d}{dx}{sign(x)} = 0`.\nThis is useful for quantized training.\n\n"
                           "Example::\n  x = sign_ste([-2, 0, 3])\n  x.backward()\n  x = [-1.,  0., 1.]\n"
                           "  x.grad() = [1.,  1., 1.]"}}) {
    WEFT_REGISTER_OP(op, s.name);
    op.set_same_shape(SameShapeSlots::All());
    const UnaryKind kind = s.kind;
    op.set_compute_gpu(WEFT_GPU(cuda::UnaryGpu(kind, s.name)))
        .set_fused_form(FusedForm::kUnary, elemwise_cpu::KindName(kind));
    op.describe(s.doc)
        .add_input("data")
        .set_infer_shape([&op](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
          return SameShapeInfer(op, p, in, out);
        })
        .set_compute_cpu([kind](const OpContext&, const Params&, const std::vector<TensorView>& in,
                                const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
          elemwise_cpu::UnaryKernel(kind, in[0], req[0], out[0]);
        })
        .add_inplace(0, 0)
        .set_fusion(FusionClass::kElementwise)
        .set_gradient([](const NodePtr&, const std::vector<NodeEntry>& og) -> std::vector<NodeEntry> {
          return {og[0]};
        });
  }

  // _contrib_gradientmultiplier: the identity forward, the gradient times scalar.
  WEFT_REGISTER_OP(gm, "_contrib_gradientmultiplier");
  gm.set_same_shape(SameShapeSlots::All());
  gm.set_compute_gpu(WEFT_GPU(cuda::CopyGpu("_contrib_gradientmultiplier")))
      .set_fused_form(FusedForm::kIdentity);
  gm.describe("This operator implements the gradient multiplier function.\n"
              "In forward pass it acts as an identity transform. During backpropagation it\n"
              "multiplies the gradient from the subsequent level by a scalar factor lambda and passes it to\n"
              "the preceding layer.")
      .add_input("data");
  AddScalar(gm, "lambda multiplier");
  gm.set_infer_shape([&gm](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
      return SameShapeInfer(gm, p, in, out);
    })
      .set_compute_cpu(CopyCompute)
      .add_inplace(0, 0)
      .set_fusion(FusionClass::kElementwise)
      .set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) -> std::vector<NodeEntry> {
        GradBuilder b(n);
        return {b.Scalar("_contrib_backward_gradientmultiplier", og[0], n->params.GetFloat("scalar"))};
      });
  WEFT_REGISTER_OP(gmb, "_contrib_backward_gradientmultiplier");
  gmb.set_same_shape(SameShapeSlots::All());
  gmb.set_compute_gpu(WEFT_GPU(cuda::BinaryScalarGpu(BinaryKind::kMul, false, "_contrib_backward_gradientmultiplier")))
      .set_fused_form(FusedForm::kScalar, elemwise_cpu::KindName(BinaryKind::kMul));
  gmb.describe("The backward of _contrib_gradientmultiplier: data * scalar (the scalar converted to the data "
               "dtype first, as _mul_scalar).")
      .add_input("data");
  AddScalar(gmb, "lambda multiplier");
  gmb.set_infer_shape([&gmb](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
       return SameShapeInfer(gmb, p, in, out);
     })
      .set_compute_cpu([](const OpContext&, const Params& p, const std::vector<TensorView>& in,
                          const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
        elemwise_cpu::BinaryScalarKernel(BinaryKind::kMul, in[0], p.GetFloat("scalar"), false, req[0], out[0]);
      })
      .add_inplace(0, 0)
      .set_fusion(FusionClass::kElementwise)
      .set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) -> std::vector<NodeEntry> {
        GradBuilder b(n);
        return {b.Scalar("_contrib_backward_gradientmultiplier", og[0], n->params.GetFloat("scalar"))};
      });

  // The gamma gradients (out_grad, data); like MXNet's they have no gradient themselves.
  struct GammaGrad {
    const char* name;
    BinaryKind kind;
    const char* doc;
  };
  for (const GammaGrad& e : {GammaGrad{"_backward_gamma", BinaryKind::kGammaGrad,
                                       "Gradient of gamma from (out_grad, data): out_grad * gamma(data) * "
                                       "digamma(data)."},
                             GammaGrad{"_backward_gammaln", BinaryKind::kGammalnGrad,
                                       "Gradient of gammaln from (out_grad, data): out_grad * digamma(data)."}}) {
    WEFT_REGISTER_OP(op, e.name);
    op.set_same_shape(SameShapeSlots::All());
    const BinaryKind kind = e.kind;
    op.set_compute_gpu(WEFT_GPU(cuda::BinarySameShapeGpu(kind, e.name)));
    op.describe(e.doc)
        .add_input("out_grad")
        .add_input("data")
        .set_infer_shape([&op](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
          return SameShapeInfer(op, p, in, out);
        })
        .set_compute_cpu([kind](const OpContext&, const Params&, const std::vector<TensorView>& in,
                                const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
          elemwise_cpu::BinaryKernel(kind, in[0], in[1], req[0], out[0]);
        })
        .add_inplace(0, 0)
        .set_fusion(FusionClass::kElementwise);
  }
  return true;
}();

}  // namespace
}  // namespace weft
