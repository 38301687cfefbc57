// Special functions without a std:: (or CUDA device library) twin, used by the
// unary math rows (erfinv; Note [Unary math rows]) and the gamma gradients
// (digamma): WEFT_HD so the CPU kernels and the GPU kernels run the same code.
#pragma once
#include <cmath>

#include "core/op/common/hd.h"

namespace weft {
namespace special {

// Note [erfinv]
// The inverse error function on [-1, 1]: M. Giles' single-precision
// approximation ("Approximating the erfinv function", GPU Computing Gems,
// 2011; about 4e-7 relative error near 0, less deep in the tails), then three Newton steps on erf(y) = |x|
// (on erfc(y) = 1 - |x| for |x| > 0.5, so the tails keep their accuracy),
// which bring float64 to its last bits. erfinv(+-1) = +-inf; |x| > 1 and NaN
// give NaN.
template <typename X>
WEFT_HD inline X Erfinv(X x) {
  if (!(x >= X(-1) && x <= X(1))) return X(NAN);
  if (x == X(1)) return X(INFINITY);
  if (x == X(-1)) return X(-INFINITY);
  X w = -std::log((X(1) - x) * (X(1) + x));
  X p;
  if (w < X(5)) {
    w = w - X(2.5);
    p = X(2.81022636e-08);
    p = X(3.43273939e-07) + p * w;
    p = X(-3.5233877e-06) + p * w;
    p = X(-4.39150654e-06) + p * w;
    p = X(0.00021858087) + p * w;
    p = X(-0.00125372503) + p * w;
    p = X(-0.00417768164) + p * w;
    p = X(0.246640727) + p * w;
    p = X(1.50140941) + p * w;
  } else {
    w = std::sqrt(w) - X(3);
    p = X(-0.000200214257);
    p = X(0.000100950558) + p * w;
    p = X(0.00134934322) + p * w;
    p = X(-0.00367342844) + p * w;
    p = X(0.00573950773) + p * w;
    p = X(-0.0076224613) + p * w;
    p = X(0.00943887047) + p * w;
    p = X(1.00167406) + p * w;
    p = X(2.83297682) + p * w;
  }
  // Newton on |y|: erf(y) = a near 0, erfc(y) = 1 - a in the tails (1 - a is
  // exact there, and erfc keeps its relative accuracy where erf(y) - a would
  // cancel).
  const X a = std::fabs(x);
  X y = std::fabs(p * x);
  const X two_over_sqrt_pi = X(1.1283791670955126);
  for (int step = 0; step < 3; ++step) {
    const X d = two_over_sqrt_pi * std::exp(-y * y);
    if (!(d > X(0))) break;  // deep in the tails: the approximation is all there is
    if (a <= X(0.5)) y -= (std::erf(y) - a) / d;
    else y += (std::erfc(y) - (X(1) - a)) / d;
  }
  return x < X(0) ? -y : y;
}

// Note [digamma]
// psi(x) = d/dx log(gamma(x)). Reflection psi(x) = psi(1 - x) - pi / tan(pi x)
// for x < 0.5, the recurrence psi(x) = psi(x + 1) - 1/x up to x >= 10, then the
// asymptotic series ln x - 1/(2x) - sum B_2k / (2k x^2k) to x^-12 (truncation
// below 1e-14 relative at x >= 10). Poles (0, -1, -2, ...) give NaN.
template <typename X>
WEFT_HD inline X Digamma(X x) {
  if (x != x) return x;
  X result = X(0);
  if (x <= X(0) && x == std::floor(x)) return X(NAN);
  if (x < X(0.5)) {
    const X pi = X(3.14159265358979323846);
    result = -pi / std::tan(pi * x);
    x = X(1) - x;
  }
  while (x < X(10)) {
    result -= X(1) / x;
    x += X(1);
  }
  const X f = X(1) / (x * x);
  const X series =
      f * (X(1.0 / 12) - f * (X(1.0 / 120) - f * (X(1.0 / 252) - f * (X(1.0 / 240) - f * (X(1.0 / 132))))));
  return result + std::log(x) - X(0.5) / x - series;
}

}  // namespace special
}  // namespace weft
