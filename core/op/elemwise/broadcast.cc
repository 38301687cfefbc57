// Broadcasting operators (MXNet 1.x): the broadcast_<binary> family, and
// broadcast_to / broadcast_like / broadcast_axis. Broadcasting follows MXNet's
// (= NumPy's) rule: shapes are left-padded with 1s to the same ndim, then each
// dim pair must be equal or contain a 1. Kernels: core/op/elemwise/binary_cpu.cc
// and core/op/elemwise/broadcast_cpu.cc (Note [Broadcast plan]).
//
// In-place pairs are not declared: an output may be larger than either input.
#include <algorithm>
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/op/axis_util.h"
#include "core/graph/grad_builder.h"
#include "core/op/elemwise/binary_grad.h"
#include "core/op/elemwise/elemwise_cpu.h"
#include "core/opdef/op_def.h"
#include "core/op/elemwise/elemwise_gpu.h"
#include "core/op/elemwise/broadcast_gpu.h"
#include "core/op/elemwise/broadcast_shape.h"
#include "core/op/op_util.h"

namespace weft {

bool BroadcastBinaryInfer(const OpDef& op, std::vector<Shape>* in, std::vector<Shape>* out) {
  const Shape& l = (*in)[0];
  const Shape& r = (*in)[1];
  if (!l.known() || !r.known()) return false;
  const int nd = std::max(l.ndim(), r.ndim());
  Shape o(std::vector<int64_t>(static_cast<size_t>(nd), 1));
  for (int i = 0; i < nd; ++i) {
    const int li = i - (nd - l.ndim()), ri = i - (nd - r.ndim());
    const int64_t a = li >= 0 ? l[li] : 1, b = ri >= 0 ? r[ri] : 1;
    WEFT_CHECK(a == b || a == 1 || b == 1, kShape)
        << op.name << ": operands could not be broadcast together with shapes " << l.ToString()
        << " (lhs) and " << r.ToString() << " (rhs)";
    o[i] = a == 1 ? b : a;
  }
  AssignShape(out, 0, o, op.name + ": output");
  return true;
}

namespace {

using elemwise_cpu::BinaryKind;

struct BroadcastOpEntry {
  const char* name;
  const char* alias;  // nullptr: none
  BinaryKind kind;
  const char* what;
};

const BroadcastOpEntry kBroadcastOps[] = {
    {"broadcast_add", "broadcast_plus", BinaryKind::kAdd, "Returns element-wise sum of the input arrays"},
    {"broadcast_sub", "broadcast_minus", BinaryKind::kSub, "Returns element-wise difference of the input arrays"},
    {"broadcast_mul", nullptr, BinaryKind::kMul, "Returns element-wise product of the input arrays"},
    {"broadcast_div", nullptr, BinaryKind::kDiv,
     "Returns element-wise division of the input arrays (integer division truncates; x / 0 gives 0)"},
    {"broadcast_power", nullptr, BinaryKind::kPow, "Returns result of first array elements raised to powers from second array"},
    {"broadcast_maximum", nullptr, BinaryKind::kMax, "Returns element-wise maximum of the input arrays (NaN propagates)"},
    {"broadcast_minimum", nullptr, BinaryKind::kMin, "Returns element-wise minimum of the input arrays (NaN propagates)"},
    {"broadcast_mod", nullptr, BinaryKind::kMod,
     "Returns element-wise modulo of the input arrays (sign of the divisor; x mod 0 gives 0)"},
    {"broadcast_equal", nullptr, BinaryKind::kEq, "Returns the result of element-wise **equal to** (==) comparison"},
    {"broadcast_not_equal", nullptr, BinaryKind::kNe, "Returns the result of element-wise **not equal to** (!=) comparison"},
    {"broadcast_greater", nullptr, BinaryKind::kGt, "Returns the result of element-wise **greater than** (>) comparison"},
    {"broadcast_greater_equal", nullptr, BinaryKind::kGe,
     "Returns the result of element-wise **greater than or equal to** (>=) comparison"},
    {"broadcast_lesser", nullptr, BinaryKind::kLt, "Returns the result of element-wise **lesser than** (<) comparison"},
    {"broadcast_lesser_equal", nullptr, BinaryKind::kLe,
     "Returns the result of element-wise **lesser than or equal to** (<=) comparison"},
    // issue 17: logical ops and hypot
    {"broadcast_logical_and", nullptr, BinaryKind::kLogicalAnd, "Returns the result of element-wise **logical and**"},
    {"broadcast_logical_or", nullptr, BinaryKind::kLogicalOr, "Returns the result of element-wise **logical or**"},
    {"broadcast_logical_xor", nullptr, BinaryKind::kLogicalXor, "Returns the result of element-wise **logical xor**"},
    {"broadcast_hypot", nullptr, BinaryKind::kHypot,
     "Returns the hypotenuse of a right angled triangle, given its \"legs\""},
};

// MXNet's rules, each input's gradient summed back over the axes it was
// broadcast along (core/op/elemwise/binary_grad.cc); the comparisons give zeros.
FGradient BroadcastGradient(BinaryKind kind) {
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
    return BinaryArithmeticGradient(n, og[0], what, true);
  };
}

// broadcast_to / broadcast_axis: the gradient summed back to the input's shape.
std::vector<NodeEntry> BroadcastCopyGradient(const NodePtr& n, const std::vector<NodeEntry>& og) {
  GradBuilder b(n);
  return {SumToShapeOf(b, og[0], b.in(0))};
}

bool RegisterBroadcastBinaryOps() {
  for (const BroadcastOpEntry& e : kBroadcastOps) {
    WEFT_REGISTER_OP(op, e.name);
    if (e.alias) op.add_alias(e.alias);
    const BinaryKind kind = e.kind;
    op.set_compute_gpu(WEFT_GPU(cuda::BinaryBroadcastGpu(kind, e.name)));
    op.describe(std::string(e.what) +
                " with broadcasting.\n\nShapes are left-padded with 1s to the same number of "
                "dimensions; then every pair of dimensions must be equal or one of them 1, and "
                "size-1 dimensions are repeated.\n\nExample::\n\n   x = [[ 1.,  1.,  1.],\n"
                "        [ 1.,  1.,  1.]]\n   y = [[ 0.],\n        [ 1.]]\n   "
                "broadcast_add(x, y) = [[ 1.,  1.,  1.],\n                           [ 2.,  2.,  2.]]\n\n"
                "Comparisons return 1/0 in the inputs' dtype.")
        .add_input("lhs")
        .add_input("rhs")
        .set_infer_shape([&op](const Params&, std::vector<Shape>* in, std::vector<Shape>* out) {
          return BroadcastBinaryInfer(op, in, out);
        })
        .set_compute_cpu([kind](const OpContext&, const Params&, const std::vector<TensorView>& in,
                                const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
          elemwise_cpu::BroadcastBinaryKernel(kind, in[0], in[1], req[0], out[0]);
        })
        .set_fusion(FusionClass::kInjective)
        .set_gradient(BroadcastGradient(kind));
  }
  return true;
}

[[maybe_unused]] const bool kBroadcastOpsRegistered = RegisterBroadcastBinaryOps();

void BroadcastCopyCompute(const OpContext&, const Params&, const std::vector<TensorView>& in,
                          const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  elemwise_cpu::BroadcastCopyKernel(in[0], req[0], out[0]);
}

// ---- broadcast_to ----

bool BroadcastToInfer(const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
  const Shape& ishape = (*in)[0];
  if (!ishape.known()) return false;
  const std::vector<int64_t> target = p.IsNone("shape") ? std::vector<int64_t>() : p.GetTuple("shape");
  const std::string target_text = tensor::TupleString(target);
  WEFT_CHECK(static_cast<int>(target.size()) == ishape.ndim(), kShape)
      << "broadcast_to: operand of shape " << ishape.ToString() << " cannot be broadcast to "
      << target_text << " (the target must have the same number of dimensions; 0 keeps a dim)";
  Shape o = ishape;
  for (int i = 0; i < ishape.ndim(); ++i) {
    const int64_t t = target[static_cast<size_t>(i)];
    WEFT_CHECK(t >= 0, kInvalidArgument)
        << "broadcast_to: invalid value " << (t == kNoneDim ? std::string("None") : std::to_string(t))
        << " in shape=" << target_text << " (expected sizes >= 0; 0 keeps the input's dim)";
    if (t == 0) continue;
    WEFT_CHECK(ishape[i] == t || ishape[i] == 1, kShape)
        << "broadcast_to: array cannot be broadcast from " << ishape.ToString() << " to " << target_text
        << " (dim " << i << " is " << ishape[i] << ", not 1 or " << t << ")";
    o[i] = t;
  }
  AssignShape(out, 0, o, "broadcast_to: output");
  return true;
}

WEFT_REGISTER_OP("broadcast_to").set_compute_gpu(WEFT_GPU(cuda::BroadcastToGpu)).add_method("broadcast_to")
    .describe("Broadcasts the input array to a new shape.\n\n"
              "Broadcasting is only allowed on axes with size 1; the new shape must have the same "
              "number of dimensions as the input.\n\nExample::\n\n"
              "   broadcast_to([[1,2,3]], shape=(2,3)) = [[ 1.,  2.,  3.],\n"
              "                                           [ 1.,  2.,  3.]])\n\n"
              "A dimension given as `0` keeps the input's size, so `shape=(2,0)` gives the same result.")
    .add_input("data")
    .add_param("shape", ParamType::kShape, "()",
               "The shape of the desired array. We can set the dim to zero if it's same as the "
               "original. E.g `A = broadcast_to(B, shape=(10, 0, 0))` has the same meaning as "
               "`A = broadcast_axis(B, axis=0, size=10)`.")
    .set_infer_shape(BroadcastToInfer)
    .set_compute_cpu(BroadcastCopyCompute)
    .set_fusion(FusionClass::kInjective)
    .set_gradient(BroadcastCopyGradient);

// ---- broadcast_axis ----

bool BroadcastAxisInfer(const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
  const Shape& ishape = (*in)[0];
  if (!ishape.known()) return false;
  const std::vector<int64_t> axes = p.IsNone("axis") ? std::vector<int64_t>() : p.GetTuple("axis");
  const std::vector<int64_t> sizes = p.IsNone("size") ? std::vector<int64_t>() : p.GetTuple("size");
  tensor::CheckNoNone(axes, "broadcast_axis", "axis");
  tensor::CheckNoNone(sizes, "broadcast_axis", "size");
  WEFT_CHECK(axes.size() == sizes.size(), kInvalidArgument)
      << "broadcast_axis: axis=" << tensor::TupleString(axes) << " and size=" << tensor::TupleString(sizes)
      << " must have the same length";
  Shape o = ishape;
  for (size_t i = 0; i < axes.size(); ++i) {
    const int ax = tensor::NormalizeAxis(axes[i], ishape.ndim(), "broadcast_axis", "data");
    WEFT_CHECK(ishape[ax] == 1, kShape)
        << "broadcast_axis: broadcasting axis " << axes[i] << " of input 'data' with shape "
        << ishape.ToString() << " must have size 1";
    WEFT_CHECK(sizes[i] >= 0, kInvalidArgument)
        << "broadcast_axis: size=" << tensor::TupleString(sizes) << " must not be negative";
    o[ax] = sizes[i];
  }
  AssignShape(out, 0, o, "broadcast_axis: output");
  return true;
}

WEFT_REGISTER_OP("broadcast_axis").set_compute_gpu(WEFT_GPU(cuda::BroadcastAxisGpu)).add_method("broadcast_axes")
    .add_alias("broadcast_axes")
    .describe("Broadcasts the input array over particular axes.\n\n"
              "Broadcasting is only allowed on axes with size 1.\n\nExample::\n\n"
              "   // given x of shape (1,2,1)\n   x = [[[ 1.],\n         [ 2.]]]\n\n"
              "   // broadcast x on on axis 2\n   broadcast_axis(x, axis=2, size=3) = [[[ 1.,  1.,  1.],\n"
              "                                         [ 2.,  2.,  2.]]]\n"
              "   // broadcast x on on axes 0 and 2\n"
              "   broadcast_axis(x, axis=(0,2), size=(2,3)) = [[[ 1.,  1.,  1.],\n"
              "                                                 [ 2.,  2.,  2.]],\n"
              "                                                [[ 1.,  1.,  1.],\n"
              "                                                 [ 2.,  2.,  2.]]]")
    .add_input("data")
    .add_param("axis", ParamType::kShape, "()", "The axes to perform the broadcasting.")
    .add_param("size", ParamType::kShape, "()", "Target sizes of the broadcasting axes.")
    .set_infer_shape(BroadcastAxisInfer)
    .set_compute_cpu(BroadcastCopyCompute)
    .set_fusion(FusionClass::kInjective)
    .set_gradient(BroadcastCopyGradient);

// ---- broadcast_like ----

bool BroadcastLikeInfer(const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
  const Shape& l = (*in)[0];
  const Shape& r = (*in)[1];
  if (!l.known() || !r.known()) return false;
  const bool has_l = !p.IsNone("lhs_axes"), has_r = !p.IsNone("rhs_axes");
  Shape o;
  if (!has_l && !has_r) {
    WEFT_CHECK(l.ndim() == r.ndim(), kShape)
        << "broadcast_like: operand 'lhs' of shape " << l.ToString() << " cannot be broadcast to "
        << r.ToString() << " ('rhs'): different number of dimensions";
    for (int i = 0; i < l.ndim(); ++i)
      WEFT_CHECK(l[i] == r[i] || l[i] == 1, kShape)
          << "broadcast_like: array 'lhs' cannot be broadcast from " << l.ToString() << " to "
          << r.ToString() << " (dim " << i << ")";
    o = r;
  } else {
    WEFT_CHECK(has_l && has_r, kInvalidArgument)
        << "broadcast_like: lhs_axes and rhs_axes must be given together";
    const std::vector<int64_t>& la = p.GetTuple("lhs_axes");
    const std::vector<int64_t>& ra = p.GetTuple("rhs_axes");
    tensor::CheckNoNone(la, "broadcast_like", "lhs_axes");
    tensor::CheckNoNone(ra, "broadcast_like", "rhs_axes");
    WEFT_CHECK(la.size() == ra.size() && !la.empty(), kInvalidArgument)
        << "broadcast_like: lhs_axes=" << tensor::TupleString(la) << " and rhs_axes="
        << tensor::TupleString(ra) << " must be non-empty and of the same length";
    o = l;
    for (size_t i = 0; i < la.size(); ++i) {
      const int to = tensor::NormalizeAxis(la[i], l.ndim(), "broadcast_like", "lhs", 0, "lhs_axes");
      const int from = tensor::NormalizeAxis(ra[i], r.ndim(), "broadcast_like", "rhs", 0, "rhs_axes");
      WEFT_CHECK(l[to] == 1 || l[to] == r[from], kShape)
          << "broadcast_like: axis " << la[i] << " of 'lhs' " << l.ToString()
          << " must have size 1 to be broadcast to " << r[from] << " (axis " << ra[i] << " of 'rhs' "
          << r.ToString() << ")";
      o[to] = r[from];
    }
  }
  AssignShape(out, 0, o, "broadcast_like: output");
  return true;
}

WEFT_REGISTER_OP("broadcast_like").set_compute_gpu(WEFT_GPU(cuda::BroadcastLikeGpu)).add_method("broadcast_like")
    .describe("Broadcasts lhs to have the same shape as rhs.\n\n"
              "Broadcasting is allowed on axes with size 1 only.\n\nExample::\n\n"
              "   broadcast_like([[1,2,3]], [[5,6,7],[7,8,9]]) = [[ 1.,  2.,  3.],\n"
              "                                                   [ 1.,  2.,  3.]])\n\n"
              "   broadcast_like([9], [1,2,3,4,5], lhs_axes=(0,), rhs_axes=(-1,)) = [9,9,9,9,9]\n\n"
              "Only the shape of rhs is used; lhs and rhs share one dtype (as in MXNet).")
    .add_input("lhs")
    .add_input("rhs")
    .add_optional_param("lhs_axes", ParamType::kShape, "Axes to perform broadcast on in the first input array")
    .add_optional_param("rhs_axes", ParamType::kShape, "Axes to copy from the second input array")
    .set_infer_shape(BroadcastLikeInfer)
    .set_compute_cpu(BroadcastCopyCompute)
    .set_fusion(FusionClass::kInjective)
    .set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) -> std::vector<NodeEntry> {
      GradBuilder b(n);  // rhs only gives the shape: zeros, as in MXNet
      return {SumToShapeOf(b, og[0], b.in(0)), b.Zeros(b.in(1))};
    });

}  // namespace
}  // namespace weft
