// The numeric rules of the elementwise GPU kernels (included by the .cu files
// of core/op/<family>/*.cu): the arithmetic type of each dtype, the conversions back
// to storage, and the math of each UnaryKind / BinaryKind / Activation kind,
// as WEFT_HD functions switched on a runtime kind. They restate
// core/op/elemwise/elemwise_math.h and the CPU kernels' functors one for one (Note
// [Elementwise arithmetic types] and Note [Defined integer edge cases] in
// core/op/elemwise/elemwise_cpu.h), so GPU and CPU results agree; only the
// last bits of transcendental float functions may differ (CUDA's libm).
//
// Note [Elementwise GPU instantiations]
// One kernel per storage dtype with the op kind as a runtime switch inside
// the body (uniform across a launch, so it costs no divergence) keeps nvcc's
// work to 7 instantiations per family instead of 7 x (number of ops).
#pragma once
#include <cmath>
#include <cstdint>
#include <type_traits>

#include "core/op/elemwise/elemwise_cpu.h"
#include "core/op/common/gpu_kernel.h"

namespace weft {
namespace cuda {
namespace elem {

using elemwise_cpu::BinaryKind;
using elemwise_cpu::UnaryKind;

// Arithmetic type of a storage type: bool computes as uint8 0/1.
template <typename T> struct AccOf { using type = T; };
template <> struct AccOf<bool> { using type = uint8_t; };
template <typename T> using Acc = typename AccOf<T>::type;

template <typename C>
constexpr bool kIsInt = std::is_integral<C>::value;

// Float -> integer: NaN -> 0, truncate, clamp to int64, wrap to T's width.
template <typename T, typename F>
WEFT_HD inline T FloatToInt(F v) {
  if (!(v == v)) return T(0);
  int64_t i;
  if (v >= F(9.2233720368547758e18)) i = INT64_MAX;
  else if (v <= F(-9.2233720368547758e18)) i = INT64_MIN;
  else i = static_cast<int64_t>(v);
  return static_cast<T>(i);
}

// An arithmetic value (or a double parameter) in storage type T.
template <typename T, typename C>
WEFT_HD inline T ToStorage(C v) {
  if constexpr (std::is_same<T, bool>::value) {
    return v != C(0);
  } else if constexpr (std::is_integral<T>::value && std::is_floating_point<C>::value) {
    return FloatToInt<T>(v);
  } else {
    return static_cast<T>(v);
  }
}

template <typename C>
WEFT_HD inline C WrapNeg(C a) {
  using U = typename std::make_unsigned<C>::type;
  return static_cast<C>(static_cast<U>(U(0) - static_cast<U>(a)));
}

// a + b in storage type T as the CPU's Store(add=true): integers wrap, bool
// is `a || b`.
template <typename T>
WEFT_HD inline T AddWrap(T a, T b) {
  if constexpr (std::is_same<T, bool>::value) {
    return a || b;
  } else if constexpr (std::is_integral<T>::value) {
    using U = typename std::make_unsigned<T>::type;
    return static_cast<T>(static_cast<U>(static_cast<U>(a) + static_cast<U>(b)));
  } else {
    return static_cast<T>(a + b);
  }
}

// out[i] (req)= r; callers skip kNull.
template <typename T>
WEFT_HD inline void Put(T* out, int64_t i, OpReq req, T r) {
  out[i] = req == OpReq::kAddTo ? AddWrap(out[i], r) : r;
}

// ---- unary ----

template <typename C>
WEFT_HD inline C UnaryMath(int kind, C c) {
  // Transcendental functions of integers compute in float (Note [Elementwise
  // arithmetic types]); X is the type they compute in.
  using X = typename std::conditional<kIsInt<C>, float, C>::type;
  const X x = static_cast<X>(c);
  X r;
  switch (static_cast<UnaryKind>(kind)) {
    // The rows of Note [Unary math rows] (unary_ops.h), as on the CPU.
#define WEFT_UNARY_MATH_CASE(e, name, value, gradient, doc) \
  case UnaryKind::e:                                        \
    r = value;                                              \
    break;
    WEFT_UNARY_MATH_OPS(WEFT_UNARY_MATH_CASE)
#undef WEFT_UNARY_MATH_CASE
    default: r = x; break;  // UnaryOp handles every other kind
  }
  if constexpr (kIsInt<C>) return FloatToInt<C>(r);
  else return r;
}

template <typename C>
WEFT_HD inline C UnaryOp(int kind, C x) {
  switch (static_cast<UnaryKind>(kind)) {
    case UnaryKind::kAbs:
      if constexpr (!kIsInt<C>) return std::fabs(x);
      else if constexpr (std::is_signed<C>::value) return x < 0 ? WrapNeg(x) : x;
      else return x;
    case UnaryKind::kNegative:
      if constexpr (kIsInt<C>) return WrapNeg(x);
      else return -x;
    case UnaryKind::kSquare:
      if constexpr (kIsInt<C>) {
        using U = typename std::make_unsigned<C>::type;
        return static_cast<C>(static_cast<U>(static_cast<U>(x) * static_cast<U>(x)));
      } else {
        return x * x;
      }
    case UnaryKind::kRelu: return (x > C(0) || x != x) ? x : C(0);  // NaN stays NaN
    case UnaryKind::kSign:
      if constexpr (std::is_unsigned<C>::value) return static_cast<C>(x > C(0) ? 1 : 0);
      else return static_cast<C>((C(0) < x) - (x < C(0)));
    case UnaryKind::kFloor:
      if constexpr (kIsInt<C>) return x;
      else return std::floor(x);
    case UnaryKind::kCeil:
      if constexpr (kIsInt<C>) return x;
      else return std::ceil(x);
    case UnaryKind::kRound:  // half away from zero, like MXNet's round
      if constexpr (kIsInt<C>) return x;
      else return std::round(x);
    case UnaryKind::kReciprocal:  // integer 1/0 gives 0
      if constexpr (kIsInt<C>) return x == C(0) ? C(0) : static_cast<C>(C(1) / x);
      else return C(1) / x;
    default: return UnaryMath(kind, x);
  }
}

// ---- binary ----

// Integer a ** b as the CPU computes it: FloatToInt(std::pow(double(a),
// double(b))). glibc's pow returns a representable result exactly, but CUDA's
// double pow is only documented within 2 ulp, so on a device an exact power
// such as 3 ** 4 could come back as 80.99999999999999 and truncate to 80 (the
// emulated build runs glibc and cannot show it). So powers with b >= 0 whose
// value stays below 2^53 in magnitude -- the ones pow must return exactly --
// are multiplied out exactly; the rest (fractions, huge values) keep pow.
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

template <typename C>
WEFT_HD inline C BinaryOp(int kind, C a, C b) {
  using U = typename std::make_unsigned<typename std::conditional<kIsInt<C>, C, int>::type>::type;
  switch (static_cast<BinaryKind>(kind)) {
    case BinaryKind::kAdd:
      if constexpr (kIsInt<C>) return static_cast<C>(static_cast<U>(static_cast<U>(a) + static_cast<U>(b)));
      else return a + b;
    case BinaryKind::kSub:
      if constexpr (kIsInt<C>) return static_cast<C>(static_cast<U>(static_cast<U>(a) - static_cast<U>(b)));
      else return a - b;
    case BinaryKind::kMul:
      if constexpr (kIsInt<C>) return static_cast<C>(static_cast<U>(static_cast<U>(a) * static_cast<U>(b)));
      else return a * b;
    case BinaryKind::kDiv:  // integers: x / 0 -> 0, INT_MIN / -1 -> INT_MIN
      if constexpr (kIsInt<C>) {
        if (b == C(0)) return C(0);
        if constexpr (std::is_signed<C>::value) {
          if (b == C(-1)) return WrapNeg(a);
        }
        return static_cast<C>(a / b);
      } else {
        return a / b;
      }
    case BinaryKind::kPow:  // integers: pow in double, then the float -> integer rule (IntPow)
      if constexpr (kIsInt<C>) return IntPow(a, b);
      else return std::pow(a, b);
    case BinaryKind::kMax: return (a > b || a != a) ? a : b;  // NaN propagates
    case BinaryKind::kMin: return (a < b || a != a) ? a : b;
    case BinaryKind::kMod: {  // x mod 0 -> 0; the sign of the divisor
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
    case BinaryKind::kEq: return static_cast<C>(a == b ? 1 : 0);
    case BinaryKind::kNe: return static_cast<C>(a != b ? 1 : 0);
    case BinaryKind::kGt: return static_cast<C>(a > b ? 1 : 0);
    case BinaryKind::kGe: return static_cast<C>(a >= b ? 1 : 0);
    case BinaryKind::kLt: return static_cast<C>(a < b ? 1 : 0);
    default: return static_cast<C>(a <= b ? 1 : 0);  // kLe
  }
}

// ---- Activation (nnx_cpu::ActKind; floating types, computed in A) ----

// The values of nnx_cpu::ActKind (core/op/act/activation_cpu.h), which the
// fused programs carry as ints.
enum ActCode : int { kActReLU, kActSigmoid, kActLogSigmoid, kActMish, kActTanh, kActSoftReLU, kActSoftSign };

template <typename A>
WEFT_HD inline A SoftRelu(A x) { return x > A(20) ? x : std::log1p(std::exp(x)); }
template <typename A>
WEFT_HD inline A Sigmoid(A x) { return A(1) / (A(1) + std::exp(-x)); }

template <typename A>
WEFT_HD inline A ActForward(int kind, A v) {
  switch (kind) {
    case kActReLU: return v < A(0) ? A(0) : v;  // std::max(v, 0): NaN stays NaN
    case kActSigmoid: return Sigmoid(v);
    case kActLogSigmoid: return v < A(0) ? v - std::log1p(std::exp(v)) : -std::log1p(std::exp(-v));
    case kActMish: return v * std::tanh(SoftRelu(v));
    case kActTanh: return std::tanh(v);
    case kActSoftReLU: return SoftRelu(v);
    default: return v / (A(1) + std::fabs(v));  // kActSoftSign
  }
}

// gx for gy = g, output o, input v (softsign and mish read v; others o).
template <typename A>
WEFT_HD inline A ActBackward(int kind, A g, A o, A v) {
  switch (kind) {
    case kActReLU: return o > A(0) ? g : A(0);
    case kActSigmoid: return g * o * (A(1) - o);
    case kActLogSigmoid: return g * (A(1) - std::exp(o));
    case kActTanh: return g * (A(1) - o * o);
    case kActSoftReLU: return g * -std::expm1(-o);
    case kActSoftSign: {
      const A d = A(1) + std::fabs(v);
      return g / (d * d);
    }
    default: {  // kActMish
      const A t = std::tanh(SoftRelu(v));
      return g * (t + v * (A(1) - t * t) * Sigmoid(v));
    }
  }
}

}  // namespace elem
}  // namespace cuda
}  // namespace weft
