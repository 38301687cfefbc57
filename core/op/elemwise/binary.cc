// Binary elementwise operators on two arrays of the same shape (MXNet 1.x
// names and aliases), registered from one table. Comparisons return the
// inputs' dtype holding 1/0, as MXNet's legacy operators do. Kernels:
// core/op/elemwise/binary_cpu.cc; integer division and modulo by zero give 0
// (Note [Defined integer edge cases] in core/op/elemwise/elemwise_cpu.h).
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/graph/grad_builder.h"
#include "core/op/elemwise/binary_grad.h"
#include "core/op/elemwise/elemwise_cpu.h"
#include "core/opdef/op_def.h"
#include "core/op/elemwise/elemwise_gpu.h"
#include "core/op/op_util.h"

namespace weft {
namespace {

using elemwise_cpu::BinaryKind;

struct BinaryOpEntry {
  const char* name;
  BinaryKind kind;
  std::vector<const char*> aliases;
  const char* doc;
};

const std::vector<BinaryOpEntry>& BinaryOps() {
  static const std::vector<BinaryOpEntry> ops = {
      {"elemwise_add", BinaryKind::kAdd, {"_add", "_plus", "_Plus"},
       "Adds arguments element-wise.\n\nThe two inputs must have the same shape; use "
       "broadcast_add to broadcast."},
      {"elemwise_sub", BinaryKind::kSub, {"_sub", "_minus", "_Minus"},
       "Subtracts arguments element-wise.\n\nThe two inputs must have the same shape."},
      {"elemwise_mul", BinaryKind::kMul, {"_mul", "_Mul"},
       "Multiplies arguments element-wise.\n\nThe two inputs must have the same shape."},
      {"elemwise_div", BinaryKind::kDiv, {"_div", "_Div"},
       "Divides arguments element-wise.\n\nThe two inputs must have the same shape. Integer "
       "division truncates toward zero and x / 0 gives 0."},
      {"_power", BinaryKind::kPow, {"_Power"},
       "Returns result of first array elements raised to powers from second array, "
       "element-wise.\n\nInteger inputs are computed in float64 and truncated."},
      {"_maximum", BinaryKind::kMax, {"_Maximum"},
       "Returns element-wise maximum of the input arrays (NaN propagates)."},
      {"_minimum", BinaryKind::kMin, {"_Minimum"},
       "Returns element-wise minimum of the input arrays (NaN propagates)."},
      {"_mod", BinaryKind::kMod, {"_Mod"},
       "Returns element-wise modulo of the input arrays.\n\nThe result has the sign of the "
       "divisor (like Python's %), and x mod 0 gives 0 for every dtype, as in MXNet."},
      {"_equal", BinaryKind::kEq, {"_Equal"},
       "Returns the result of element-wise **equal to** (==) comparison: 1 where true, 0 "
       "elsewhere, in the inputs' dtype."},
      {"_not_equal", BinaryKind::kNe, {"_Not_Equal"},
       "Returns the result of element-wise **not equal to** (!=) comparison: 1 where true, 0 "
       "elsewhere, in the inputs' dtype."},
      {"_greater", BinaryKind::kGt, {"_Greater"},
       "Returns the result of element-wise **greater than** (>) comparison: 1 where true, 0 "
       "elsewhere, in the inputs' dtype."},
      {"_greater_equal", BinaryKind::kGe, {"_Greater_Equal"},
       "Returns the result of element-wise **greater than or equal to** (>=) comparison: 1 where "
       "true, 0 elsewhere, in the inputs' dtype."},
      {"_lesser", BinaryKind::kLt, {"_Lesser"},
       "Returns the result of element-wise **lesser than** (<) comparison: 1 where true, 0 "
       "elsewhere, in the inputs' dtype."},
      {"_lesser_equal", BinaryKind::kLe, {"_Lesser_Equal"},
       "Returns the result of element-wise **lesser than or equal to** (<=) comparison: 1 where "
       "true, 0 elsewhere, in the inputs' dtype."},
      // issue 17: logical ops and hypot
      {"_logical_and", BinaryKind::kLogicalAnd, {"_Logical_And"},
       "Returns the result of element-wise **logical and** comparison operation: 1 where both "
       "inputs are nonzero, 0 elsewhere, in the inputs' dtype."},
      {"_logical_or", BinaryKind::kLogicalOr, {"_Logical_Or"},
       "Returns the result of element-wise **logical or** comparison operation: 1 where either "
       "input is nonzero, 0 elsewhere, in the inputs' dtype."},
      {"_logical_xor", BinaryKind::kLogicalXor, {"_Logical_Xor"},
       "Returns the result of element-wise **logical xor** comparison operation: 1 where exactly "
       "one input is nonzero, 0 elsewhere, in the inputs' dtype."},
      {"_hypot", BinaryKind::kHypot, {},
       "Given the \"legs\" of a right triangle, returns its hypotenuse ``sqrt(lhs^2 + rhs^2)``, "
       "element-wise."},
  };
  return ops;
}

// lhs, rhs and output share one shape; a mismatch names the op and both shapes.
bool SameShapeBinaryInfer(const OpDef& op, std::vector<Shape>* in, std::vector<Shape>* out) {
  const Shape& l = (*in)[0];
  const Shape& r = (*in)[1];
  WEFT_CHECK(!l.known() || !r.known() || l == r, kShape)
      << op.name << ": inputs 'lhs' and 'rhs' must have the same shape, got " << l.ToString()
      << " and " << r.ToString() << " (the broadcast_* operators broadcast)";
  const Shape s = l.known() ? l : (r.known() ? r : (*out)[0]);
  if (!s.known()) return false;
  AssignShape(in, 0, s, op.name + ": input 'lhs'");
  AssignShape(in, 1, s, op.name + ": input 'rhs'");
  AssignShape(out, 0, s, op.name + ": output");
  return true;
}

// MXNet's rules (core/op/elemwise/binary_grad.cc); the comparisons give zeros.
FGradient BinaryGradient(BinaryKind kind) {
  const char* what = nullptr;
  switch (kind) {
    case BinaryKind::kAdd: what = "add"; break;
    case BinaryKind::kSub: what = "sub"; break;
    case BinaryKind::kMul: what = "mul"; break;
    case BinaryKind::kDiv: what = "div"; break;
    case BinaryKind::kPow: what = "power"; break;
    case BinaryKind::kMax: what = "maximum"; break;
    case BinaryKind::kMin: what = "minimum"; break;
    case BinaryKind::kMod: what = "mod"; break;
    case BinaryKind::kHypot: what = "hypot"; break;
    default: return ZeroGradients;
  }
  return [what](const NodePtr& n, const std::vector<NodeEntry>& og) {
    return BinaryArithmeticGradient(n, og[0], what, false);
  };
}

bool RegisterBinaryOps() {
  for (const BinaryOpEntry& e : BinaryOps()) {
    WEFT_REGISTER_OP(op, e.name);
    op.set_same_shape(SameShapeSlots::All());
    for (const char* a : e.aliases) op.add_alias(a);
    const BinaryKind kind = e.kind;
    op.set_compute_gpu(WEFT_GPU(cuda::BinarySameShapeGpu(kind, e.name)))
        .set_fused_form(FusedForm::kBinary, elemwise_cpu::KindName(kind));
    // elemwise_add, the table's one sum: a norm chain's residual add (Note
    // [Fusion patterns on the op], core/opdef/op_def.h).
    if (kind == BinaryKind::kAdd) op.set_fusion_pattern(FusionPattern::Of(FusionPattern::kResidualSum));
    op.describe(e.doc)
        .add_input("lhs")
        .add_input("rhs")
        .set_infer_shape([&op](const Params&, std::vector<Shape>* in, std::vector<Shape>* out) {
          return SameShapeBinaryInfer(op, in, out);
        })
        .set_compute_cpu([kind](const OpContext&, const Params&, const std::vector<TensorView>& in,
                                const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
          elemwise_cpu::BinaryKernel(kind, in[0], in[1], req[0], out[0]);
        })
        .add_inplace(0, 0)
        .add_inplace(1, 0)
        .set_fusion(FusionClass::kElementwise)
        .set_gradient(BinaryGradient(kind));
  }
  return true;
}

[[maybe_unused]] const bool kBinaryOpsRegistered = RegisterBinaryOps();

}  // namespace
}  // namespace weft
