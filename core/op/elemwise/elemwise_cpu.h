// CPU kernels of the elementwise families: unary math, binary (same shape,
// with a scalar, broadcast), broadcast copies, where, clip and Cast.
// Plain functions over TensorView; the op kind and the write mode are runtime
// arguments, the dtype is switched once per call (docs/STYLE.md "Kernels").
//
// Note [Elementwise arithmetic types]
// Each storage dtype computes in one arithmetic type: float32 and float64 in
// themselves, float16 and bfloat16 in float (rounded once on store), integers in
// their own type (C++ promotion, results wrap), bool as uint8 0/1 stored back
// as `value != 0`. Transcendental functions (exp, log, sqrt, sin, pow, ...) on
// integer dtypes compute in float like MXNet's math:: helpers (pow in double)
// and convert back with the float->integer rule below.
//
// Note [Defined integer edge cases]
// So that no input can crash the process or hit undefined behaviour:
//  * integer division by zero gives 0 (elemwise_div, _div_scalar, _rdiv_scalar,
//    broadcast_div, reciprocal); INT_MIN / -1 wraps to INT_MIN;
//  * integer add, sub, mul, square, negative, abs and kAddTo accumulation wrap
//    modulo 2^bits (computed unsigned), never signed overflow;
//  * modulo by zero gives 0 for every dtype, as MXNet's mshadow_op::mod does,
//    and the result takes the sign of the divisor (NumPy / Python semantics);
//  * float -> integer conversion (Cast, and math results on integer dtypes):
//    NaN gives 0, otherwise truncation toward zero clamped to the int64 range
//    and then wrapped to the target width (so -1.0 -> uint8 gives 255, like
//    NumPy on x86 for values inside the int64 range).
#pragma once
#include <string>
#include <cstdint>
#include <vector>

#include "core/base/shape.h"
#include "core/op/elemwise/unary_ops.h"
#include "core/opdef/op_def.h"
#include "core/opdef/tensor_view.h"

namespace weft {
namespace elemwise_cpu {

// Note [Elementwise kinds]
// One row per kind: X(enumerator, name, cost); the unary math kinds are the
// rows of WEFT_UNARY_MATH_OPS (unary_ops.h, cost 8). The name is the kind's word in
// _fused_elemwise programs (Note [Fused elementwise programs]; a unary kind is
// spelled as its op) and the cost a rough work per element for ParallelFor.
// The enums, the names and the program parser all come from these rows.
#define WEFT_UNARY_EXACT_KINDS(X)                                                                    \
  X(kAbs, "abs", 1) X(kNegative, "negative", 1) X(kSquare, "square", 1) X(kRelu, "relu", 1)          \
  X(kSign, "sign", 1) X(kFloor, "floor", 1) X(kCeil, "ceil", 1) X(kRound, "round", 1)                \
  X(kReciprocal, "reciprocal", 1)                                                                   \
  X(kRint, "rint", 1) X(kFix, "fix", 1) X(kTrunc, "trunc", 1) X(kLogicalNot, "logical_not", 1)       \
  X(kIsNan, "_contrib_isnan", 1) X(kIsInf, "_contrib_isinf", 1) X(kIsFinite, "_contrib_isfinite", 1)
// The unary math ops (Note [Unary math rows] in unary_ops.h) follow the exact
// kinds, with cost 8.
#define WEFT_BINARY_KINDS(X)                                                                         \
  X(kAdd, "add", 1) X(kSub, "sub", 1) X(kMul, "mul", 1) X(kDiv, "div", 2) X(kPow, "pow", 8)          \
  X(kMax, "max", 1) X(kMin, "min", 1) X(kMod, "mod", 4) X(kEq, "eq", 1) X(kNe, "ne", 1)              \
  X(kGt, "gt", 1) X(kGe, "ge", 1) X(kLt, "lt", 1) X(kLe, "le", 1)                                  \
  X(kLogicalAnd, "logical_and", 1) X(kLogicalOr, "logical_or", 1) X(kLogicalXor, "logical_xor", 1)   \
  X(kHypot, "hypot", 8) X(kGammaGrad, "gamma_grad", 16) X(kGammalnGrad, "gammaln_grad", 16)

#define WEFT_KIND_ENUMERATOR(e, name, cost) e,
#define WEFT_MATH_ENUMERATOR(e, name, fluent, value, gradient, doc) e,
enum class UnaryKind : int {
  WEFT_UNARY_EXACT_KINDS(WEFT_KIND_ENUMERATOR) WEFT_UNARY_MATH_OPS(WEFT_MATH_ENUMERATOR)
};
#undef WEFT_MATH_ENUMERATOR
enum class BinaryKind : int { WEFT_BINARY_KINDS(WEFT_KIND_ENUMERATOR) };
#undef WEFT_KIND_ENUMERATOR

// The program name of a kind (the rows above).
const char* KindName(UnaryKind k);
const char* KindName(BinaryKind k);
// The kind named `name`; false when there is none.
bool UnaryKindByName(const std::string& name, UnaryKind* k);
bool BinaryKindByName(const std::string& name, BinaryKind* k);
// The kind's cost per element (the rows above).
int KindCost(UnaryKind k);
int KindCost(BinaryKind k);

// out = op(in), same shape (treated as 1-D).
void UnaryKernel(UnaryKind kind, const TensorView& in, OpReq req, const TensorView& out);

// out = op(lhs, rhs); lhs, rhs and out share dtype and element count.
void BinaryKernel(BinaryKind kind, const TensorView& lhs, const TensorView& rhs, OpReq req,
                  const TensorView& out);

// out = op(in, scalar), or op(scalar, in) when scalar_on_left (the _r* ops).
// The scalar is first converted to the input dtype, as MXNet does.
void BinaryScalarKernel(BinaryKind kind, const TensorView& in, double scalar, bool scalar_on_left,
                        OpReq req, const TensorView& out);

// Note [Elementwise blocks]
// One contiguous block of n elements in the storage dtype, computed on the
// calling thread and written (never added): the per-tile steps of the fused
// elementwise interpreter (core/op/fused/fused_elemwise_cpu.cc). They run the same
// loops as the kernels above, so a fused chain gives the unfused results.
void UnaryBlock(UnaryKind kind, DType dtype, const void* in, void* out, int64_t n);
// out[i] = op(lhs[i * lstride], rhs[i * rstride]); strides are 0 or 1 (0: one
// value, e.g. a scalar already converted to the storage dtype).
void BinaryBlock(BinaryKind kind, DType dtype, const void* lhs, int64_t lstride, const void* rhs, int64_t rstride,
                 void* out, int64_t n);

// out = op(lhs, rhs) with MXNet/NumPy broadcasting: shapes are left-padded to
// out's ndim, each dim equals out's or is 1.
void BroadcastBinaryKernel(BinaryKind kind, const TensorView& lhs, const TensorView& rhs, OpReq req,
                           const TensorView& out);

// out = in broadcast to out's shape (broadcast_to/like/axis); in is
// left-padded to out's ndim and each of its dims equals out's or is 1.
void BroadcastCopyKernel(const TensorView& in, OpReq req, const TensorView& out);

// out[i] = cond[i] != 0 ? x[i] : y[i]; cond has x's shape, or is 1-D of
// length x.shape[0] and selects whole rows. cond may have any dtype.
void WhereKernel(const TensorView& cond, const TensorView& x, const TensorView& y, OpReq req,
                 const TensorView& out);

// out = min(max(in, a_min), a_max) with the bounds converted to in's dtype.
void ClipKernel(const TensorView& in, double a_min, double a_max, OpReq req, const TensorView& out);

// out = in converted to out's dtype (any of the 9 dtypes, both directions).
void CastKernel(const TensorView& in, OpReq req, const TensorView& out);

// Note [Broadcast plan]
// A broadcast is described after collapsing: dims of out that are 1 are
// dropped, and neighbouring dims where both inputs broadcast the same way are
// merged. What remains is a few dims with per-input element strides (0 on a
// broadcast dim). Kernels walk the outer dims row by row and run the innermost
// dim as a contiguous (stride 1) or constant (stride 0) loop, so scalar, row
// and column broadcasts all reach the vectorised 1-D loop.
struct BroadcastPlan {
  std::vector<int64_t> dims;     // collapsed dims, outermost first
  std::vector<int64_t> lstride;  // element strides of lhs per dim (0: broadcast)
  std::vector<int64_t> rstride;  // same for rhs (unused by one-input kernels)
  int64_t size = 0;              // elements of out
};
// lhs and rhs must broadcast to out (checked by shape inference).
BroadcastPlan MakeBroadcastPlan(const Shape& lhs, const Shape& rhs, const Shape& out);
// A one-dim plan of n elements with lhs/rhs strides 0 or 1 (same-shape and
// scalar cases, and unary kernels, which reuse the row runner for threading).
BroadcastPlan FlatPlan(int64_t n, int64_t lstride, int64_t rstride);

// Runs the broadcast run by run: fn(ctx, out_offset, lhs_offset, rhs_offset, n)
// handles n consecutive elements of out, along which lhs and rhs advance by
// their innermost strides (plan.lstride.back(), plan.rstride.back(): 0 or 1).
// Rows go to threads with ParallelFor; a one-dim plan is split into pieces.
// cost_per_element sizes the split.
using BroadcastRowFn = void (*)(void* ctx, int64_t out_off, int64_t lhs_off, int64_t rhs_off, int64_t n);
void RunBroadcastRows(const BroadcastPlan& plan, int64_t cost_per_element, BroadcastRowFn fn,
                      void* ctx);

}  // namespace elemwise_cpu
}  // namespace weft
