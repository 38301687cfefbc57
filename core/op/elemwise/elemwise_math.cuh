// The numeric rules of the elementwise GPU kernels (included by the .cu files
// of core/op/<family>/*.cu): the arithmetic type of each dtype, the conversions back
// to storage, and the math of each UnaryKind / BinaryKind / Activation kind,
// as WEFT_HD functions switched on a runtime kind. The kinds' values are the
// CPU's own rules (Note [One elementwise rule] in elemwise_rules.h), so GPU
// and CPU results agree; only the last bits of transcendental float functions
// may differ (CUDA's libm).
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
#include "core/op/elemwise/elemwise_rules.h"
#include "core/op/common/gpu_kernel.h"

namespace weft {
namespace cuda {
namespace elem {

using elemwise_cpu::BinaryKind;
using elemwise_cpu::UnaryKind;

// Arithmetic type of a storage type: bool computes as uint8 0/1, the 16-bit
// floats as float (Note [16-bit floats on GPU] in common/half_hd.h).
template <typename T> struct AccOf { using type = T; };
template <> struct AccOf<bool> { using type = uint8_t; };
template <> struct AccOf<gpu_half> { using type = float; };
template <> struct AccOf<gpu_bf16> { using type = float; };
template <typename T> using Acc = typename AccOf<T>::type;

// Shared with the CPU kernels (Note [One elementwise rule] in elemwise_rules.h).
using elemwise_rules::FloatToInt;
using elemwise_rules::IntPow;
using elemwise_rules::kIsInt;
using elemwise_rules::WrapNeg;

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

// f(x) of the runtime kind: the kind's rule (elemwise_rules.h).
template <typename C>
WEFT_HD inline C UnaryOp(int kind, C x) {
  switch (static_cast<UnaryKind>(kind)) {
#define WEFT_UNARY_CASE(e, ...) \
  case UnaryKind::e:            \
    return elemwise_rules::Unary<UnaryKind::e>(x);
#define WEFT_UNARY_MATH_CASE(e, name, fluent, value, gradient, doc) WEFT_UNARY_CASE(e)
    WEFT_UNARY_EXACT_KINDS(WEFT_UNARY_CASE)
    WEFT_UNARY_MATH_OPS(WEFT_UNARY_MATH_CASE)
#undef WEFT_UNARY_MATH_CASE
#undef WEFT_UNARY_CASE
  }
  return x;
}

// ---- binary ----

// op(a, b) of the runtime kind: the kind's rule (elemwise_rules.h).
template <typename C>
WEFT_HD inline C BinaryOp(int kind, C a, C b) {
  switch (static_cast<BinaryKind>(kind)) {
#define WEFT_BINARY_CASE(e, name, cost) \
  case BinaryKind::e:                   \
    return elemwise_rules::Binary<BinaryKind::e>(a, b);
    WEFT_BINARY_KINDS(WEFT_BINARY_CASE)
#undef WEFT_BINARY_CASE
  }
  return a;
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

// sign(v): -1, 0 or 1 (0 for NaN), as the CPU kernels' sign.
template <typename A>
WEFT_HD inline A SignOf(A v) { return v > A(0) ? A(1) : v < A(0) ? A(-1) : A(0); }

}  // namespace elem
}  // namespace cuda
}  // namespace weft
