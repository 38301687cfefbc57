// Unary elementwise operators (MXNet 1.x names): one table, registered in a
// loop. Kernels: core/op/cpu/elemwise_kernels.cc. Integer inputs keep their
// dtype; see Note [Elementwise arithmetic types] in cpu/elemwise_kernels.h.
#include <string>
#include <vector>

#include "core/op/backward_misc.h"
#include "core/op/cpu/elemwise_kernels.h"
#include "core/op/op_def.h"
#include "core/op/op_util.h"

namespace weft {
namespace {

using elemwise_cpu::UnaryKind;

struct UnaryOpEntry {
  const char* name;
  UnaryKind kind;
  const char* doc;
};

const UnaryOpEntry kUnaryOps[] = {
    {"abs", UnaryKind::kAbs,
     "Returns element-wise absolute value of the input.\n\nExample::\n\n   abs([-2, 0, 3]) = [2, 0, 3]"},
    {"negative", UnaryKind::kNegative,
     "Numerical negative of the argument, element-wise.\n\n"
     "Unsigned integers wrap (negative(uint8 1) = 255)."},
    {"exp", UnaryKind::kExp,
     "Returns element-wise exponential value of the input.\n\n"
     "Example::\n\n   exp([0, 1, 2]) = [1., 2.71828175, 7.38905621]\n\n"
     "Integer inputs are computed in float32 and truncated back to the input dtype."},
    {"log", UnaryKind::kLog,
     "Returns element-wise Natural logarithmic value of the input.\n\n"
     "The natural logarithm is logarithm in base *e*, so that ``log(exp(x)) = x``."},
    {"log1p", UnaryKind::kLog1p,
     "Returns element-wise ``log(1 + x)`` value of the input.\n\n"
     "This function is more accurate than ``log(1 + x)`` for small ``x``."},
    {"expm1", UnaryKind::kExpm1,
     "Returns ``exp(x) - 1`` computed element-wise on the input.\n\n"
     "This function provides greater precision than ``exp(x) - 1`` for small values of ``x``."},
    {"sqrt", UnaryKind::kSqrt,
     "Returns element-wise square-root value of the input.\n\n"
     ".. math::\n   \\textrm{sqrt}(x) = \\sqrt{x}\n\nExample::\n\n   sqrt([4, 9, 16]) = [2, 3, 4]"},
    {"rsqrt", UnaryKind::kRsqrt,
     "Returns element-wise inverse square-root value of the input.\n\n"
     ".. math::\n   rsqrt(x) = 1/\\sqrt{x}\n\nExample::\n\n   rsqrt([4,9,16]) = [0.5, 0.33333334, 0.25]"},
    {"square", UnaryKind::kSquare,
     "Returns element-wise squared value of the input.\n\n"
     ".. math::\n   square(x) = x^2\n\nExample::\n\n   square([2, 3, 4]) = [4, 9, 16]"},
    {"sin", UnaryKind::kSin,
     "Computes the element-wise sine of the input array.\n\n"
     "The input should be in radians (:math:`2\\pi` rad equals 360 degrees)."},
    {"cos", UnaryKind::kCos,
     "Computes the element-wise cosine of the input array.\n\n"
     "The input should be in radians (:math:`2\\pi` rad equals 360 degrees)."},
    {"tan", UnaryKind::kTan,
     "Computes the element-wise tangent of the input array.\n\n"
     "The input should be in radians (:math:`2\\pi` rad equals 360 degrees)."},
    {"tanh", UnaryKind::kTanh,
     "Returns the hyperbolic tangent of the input array, computed element-wise.\n\n"
     ".. math::\n   tanh(x) = sinh(x) / cosh(x)"},
    {"sigmoid", UnaryKind::kSigmoid,
     "Computes sigmoid of x element-wise.\n\n.. math::\n   y = 1 / (1 + exp(-x))"},
    {"relu", UnaryKind::kRelu,
     "Computes rectified linear activation.\n\n.. math::\n   max(features, 0)\n\n"
     "NaN inputs stay NaN."},
    {"sign", UnaryKind::kSign,
     "Returns element-wise sign of the input.\n\nExample::\n\n   sign([-2, 0, 3]) = [-1, 0, 1]"},
    {"floor", UnaryKind::kFloor,
     "Returns element-wise floor of the input.\n\n"
     "The floor of the scalar x is the largest integer i, such that i <= x.\n\n"
     "Example::\n\n   floor([-2.1, -1.9, 1.5, 1.9, 2.1]) = [-3., -2.,  1.,  1.,  2.]"},
    {"ceil", UnaryKind::kCeil,
     "Returns element-wise ceiling of the input.\n\n"
     "The ceil of the scalar x is the smallest integer i, such that i >= x.\n\n"
     "Example::\n\n   ceil([-2.1, -1.9, 1.5, 1.9, 2.1]) = [-2., -1.,  2.,  2.,  3.]"},
    {"round", UnaryKind::kRound,
     "Returns element-wise rounded value to the nearest integer of the input.\n\n"
     "Halfway cases round away from zero (unlike NumPy's round-half-to-even).\n\n"
     "Example::\n\n   round([-1.5, 1.5, -1.9, 1.9, 2.1]) = [-2.,  2., -2.,  2.,  2.]"},
    {"reciprocal", UnaryKind::kReciprocal,
     "Returns the reciprocal of the argument, element-wise.\n\n"
     "Calculates 1/x.\n\nExample::\n\n    reciprocal([-2, 1, 3, 1.6, 0.2]) = [-0.5, 1.0, 0.33333334, 0.625, 5.0]\n\n"
     "For integer dtypes the division truncates and 1/0 gives 0."},
};

// d/dx of each function, as MXNet's _backward_<op> computes it (from the
// output where that is cheaper); sign, floor, ceil and round give zeros.
FGradient UnaryGradient(UnaryKind kind) {
  if (kind == UnaryKind::kSign || kind == UnaryKind::kFloor || kind == UnaryKind::kCeil ||
      kind == UnaryKind::kRound)
    return ZeroGradients;
  return [kind](const NodePtr& n, const std::vector<NodeEntry>& og) -> std::vector<NodeEntry> {
    GradBuilder b(n);
    const NodeEntry& g = og[0];
    const NodeEntry x = b.in(0), y = b.out();
    switch (kind) {
      case UnaryKind::kAbs: return {b.Mul(g, b("sign", {x}))};
      case UnaryKind::kNegative: return {b.Neg(g)};
      case UnaryKind::kExp: return {b.Mul(g, y)};
      case UnaryKind::kLog: return {b.Div(g, x)};
      case UnaryKind::kLog1p: return {b.Div(g, b.Scalar("_plus_scalar", x, 1))};
      case UnaryKind::kExpm1: return {b.Mul(g, b.Scalar("_plus_scalar", y, 1))};
      case UnaryKind::kSqrt: return {b.Div(g, b.Scalar("_mul_scalar", y, 2))};
      case UnaryKind::kRsqrt: return {b.Scalar("_mul_scalar", b.Div(b.Mul(g, y), x), -0.5)};
      case UnaryKind::kSquare: return {b.Mul(g, b.Scalar("_mul_scalar", x, 2))};
      case UnaryKind::kSin: return {b.Mul(g, b("cos", {x}))};
      case UnaryKind::kCos: return {b.Mul(g, b.Neg(b("sin", {x})))};
      case UnaryKind::kTan: return {b.Mul(g, b.Scalar("_plus_scalar", b("square", {y}), 1))};
      case UnaryKind::kTanh: return {b.Mul(g, b.Scalar("_rminus_scalar", b("square", {y}), 1))};
      case UnaryKind::kSigmoid: return {b.Mul(g, b.Mul(y, b.Scalar("_rminus_scalar", y, 1)))};
      case UnaryKind::kRelu: return {b.Mul(g, b.Scalar("_greater_scalar", y, 0))};
      case UnaryKind::kReciprocal: return {b.Neg(b.Mul(g, b("square", {y})))};
      default: break;
    }
    WEFT_THROW(kInternal) << "no gradient for unary op " << n->op->name;
  };
}

bool RegisterUnaryOps() {
  for (const UnaryOpEntry& e : kUnaryOps) {
    OpDef& op = OpRegistry::Get()->Add(e.name);
    const UnaryKind kind = e.kind;
    op.describe(e.doc)
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
        .set_gradient(UnaryGradient(kind));
  }
  return true;
}

[[maybe_unused]] const bool kUnaryOpsRegistered = RegisterUnaryOps();

}  // namespace
}  // namespace weft
