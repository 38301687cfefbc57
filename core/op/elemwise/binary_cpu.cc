// Binary elementwise kernels on CPU: same shape, with a scalar, broadcast.
// All three reduce to one 1-D loop over (a, stride 0|1) x (b, stride 0|1),
// specialised per stride pair so the contiguous cases vectorise.
#include <algorithm>
#include <cmath>
#include <type_traits>

#include "core/op/elemwise/elemwise_cpu.h"
#include "core/op/elemwise/elemwise_math.h"
#include "core/op/op_util.h"

namespace weft {
namespace elemwise_cpu {
namespace {

template <typename C>
using Unsigned = typename std::make_unsigned<C>::type;

// Integer add/sub/mul wrap (computed unsigned) instead of overflowing.
struct OpAdd {
  static constexpr int kCost = 1;
  template <typename C>
  static C Map(C a, C b) {
    if constexpr (kIsInt<C>) return static_cast<C>(static_cast<Unsigned<C>>(a) + static_cast<Unsigned<C>>(b));
    else return a + b;
  }
};
struct OpSub {
  static constexpr int kCost = 1;
  template <typename C>
  static C Map(C a, C b) {
    if constexpr (kIsInt<C>) return static_cast<C>(static_cast<Unsigned<C>>(a) - static_cast<Unsigned<C>>(b));
    else return a - b;
  }
};
struct OpMul {
  static constexpr int kCost = 1;
  template <typename C>
  static C Map(C a, C b) {
    if constexpr (kIsInt<C>) return static_cast<C>(static_cast<Unsigned<C>>(a) * static_cast<Unsigned<C>>(b));
    else return a * b;
  }
};
// Note [Defined integer edge cases]: x / 0 -> 0, INT_MIN / -1 -> INT_MIN.
struct OpDiv {
  static constexpr int kCost = 2;
  template <typename C>
  static C Map(C a, C b) {
    if constexpr (kIsInt<C>) {
      if (b == C(0)) return C(0);
      if constexpr (std::is_signed<C>::value) {
        if (b == C(-1)) return WrapNeg(a);
      }
      return static_cast<C>(a / b);
    } else {
      return a / b;
    }
  }
};
struct OpPow {  // integers: pow in double, then the float -> integer rule
  static constexpr int kCost = 8;
  template <typename C>
  static C Map(C a, C b) {
    if constexpr (kIsInt<C>) return FloatToInt<C>(std::pow(static_cast<double>(a), static_cast<double>(b)));
    else return std::pow(a, b);
  }
};
struct OpMax {  // NaN propagates (NumPy's maximum)
  static constexpr int kCost = 1;
  template <typename C>
  static C Map(C a, C b) { return (a > b || a != a) ? a : b; }
};
struct OpMin {
  static constexpr int kCost = 1;
  template <typename C>
  static C Map(C a, C b) { return (a < b || a != a) ? a : b; }
};
// MXNet's mshadow_op::mod: x mod 0 -> 0; otherwise the sign of the divisor.
struct OpMod {
  static constexpr int kCost = 4;
  template <typename C>
  static C Map(C a, C b) {
    if (b == C(0)) return C(0);
    if constexpr (kIsInt<C>) {
      if constexpr (std::is_signed<C>::value) {
        if (b == C(-1)) return C(0);
        C r = static_cast<C>(a % b);
        if (r != C(0) && ((r < C(0)) != (b < C(0)))) r = static_cast<C>(r + b);
        return r;
      } else {
        return static_cast<C>(a % b);
      }
    } else {
      C r = std::fmod(a, b);
      if (r != C(0) && ((r < C(0)) != (b < C(0)))) r += b;
      return r;
    }
  }
};
#define WEFT_BINARY_CMP(Name, op)                                          \
  struct Name {                                                            \
    static constexpr int kCost = 1;                                        \
    template <typename C>                                                  \
    static C Map(C a, C b) { return static_cast<C>(a op b ? 1 : 0); }      \
  };
WEFT_BINARY_CMP(OpEq, ==)
WEFT_BINARY_CMP(OpNe, !=)
WEFT_BINARY_CMP(OpGt, >)
WEFT_BINARY_CMP(OpGe, >=)
WEFT_BINARY_CMP(OpLt, <)
WEFT_BINARY_CMP(OpLe, <=)
#undef WEFT_BINARY_CMP

// o[i] = op(a[i * sa], b[i * sb]), sa and sb in {0, 1}. Not inlined so that
// WriteOrAdd's two call sites share one copy of the loops.
template <typename T, typename Op>
WEFT_VECTOR_LOOP void BinaryWrite(const T* a, int64_t sa, const T* b, int64_t sb, T* o, int64_t n) {
  using C = Acc<T>;
  if (sa == 1 && sb == 1) {
    for (int64_t i = 0; i < n; ++i) o[i] = ToStorage<T>(Op::Map(static_cast<C>(a[i]), static_cast<C>(b[i])));
  } else if (sa == 1) {
    const C bv = static_cast<C>(b[0]);
    for (int64_t i = 0; i < n; ++i) o[i] = ToStorage<T>(Op::Map(static_cast<C>(a[i]), bv));
  } else if (sb == 1) {
    const C av = static_cast<C>(a[0]);
    for (int64_t i = 0; i < n; ++i) o[i] = ToStorage<T>(Op::Map(av, static_cast<C>(b[i])));
  } else {
    std::fill(o, o + n, ToStorage<T>(Op::Map(static_cast<C>(a[0]), static_cast<C>(b[0]))));
  }
}

template <typename T>
struct RowCtx {
  const T* a;
  const T* b;
  T* o;
  int64_t sa, sb;
  bool add;
};

template <typename T, typename Op>
void BinaryRow(void* ctx, int64_t oo, int64_t lo, int64_t ro, int64_t n) {
  const auto* c = static_cast<const RowCtx<T>*>(ctx);
  const T* a = c->a + lo;
  const T* b = c->b + ro;
  const int64_t sa = c->sa, sb = c->sb;
  WriteOrAdd(c->o + oo, n, c->add, [&](T* dst, int64_t off, int64_t m) {
    BinaryWrite<T, Op>(a + off * sa, sa, b + off * sb, sb, dst, m);
  });
}

// Every mode runs as a broadcast plan: same shape and scalar modes are
// one-dim plans with strides (1, 1), (1, 0) or (0, 1).
template <typename Op>
void BinaryLaunch(const BroadcastPlan& plan, const TensorView& lhs, const void* rhs, bool add,
                  const TensorView& out) {
  WEFT_DTYPE_SWITCH(out.dtype, T, {
    RowCtx<T> ctx{lhs.ptr<T>(), static_cast<const T*>(rhs), out.ptr<T>(), plan.lstride.back(),
                  plan.rstride.back(), add};
    RunBroadcastRows(plan, Op::kCost, &BinaryRow<T, Op>, &ctx);
  })
}

void BinaryDispatch(BinaryKind kind, const BroadcastPlan& plan, const TensorView& lhs, const void* rhs,
                    OpReq req, const TensorView& out) {
  if (req == OpReq::kNull) return;
  const bool add = req == OpReq::kAddTo;
  switch (kind) {
    case BinaryKind::kAdd: return BinaryLaunch<OpAdd>(plan, lhs, rhs, add, out);
    case BinaryKind::kSub: return BinaryLaunch<OpSub>(plan, lhs, rhs, add, out);
    case BinaryKind::kMul: return BinaryLaunch<OpMul>(plan, lhs, rhs, add, out);
    case BinaryKind::kDiv: return BinaryLaunch<OpDiv>(plan, lhs, rhs, add, out);
    case BinaryKind::kPow: return BinaryLaunch<OpPow>(plan, lhs, rhs, add, out);
    case BinaryKind::kMax: return BinaryLaunch<OpMax>(plan, lhs, rhs, add, out);
    case BinaryKind::kMin: return BinaryLaunch<OpMin>(plan, lhs, rhs, add, out);
    case BinaryKind::kMod: return BinaryLaunch<OpMod>(plan, lhs, rhs, add, out);
    case BinaryKind::kEq: return BinaryLaunch<OpEq>(plan, lhs, rhs, add, out);
    case BinaryKind::kNe: return BinaryLaunch<OpNe>(plan, lhs, rhs, add, out);
    case BinaryKind::kGt: return BinaryLaunch<OpGt>(plan, lhs, rhs, add, out);
    case BinaryKind::kGe: return BinaryLaunch<OpGe>(plan, lhs, rhs, add, out);
    case BinaryKind::kLt: return BinaryLaunch<OpLt>(plan, lhs, rhs, add, out);
    case BinaryKind::kLe: return BinaryLaunch<OpLe>(plan, lhs, rhs, add, out);
  }
  WEFT_THROW(kInternal) << "unknown binary kernel " << static_cast<int>(kind);
}

}  // namespace

void BinaryKernel(BinaryKind kind, const TensorView& lhs, const TensorView& rhs, OpReq req,
                  const TensorView& out) {
  BinaryDispatch(kind, FlatPlan(out.Size(), 1, 1), lhs, rhs.data, req, out);
}

void BinaryScalarKernel(BinaryKind kind, const TensorView& in, double scalar, bool scalar_on_left,
                        OpReq req, const TensorView& out) {
  // MXNet converts the scalar to the input dtype first: DType(scalar).
  alignas(8) unsigned char sv[8];
  WEFT_DTYPE_SWITCH(in.dtype, T, { *reinterpret_cast<T*>(sv) = ToStorage<T>(scalar); })
  if (scalar_on_left) {
    TensorView s{sv, in.dtype, Shape{}};
    BinaryDispatch(kind, FlatPlan(out.Size(), 0, 1), s, in.data, req, out);
  } else {
    BinaryDispatch(kind, FlatPlan(out.Size(), 1, 0), in, sv, req, out);
  }
}

// Note [Elementwise blocks] in elemwise_kernels.h.
namespace {
template <typename Op>
void BinaryBlockOf(DType dtype, const void* a, int64_t sa, const void* b, int64_t sb, void* o, int64_t n) {
  WEFT_DTYPE_SWITCH(dtype, T, {
    BinaryWrite<T, Op>(static_cast<const T*>(a), sa, static_cast<const T*>(b), sb, static_cast<T*>(o), n);
  })
}
}  // namespace

void BinaryBlock(BinaryKind kind, DType dtype, const void* lhs, int64_t lstride, const void* rhs, int64_t rstride,
                 void* out, int64_t n) {
  switch (kind) {
    case BinaryKind::kAdd: return BinaryBlockOf<OpAdd>(dtype, lhs, lstride, rhs, rstride, out, n);
    case BinaryKind::kSub: return BinaryBlockOf<OpSub>(dtype, lhs, lstride, rhs, rstride, out, n);
    case BinaryKind::kMul: return BinaryBlockOf<OpMul>(dtype, lhs, lstride, rhs, rstride, out, n);
    case BinaryKind::kDiv: return BinaryBlockOf<OpDiv>(dtype, lhs, lstride, rhs, rstride, out, n);
    case BinaryKind::kPow: return BinaryBlockOf<OpPow>(dtype, lhs, lstride, rhs, rstride, out, n);
    case BinaryKind::kMax: return BinaryBlockOf<OpMax>(dtype, lhs, lstride, rhs, rstride, out, n);
    case BinaryKind::kMin: return BinaryBlockOf<OpMin>(dtype, lhs, lstride, rhs, rstride, out, n);
    case BinaryKind::kMod: return BinaryBlockOf<OpMod>(dtype, lhs, lstride, rhs, rstride, out, n);
    case BinaryKind::kEq: return BinaryBlockOf<OpEq>(dtype, lhs, lstride, rhs, rstride, out, n);
    case BinaryKind::kNe: return BinaryBlockOf<OpNe>(dtype, lhs, lstride, rhs, rstride, out, n);
    case BinaryKind::kGt: return BinaryBlockOf<OpGt>(dtype, lhs, lstride, rhs, rstride, out, n);
    case BinaryKind::kGe: return BinaryBlockOf<OpGe>(dtype, lhs, lstride, rhs, rstride, out, n);
    case BinaryKind::kLt: return BinaryBlockOf<OpLt>(dtype, lhs, lstride, rhs, rstride, out, n);
    case BinaryKind::kLe: return BinaryBlockOf<OpLe>(dtype, lhs, lstride, rhs, rstride, out, n);
  }
  WEFT_THROW(kInternal) << "unknown binary kernel " << static_cast<int>(kind);
}

void BroadcastBinaryKernel(BinaryKind kind, const TensorView& lhs, const TensorView& rhs, OpReq req,
                           const TensorView& out) {
  BinaryDispatch(kind, MakeBroadcastPlan(lhs.shape, rhs.shape, out.shape), lhs, rhs.data, req, out);
}

}  // namespace elemwise_cpu
}  // namespace weft
