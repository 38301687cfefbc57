// Binary operators between an array and a scalar parameter (MXNet 1.x
// _*_scalar names and aliases), registered from one table. As in MXNet's
// legacy operators the output keeps the input dtype and the scalar is first
// converted to it (DType(scalar): _mul_scalar(int32 x, scalar=0.5) multiplies
// by 0). `is_int` is accepted for MXNet 1.9 symbol files; it only matters to
// NumPy-style ops, so it does not change the result here. Kernels:
// core/op/elemwise/binary_cpu.cc.
#include <cmath>
#include <string>
#include <vector>

#include "core/graph/grad_builder.h"
#include "core/op/elemwise/elemwise_cpu.h"
#include "core/opdef/op_def.h"
#include "core/op/elemwise/elemwise_gpu.h"
#include "core/op/op_util.h"

namespace weft {
namespace {

using elemwise_cpu::BinaryKind;

struct ScalarOpEntry {
  const char* name;
  const char* alias;  // nullptr: none
  BinaryKind kind;
  bool scalar_on_left;  // the _r* variants compute op(scalar, data)
  const char* doc;
};

const ScalarOpEntry kScalarOps[] = {
    {"_plus_scalar", "_PlusScalar", BinaryKind::kAdd, false, "Adds a scalar to an array: data + scalar."},
    {"_minus_scalar", "_MinusScalar", BinaryKind::kSub, false, "Subtracts a scalar from an array: data - scalar."},
    {"_rminus_scalar", "_RMinusScalar", BinaryKind::kSub, true, "Subtracts an array from a scalar: scalar - data."},
    {"_mul_scalar", "_MulScalar", BinaryKind::kMul, false, "Multiplies an array by a scalar: data * scalar."},
    {"_div_scalar", "_DivScalar", BinaryKind::kDiv, false,
     "Divides an array by a scalar: data / scalar. Integer division truncates; x / 0 gives 0."},
    {"_rdiv_scalar", "_RDivScalar", BinaryKind::kDiv, true,
     "Divides a scalar by an array: scalar / data. Integer division truncates; x / 0 gives 0."},
    {"_power_scalar", "_PowerScalar", BinaryKind::kPow, false, "Raises an array to a scalar power: data ** scalar."},
    {"_rpower_scalar", "_RPowerScalar", BinaryKind::kPow, true, "Raises a scalar to array powers: scalar ** data."},
    {"_maximum_scalar", "_MaximumScalar", BinaryKind::kMax, false, "Element-wise maximum of an array and a scalar."},
    {"_minimum_scalar", "_MinimumScalar", BinaryKind::kMin, false, "Element-wise minimum of an array and a scalar."},
    {"_mod_scalar", "_ModScalar", BinaryKind::kMod, false,
     "Modulo of an array by a scalar: data % scalar (sign of the divisor; x mod 0 gives 0)."},
    {"_rmod_scalar", "_RModScalar", BinaryKind::kMod, true,
     "Modulo of a scalar by an array: scalar % data (sign of the divisor; x mod 0 gives 0)."},
    {"_equal_scalar", "_EqualScalar", BinaryKind::kEq, false,
     "Returns (data == scalar) element-wise: 1 where true, 0 elsewhere, in the input dtype."},
    {"_not_equal_scalar", "_NotEqualScalar", BinaryKind::kNe, false,
     "Returns (data != scalar) element-wise: 1 where true, 0 elsewhere, in the input dtype."},
    {"_greater_scalar", "_GreaterScalar", BinaryKind::kGt, false,
     "Returns (data > scalar) element-wise: 1 where true, 0 elsewhere, in the input dtype."},
    {"_greater_equal_scalar", "_GreaterEqualScalar", BinaryKind::kGe, false,
     "Returns (data >= scalar) element-wise: 1 where true, 0 elsewhere, in the input dtype."},
    {"_lesser_scalar", "_LesserScalar", BinaryKind::kLt, false,
     "Returns (data < scalar) element-wise: 1 where true, 0 elsewhere, in the input dtype."},
    {"_lesser_equal_scalar", "_LesserEqualScalar", BinaryKind::kLe, false,
     "Returns (data <= scalar) element-wise: 1 where true, 0 elsewhere, in the input dtype."},
    // issue 17: logical ops and hypot
    {"_logical_and_scalar", "_LogicalAndScalar", BinaryKind::kLogicalAnd, false,
     "Returns (data && scalar) element-wise: 1 where both are nonzero, 0 elsewhere, in the input dtype."},
    {"_logical_or_scalar", "_LogicalOrScalar", BinaryKind::kLogicalOr, false,
     "Returns (data || scalar) element-wise: 1 where either is nonzero, 0 elsewhere, in the input dtype."},
    {"_logical_xor_scalar", "_LogicalXorScalar", BinaryKind::kLogicalXor, false,
     "Returns (data xor scalar) element-wise: 1 where exactly one is nonzero, 0 elsewhere, in the input dtype."},
    {"_hypot_scalar", "_HypotScalar", BinaryKind::kHypot, false,
     "Returns sqrt(data^2 + scalar^2) element-wise."},
};

// MXNet's _backward_<op>_scalar rules (x the input, y the output, s the
// scalar); the comparisons give zeros.
FGradient ScalarGradient(BinaryKind kind, bool left) {
  switch (kind) {
    case BinaryKind::kEq: case BinaryKind::kNe: case BinaryKind::kGt:
    case BinaryKind::kGe: case BinaryKind::kLt: case BinaryKind::kLe:
    case BinaryKind::kLogicalAnd: case BinaryKind::kLogicalOr: case BinaryKind::kLogicalXor:
      return ZeroGradients;
    default:
      break;
  }
  return [kind, left](const NodePtr& n, const std::vector<NodeEntry>& og) -> std::vector<NodeEntry> {
    GradBuilder b(n);
    const NodeEntry& g = og[0];
    const NodeEntry x = b.in(0), y = b.out();
    const double s = n->params.GetFloat("scalar");
    switch (kind) {
      case BinaryKind::kAdd: return {g};
      case BinaryKind::kSub: return {left ? b.Neg(g) : g};
      case BinaryKind::kMul: return {b.Scalar("_mul_scalar", g, s)};
      case BinaryKind::kDiv:  // s / x: -g s / x^2 = -g y / x
        return {left ? b.Neg(b.Div(b.Mul(g, y), x)) : b.Scalar("_div_scalar", g, s)};
      case BinaryKind::kPow:  // s^x: g y log(s);  x^s: g s x^(s-1)
        return {left ? b.Scalar("_mul_scalar", b.Mul(g, y), std::log(s))
                     : b.Scalar("_mul_scalar", b.Mul(g, b.Scalar("_power_scalar", x, s - 1)), s)};
      case BinaryKind::kMax: return {b.Mul(g, b.Scalar("_greater_equal_scalar", x, s))};
      case BinaryKind::kMin: return {b.Mul(g, b.Scalar("_lesser_equal_scalar", x, s))};
      case BinaryKind::kMod:  // s mod x = s - x floor(s / x)
        return {left ? b.Neg(b.Mul(g, b("floor", {b.Scalar("_rdiv_scalar", x, s)}))) : g};
      case BinaryKind::kHypot:  // d hypot(x, s) / dx = x / y
        return {b.Div(b.Mul(g, x), y)};
      default: break;
    }
    WEFT_THROW(kInternal) << "no gradient for " << n->op->name;
  };
}

bool RegisterScalarOps() {
  for (const ScalarOpEntry& e : kScalarOps) {
    WEFT_REGISTER_OP(op, e.name);
    op.set_same_shape(SameShapeSlots::All());
    if (e.alias) op.add_alias(e.alias);
    const BinaryKind kind = e.kind;
    const bool left = e.scalar_on_left;
    op.set_compute_gpu(WEFT_GPU(cuda::BinaryScalarGpu(kind, left, e.name)))
        .set_fused_form(FusedForm::kScalar, elemwise_cpu::KindName(kind), left);
    op.describe(std::string(e.doc) +
                "\n\nThe output has the input's dtype; the scalar is converted to that dtype "
                "first (as MXNet's DType(scalar)).")
        .add_input("data")
        .add_param("scalar", ParamType::kFloat, "1", "Scalar input value")
        .add_param("is_int", ParamType::kBool, "True",
                   "Indicate whether scalar input is int type (accepted for MXNet 1.9 "
                   "compatibility; the result always keeps the input dtype)")
        .set_infer_shape([&op](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
          return SameShapeInfer(op, p, in, out);
        })
        .set_compute_cpu([kind, left](const OpContext&, const Params& p, const std::vector<TensorView>& in,
                                      const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
          elemwise_cpu::BinaryScalarKernel(kind, in[0], p.GetFloat("scalar"), left, req[0], out[0]);
        })
        .add_inplace(0, 0)
        .set_fusion(FusionClass::kElementwise)
        .set_gradient(ScalarGradient(kind, left));
  }
  return true;
}

[[maybe_unused]] const bool kScalarOpsRegistered = RegisterScalarOps();

}  // namespace
}  // namespace weft
