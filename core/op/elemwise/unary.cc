// Unary elementwise operators (MXNet 1.x names): one table, registered in a
// loop; the math ops' entries, kernels and gradients come from their rows
// (Note [Unary math rows] in unary_ops.h). Kernels: core/op/elemwise/elemwise_cpu.cc. Integer inputs keep their
// dtype; see Note [Elementwise arithmetic types] in core/op/elemwise/elemwise_cpu.h.
#include <string>
#include <vector>

#include "core/graph/grad_builder.h"
#include "core/op/elemwise/elemwise_cpu.h"
#include "core/opdef/op_def.h"
#include "core/op/elemwise/elemwise_gpu.h"
#include "core/op/op_util.h"

namespace weft {
namespace {

using elemwise_cpu::UnaryKind;

struct UnaryOpEntry {
  const char* name;
  UnaryKind kind;
  const char* doc;
  bool fluent = true;  // also an NDArray/Symbol method (not negative: MXNet has -x)
};

const UnaryOpEntry kUnaryOps[] = {
#define WEFT_UNARY_MATH_ENTRY(e, name, fluent, value, gradient, doc) {name, UnaryKind::e, doc, fluent},
    WEFT_UNARY_MATH_OPS(WEFT_UNARY_MATH_ENTRY)
#undef WEFT_UNARY_MATH_ENTRY
    {"abs", UnaryKind::kAbs,
     "Returns element-wise absolute value of the input.\n\nExample::\n\n   abs([-2, 0, 3]) = [2, 0, 3]"},
    {"negative", UnaryKind::kNegative,
     "Numerical negative of the argument, element-wise.\n\n"
     "Unsigned integers wrap (negative(uint8 1) = 255).",
     false},
    {"square", UnaryKind::kSquare,
     "Returns element-wise squared value of the input.\n\n"
     ".. math::\n   square(x) = x^2\n\nExample::\n\n   square([2, 3, 4]) = [4, 9, 16]"},
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
    // issue 17: rounding, logical_not and the contrib floating-point class tests
    {"rint", UnaryKind::kRint,
     "Returns element-wise rounded value to the nearest integer of the input.\n\n"
     ".. note::\n   - For input ``n.5`` ``rint`` returns ``n`` while ``round`` returns ``n+1``.\n"
     "   - For input ``-n.5`` both ``rint`` and ``round`` returns ``-n-1``.\n\n"
     "Example::\n\n   rint([-1.5, 1.5, -1.9, 1.9, 2.1]) = [-2.,  1., -2.,  2.,  2.]"},
    {"fix", UnaryKind::kFix,
     "Returns element-wise rounded value to the nearest \ninteger towards zero of the input.\n\n"
     "Example::\n\n   fix([-2.1, -1.9, 1.9, 2.1]) = [-2., -1.,  1., 2.]"},
    {"trunc", UnaryKind::kTrunc,
     "Return the element-wise truncated value of the input.\n\n"
     "The truncated value of the scalar x is the nearest integer i which is closer to zero than x is. "
     "In short, the fractional part of the signed number x is discarded.\n\n"
     "Example::\n\n   trunc([-2.1, -1.9, 1.5, 1.9, 2.1]) = [-2., -1.,  1.,  1.,  2.]"},
    {"logical_not", UnaryKind::kLogicalNot,
     "Returns the result of logical NOT (!) function\n\n"
     "Example:\n  logical_not([-2., 0., 1.]) = [0., 1., 0.]\n\n1/0 in the input dtype.",
     false},
    {"_contrib_isnan", UnaryKind::kIsNan,
     "Returns 1 where the input is NaN and 0 elsewhere, in the input dtype.\n\n"
     "Example::\n\n   isnan([np.nan, np.inf, 1.]) = [1., 0., 0.]",
     false},
    {"_contrib_isinf", UnaryKind::kIsInf,
     "Returns 1 where the input is +inf or -inf and 0 elsewhere, in the input dtype.\n\n"
     "Example::\n\n   isinf([np.inf, -np.inf, np.nan, 1.]) = [1., 1., 0., 0.]",
     false},
    {"_contrib_isfinite", UnaryKind::kIsFinite,
     "Returns 1 where the input is finite (neither infinite nor NaN) and 0 elsewhere, in the "
     "input dtype.\n\nExample::\n\n   isfinite([np.inf, -np.inf, np.nan, 1.]) = [0., 0., 0., 1.]",
     false},
};

// d/dx of each function, as MXNet's _backward_<op> computes it (from the
// output where that is cheaper); sign, floor, ceil and round give zeros.
FGradient UnaryGradient(UnaryKind kind) {
  if (kind == UnaryKind::kSign || kind == UnaryKind::kFloor || kind == UnaryKind::kCeil ||
      kind == UnaryKind::kRound)
    return ZeroGradients;
  if (kind == UnaryKind::kRint || kind == UnaryKind::kFix || kind == UnaryKind::kTrunc ||
      kind == UnaryKind::kLogicalNot || kind == UnaryKind::kIsNan || kind == UnaryKind::kIsInf ||
      kind == UnaryKind::kIsFinite)
    return ZeroGradients;
  return [kind](const NodePtr& n, const std::vector<NodeEntry>& og) -> std::vector<NodeEntry> {
    GradBuilder b(n);
    const NodeEntry& g = og[0];
    const NodeEntry x = b.in(0), y = b.out();
    switch (kind) {
      case UnaryKind::kAbs: return {b.Mul(g, b("sign", {x}))};
      case UnaryKind::kNegative: return {b.Neg(g)};
      case UnaryKind::kSquare: return {b.Mul(g, b.Scalar("_mul_scalar", x, 2))};
      case UnaryKind::kRelu: return {b.Mul(g, b.Scalar("_greater_scalar", y, 0))};
      case UnaryKind::kReciprocal: return {b.Neg(b.Mul(g, b("square", {y})))};
#define WEFT_UNARY_MATH_GRAD(e, name, fluent, value, gradient, doc) \
  case UnaryKind::e:                                        \
    return {gradient};
      WEFT_UNARY_MATH_OPS(WEFT_UNARY_MATH_GRAD)
#undef WEFT_UNARY_MATH_GRAD
      default: break;
    }
    WEFT_THROW(kInternal) << "no gradient for unary op " << n->op->name;
  };
}

bool RegisterUnaryOps() {
  for (const UnaryOpEntry& e : kUnaryOps) {
    WEFT_REGISTER_OP(op, e.name);
    op.set_same_shape(SameShapeSlots::All());
    const UnaryKind kind = e.kind;
    op.set_compute_gpu(WEFT_GPU(cuda::UnaryGpu(kind, e.name)))
        .set_fused_form(FusedForm::kUnary, elemwise_cpu::KindName(kind));
    if (e.fluent) op.add_method(e.name);
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
