// The distributions of the samplers (_random_<d>, _random_<d>_like, _sample_<d>;
// core/op/random/sample_ops.cc), written once for the CPU and the GPU kernels.
//
// Note [One sampler rule]
// Each rule turns uniform draws from a source into one sample. The source is
// the only thing that differs: on the CPU it reads the device's
// std::mt19937_64 in element order (so weft.random.seed(n) fixes every value),
// on the GPU it is Philox-4x32-10 keyed by the op's seed with counter
// (element, attempt) (Note [GPU random draws] in gpu_random.cuh). A source has
//   WEFT_HD double Next();   // uniform in [0, 1), 53 random bits
// The algorithms are MXNet's: Marsaglia-Tsang for the gamma (with the
// U^(1/alpha) boost below alpha = 1), multiplication of uniforms for a Poisson
// mean below 12 and the Cauchy-envelope rejection above, the negative binomials
// as gamma-mixed Poissons.
#pragma once
#include <cmath>
#include <cstdint>

#include "core/op/common/hd.h"

namespace weft {
namespace sampler {

enum class Dist : int { kUniform, kNormal, kExponential, kGamma, kPoisson, kNegBinomial, kGenNegBinomial };

template <typename Src>
WEFT_HD inline double StdNormal(Src& s) {
  const double two_pi = 6.283185307179586476925286766559;
  const double u1 = 1.0 - s.Next();  // (0, 1]: the log stays finite
  const double u2 = s.Next();
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(two_pi * u2);
}

// Gamma with shape a and scale b (0 for a <= 0, as MXNet).
template <typename Src>
WEFT_HD inline double Gamma(double a, double b, Src& s) {
  if (!(a > 0)) return 0.0;
  double boost = 1.0;
  if (a < 1.0) {
    boost = std::pow(1.0 - s.Next(), 1.0 / a);
    a += 1.0;
  }
  const double d = a - 1.0 / 3.0, c = 1.0 / std::sqrt(9.0 * d);
  double v = 0.0;
  for (;;) {
    double x = 0.0;
    do {
      x = StdNormal(s);
      v = 1.0 + c * x;
    } while (v <= 0.0);
    v = v * v * v;
    const double u = 1.0 - s.Next();
    if (u < 1.0 - 0.0331 * x * x * x * x) break;
    if (std::log(u) < 0.5 * x * x + d * (1.0 - v + std::log(v))) break;
  }
  return d * v * b * boost;
}

template <typename Src>
WEFT_HD inline double Poisson(double lam, Src& s) {
  if (!(lam > 0)) return 0.0;
  if (lam > 1.7976931348623157e308) return lam;  // an infinite mean (a negative binomial with p = 0)
  if (lam < 12.0) {
    const double limit = std::exp(-lam);
    double prod = s.Next();
    int64_t k = 0;
    while (prod > limit) {
      ++k;
      prod *= s.Next();
    }
    return static_cast<double>(k);
  }
  const double pi = 3.14159265358979323846;
  const double sq = std::sqrt(2.0 * lam), log_lam = std::log(lam);
  const double g = lam * log_lam - ::lgamma(lam + 1.0);
  for (;;) {
    double y = 0.0, em = -1.0;
    while (em < 0.0) {
      y = std::tan(pi * s.Next());
      em = sq * y + lam;
    }
    em = std::floor(em);
    const double t = 0.9 * (1.0 + y * y) * std::exp(em * log_lam - ::lgamma(em + 1.0) - g);
    if (s.Next() <= t) return em;
  }
}

// Whether (a, b) are parameters of d (the ranges of Violation in sample_ops_rules.h).
WEFT_HD inline bool Valid(Dist d, double a, double b) {
  switch (d) {
    case Dist::kUniform: return a <= b;
    case Dist::kNormal: return b >= 0;
    case Dist::kExponential: return a > 0;
    case Dist::kGamma: return a >= 0 && b > 0;
    case Dist::kPoisson: return a >= 0;
    case Dist::kNegBinomial: return a >= 0 && b >= 0 && b <= 1;  // p = 0: an infinite mean
    case Dist::kGenNegBinomial: return a >= 0 && b >= 0;
  }
  return false;
}

// One sample of `d` with parameters (a, b) (b unused by the one-parameter
// distributions). Parameter names as MXNet's: uniform (low, high), normal
// (loc, scale), exponential (lam: rate), gamma (alpha: shape, beta: scale),
// poisson (lam), negative binomial (k: failure limit, p: failure probability),
// generalized negative binomial (mu: mean, alpha: dispersion).
// NaN for invalid parameters: array-valued ones are only seen by the kernel,
// and a kernel that throws would leave its exception on the device generator's
// engine var, failing every later draw on the device.
template <typename Src>
WEFT_HD inline double Draw(Dist d, double a, double b, Src& s) {
  if (!Valid(d, a, b)) return 0.0 / 0.0;
  switch (d) {
    case Dist::kUniform: return a + (b - a) * s.Next();
    case Dist::kNormal: return a + b * StdNormal(s);
    case Dist::kExponential: return -std::log(1.0 - s.Next()) / a;
    case Dist::kGamma: return Gamma(a, b, s);
    case Dist::kPoisson: return Poisson(a, s);
    case Dist::kNegBinomial: return b >= 1.0 ? 0.0 : Poisson(Gamma(a, (1.0 - b) / b, s), s);
    case Dist::kGenNegBinomial: return b == 0.0 ? Poisson(a, s) : Poisson(Gamma(1.0 / b, a * b, s), s);
  }
  return 0.0;
}

// _sample_multinomial's draw from one distribution row[0, k) with uniform u:
// the first outcome whose cumulative probability (summed in double) exceeds u,
// else the last (both kernels: multinomial.cc, multinomial_shuffle.cu).
template <typename P>
WEFT_HD inline int64_t CategoricalOutcome(const P* row, int64_t k, double u) {
  double acc = 0;
  for (int64_t c = 0; c < k; ++c) {
    acc += static_cast<double>(row[c]);
    if (u < acc) return c;
  }
  return k - 1;
}

}  // namespace sampler
}  // namespace weft
