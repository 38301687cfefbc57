// The numeric rules of the elementwise kinds, written once for the CPU kernels
// (elemwise_cpu.cc, binary_cpu.cc, through elemwise_math.h) and the GPU
// kernels (elemwise_math.cuh).
//
// Note [One elementwise rule]
// Each kind's value is a WEFT_HD template over the compute type C (Acc<T>:
// float for the 16-bit floats, uint8 for bool, the type itself otherwise),
// selected at compile time by the kind. The CPU instantiates one loop per kind
// (so each vectorises), the GPU switches on the kind inside one kernel per
// dtype (Note [Elementwise GPU instantiations]); both call the same function,
// so the two devices cannot drift apart. The rules are MXNet's: Note
// [Elementwise arithmetic types] and Note [Defined integer edge cases] in
// elemwise_cpu.h.
#pragma once
#include <cmath>
#include <cstdint>
#include <type_traits>

#include "core/op/common/hd.h"
#include "core/op/elemwise/elemwise_cpu.h"
#include "core/op/elemwise/special_math.h"

namespace weft {
namespace elemwise_rules {

using elemwise_cpu::BinaryKind;
using elemwise_cpu::UnaryKind;

template <typename C>
constexpr bool kIsInt = std::is_integral<C>::value;

// Float -> integer without undefined behaviour: NaN -> 0, truncate, clamp to
// int64, wrap to T's width.
template <typename T, typename F>
WEFT_HD inline T FloatToInt(F v) {
  if (!(v == v)) return T(0);
  int64_t i;
  if (v >= F(9.2233720368547758e18)) i = INT64_MAX;
  else if (v <= F(-9.2233720368547758e18)) i = INT64_MIN;
  else i = static_cast<int64_t>(v);
  return static_cast<T>(i);
}

// Integer negation that wraps instead of overflowing (INT_MIN stays INT_MIN).
template <typename C>
WEFT_HD inline C WrapNeg(C a) {
  using U = typename std::make_unsigned<C>::type;
  return static_cast<C>(static_cast<U>(U(0) - static_cast<U>(a)));
}

// Integer ** : pow in double, then the float -> integer rule. double pow is
// only documented within 2 ulp (a device's is), so an exact power such as
// 3 ** 4 could come back as 80.99999999999999 and truncate to 80. Powers with
// b >= 0 whose value stays below 2^53 in magnitude -- the ones pow must return
// exactly -- are multiplied out exactly; the rest (fractions, huge values)
// keep pow.
template <typename C>
WEFT_HD inline C IntPow(C a, C b) {
  const double x = static_cast<double>(a);
  bool exact_path = true;
  if constexpr (std::is_signed<C>::value) exact_path = b >= C(0);
  if (exact_path) {
    constexpr double kExact = 9007199254740992.0;  // 2^53
    if (b == C(0)) return C(1);  // pow(x, 0) == 1
    if (x == 0.0 || x == 1.0) return static_cast<C>(a);
    // double(b) is even from 2^53 on, whatever b's parity.
    if (x == -1.0) return b % C(2) == C(0) || static_cast<double>(b) >= kExact ? C(1) : static_cast<C>(a);
    // |x| >= 2 from here, so at most 53 multiplications before the bound.
    double r = x;
    C k = static_cast<C>(b - C(1));  // multiplications left
    while (k > C(0) && r < kExact && r > -kExact) {
      r *= x;  // exact while the true product is below 2^53
      k = static_cast<C>(k - C(1));
    }
    if (k == C(0) && (b == C(1) || (r < kExact && r > -kExact))) return FloatToInt<C>(r);
  }
  return FloatToInt<C>(std::pow(x, static_cast<double>(b)));
}

// op(a, b) of binary kind K. Integer add, sub and mul wrap (computed unsigned).
template <BinaryKind K, typename C>
WEFT_HD inline C Binary(C a, C b) {
  using U = typename std::make_unsigned<typename std::conditional<kIsInt<C>, C, int>::type>::type;
  if constexpr (K == BinaryKind::kAdd) {
    if constexpr (kIsInt<C>) return static_cast<C>(static_cast<U>(static_cast<U>(a) + static_cast<U>(b)));
    else return a + b;
  } else if constexpr (K == BinaryKind::kSub) {
    if constexpr (kIsInt<C>) return static_cast<C>(static_cast<U>(static_cast<U>(a) - static_cast<U>(b)));
    else return a - b;
  } else if constexpr (K == BinaryKind::kMul) {
    if constexpr (kIsInt<C>) return static_cast<C>(static_cast<U>(static_cast<U>(a) * static_cast<U>(b)));
    else return a * b;
  } else if constexpr (K == BinaryKind::kDiv) {  // integers: x / 0 -> 0, INT_MIN / -1 -> INT_MIN
    if constexpr (kIsInt<C>) {
      if (b == C(0)) return C(0);
      if constexpr (std::is_signed<C>::value) {
        if (b == C(-1)) return WrapNeg(a);
      }
      return static_cast<C>(a / b);
    } else {
      return a / b;
    }
  } else if constexpr (K == BinaryKind::kPow) {
    if constexpr (kIsInt<C>) return IntPow(a, b);
    else return std::pow(a, b);
  } else if constexpr (K == BinaryKind::kMax) {
    return (a > b || a != a) ? a : b;  // NaN propagates (NumPy's maximum)
  } else if constexpr (K == BinaryKind::kMin) {
    return (a < b || a != a) ? a : b;
  } else if constexpr (K == BinaryKind::kMod) {  // MXNet's mod: x mod 0 -> 0; the sign of the divisor
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
  } else if constexpr (K == BinaryKind::kEq) {
    return static_cast<C>(a == b ? 1 : 0);
  } else if constexpr (K == BinaryKind::kNe) {
    return static_cast<C>(a != b ? 1 : 0);
  } else if constexpr (K == BinaryKind::kGt) {
    return static_cast<C>(a > b ? 1 : 0);
  } else if constexpr (K == BinaryKind::kGe) {
    return static_cast<C>(a >= b ? 1 : 0);
  } else if constexpr (K == BinaryKind::kLt) {
    return static_cast<C>(a < b ? 1 : 0);
  } else if constexpr (K == BinaryKind::kLe) {
    return static_cast<C>(a <= b ? 1 : 0);
  } else if constexpr (K == BinaryKind::kLogicalAnd) {  // MXNet's logical ops: 1/0 in the input dtype
    return static_cast<C>((a != C(0) && b != C(0)) ? 1 : 0);
  } else if constexpr (K == BinaryKind::kLogicalOr) {
    return static_cast<C>((a != C(0) || b != C(0)) ? 1 : 0);
  } else if constexpr (K == BinaryKind::kLogicalXor) {
    return static_cast<C>(((a != C(0)) != (b != C(0))) ? 1 : 0);
  } else if constexpr (K == BinaryKind::kHypot) {  // integers: float math, truncated (MXNet's math::hypot)
    if constexpr (kIsInt<C>) return FloatToInt<C>(std::hypot(static_cast<float>(a), static_cast<float>(b)));
    else return std::hypot(a, b);
  } else {
    // The gamma gradients (_backward_gamma, _backward_gammaln): a is the output
    // gradient, b the input; gamma' = gamma psi, gammaln' = psi (Note [digamma]).
    static_assert(K == BinaryKind::kGammaGrad || K == BinaryKind::kGammalnGrad, "a binary kind without a rule");
    using X = typename std::conditional<kIsInt<C>, float, C>::type;
    const X x = static_cast<X>(b);
    X d = special::Digamma(x);
    if constexpr (K == BinaryKind::kGammaGrad) d *= std::tgamma(x);
    const X r = static_cast<X>(a) * d;
    if constexpr (kIsInt<C>) return FloatToInt<C>(r);
    else return r;
  }
}

// f(x) of unary kind K: the exact kinds here, the math kinds from their rows
// (Note [Unary math rows]: float math for integer inputs, truncated back).
template <UnaryKind K, typename C>
WEFT_HD inline C Unary(C x) {
  if constexpr (K == UnaryKind::kAbs) {
    if constexpr (!kIsInt<C>) return std::fabs(x);
    else if constexpr (std::is_signed<C>::value) return x < 0 ? WrapNeg(x) : x;
    else return x;
  } else if constexpr (K == UnaryKind::kNegative) {
    if constexpr (kIsInt<C>) return WrapNeg(x);
    else return -x;
  } else if constexpr (K == UnaryKind::kSquare) {
    if constexpr (kIsInt<C>) {
      using U = typename std::make_unsigned<C>::type;
      return static_cast<C>(static_cast<U>(static_cast<U>(x) * static_cast<U>(x)));
    } else {
      return x * x;
    }
  } else if constexpr (K == UnaryKind::kRelu) {
    return (x > C(0) || x != x) ? x : C(0);  // NaN stays NaN, as MXNet's relu
  } else if constexpr (K == UnaryKind::kSign) {
    if constexpr (std::is_unsigned<C>::value) return static_cast<C>(x > C(0) ? 1 : 0);
    else return static_cast<C>((C(0) < x) - (x < C(0)));
  } else if constexpr (K == UnaryKind::kFloor) {
    if constexpr (kIsInt<C>) return x;
    else return std::floor(x);
  } else if constexpr (K == UnaryKind::kCeil) {
    if constexpr (kIsInt<C>) return x;
    else return std::ceil(x);
  } else if constexpr (K == UnaryKind::kRound) {  // half away from zero, like MXNet's round (not NumPy's rint)
    if constexpr (kIsInt<C>) return x;
    else return std::round(x);
  } else if constexpr (K == UnaryKind::kReciprocal) {  // integer 1/0 gives 0
    if constexpr (kIsInt<C>) return x == C(0) ? C(0) : static_cast<C>(C(1) / x);
    else return C(1) / x;
  } else if constexpr (K == UnaryKind::kRint) {  // MXNet's rint: the nearer integer, halves to the floor
    if constexpr (kIsInt<C>) {
      return x;
    } else {
      const C f = std::floor(x), c = std::ceil(x);
      return (x - f) <= (c - x) ? f : c;
    }
  } else if constexpr (K == UnaryKind::kFix || K == UnaryKind::kTrunc) {  // toward zero
    if constexpr (kIsInt<C>) return x;
    else return std::trunc(x);
  } else if constexpr (K == UnaryKind::kLogicalNot) {
    return static_cast<C>(x == C(0) ? 1 : 0);
  } else if constexpr (K == UnaryKind::kIsNan) {  // 1/0 in the input dtype; integers are never NaN
    if constexpr (kIsInt<C>) return C(0);
    else return static_cast<C>(x != x ? 1 : 0);
  } else if constexpr (K == UnaryKind::kIsInf) {
    if constexpr (kIsInt<C>) return C(0);
    else return static_cast<C>((x == C(INFINITY) || x == C(-INFINITY)) ? 1 : 0);
  } else if constexpr (K == UnaryKind::kIsFinite) {
    if constexpr (kIsInt<C>) return C(1);
    else return static_cast<C>((x == x && x != C(INFINITY) && x != C(-INFINITY)) ? 1 : 0);
  } else {
    using X = typename std::conditional<kIsInt<C>, float, C>::type;
    const X v = static_cast<X>(x);
    X r = v;
#define WEFT_UNARY_MATH_RULE(e, name, fluent, value, gradient, doc) \
  if constexpr (K == UnaryKind::e) {                        \
    const X x = v;                                          \
    r = value;                                              \
  }
    WEFT_UNARY_MATH_OPS(WEFT_UNARY_MATH_RULE)
#undef WEFT_UNARY_MATH_RULE
    if constexpr (kIsInt<C>) return FloatToInt<C>(r);
    else return r;
  }
}

// The work per element of a kind (Note [Elementwise kinds]), as a constant.
constexpr int UnaryCost(UnaryKind k) {
  switch (k) {
#define WEFT_UNARY_COST(e, name, cost) \
  case UnaryKind::e:                   \
    return cost;
    WEFT_UNARY_EXACT_KINDS(WEFT_UNARY_COST)
#undef WEFT_UNARY_COST
    default: return 8;  // the math rows
  }
}
constexpr int BinaryCost(BinaryKind k) {
  switch (k) {
#define WEFT_BINARY_COST(e, name, cost) \
  case BinaryKind::e:                   \
    return cost;
    WEFT_BINARY_KINDS(WEFT_BINARY_COST)
#undef WEFT_BINARY_COST
  }
  return 1;
}

}  // namespace elemwise_rules
}  // namespace weft
