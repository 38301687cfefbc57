// The distributions of np.random.gumbel, logistic, rayleigh, weibull, pareto
// and power (MXNet 1.9.1's _npi_gumbel ... _npi_pareto, _npi_powerd,
// np_samplers.cc), written
// once for the CPU and the GPU kernels over the uniform sources of Note [One
// sampler rule] (sampler_rules.h).
//
// Note [Inverse-CDF samplers]
// Each is its distribution's inverse CDF at an open uniform u in (0, 1) (the
// source's 53-bit draw k / 2^53 shifted to (k + 1/2) / 2^53, so no logarithm
// sees 0 and no sample is infinite), NumPy's formulas:
//   gumbel(loc, scale)   loc - scale log(-log u)
//   logistic(loc, scale) loc + scale log(u / (1 - u))
//   rayleigh(scale)      scale sqrt(-2 log u)
//   weibull(a)           (-log u)^(1/a)   (0 for a = 0, as NumPy)
//   pareto(a)            u^(-1/a) - 1     (Pareto II / Lomax, as NumPy and MXNet)
//   power(a)             u^(1/a)          (density a x^(a-1) on [0, 1], a > 0)
//   bernoulli(p)         1 if the source's draw in [0, 1) is below p, else 0 (p is
//                        prob, or sigmoid(logit) with is_logit)
#pragma once
#include <cmath>
#include <cstdint>

#include "core/op/common/hd.h"
#include "core/opdef/params.h"

namespace weft {
namespace sampler {

enum class NpDist : int { kGumbel, kLogistic, kRayleigh, kWeibull, kPareto, kPower, kBernoulli };

struct NpDistParams {
  NpDist d = NpDist::kGumbel;
  double a = 0, b = 1;  // (loc, scale), (scale), (a) or (p)
};

// The op's distribution and scalar parameters; throws kInvalidArgument naming
// the op and parameter for a parameter read from an array (None) or out of
// range. Host code (np_samplers.cc).
NpDistParams NpDistOf(const Params& p);

template <typename Src>
WEFT_HD inline double NpDraw(const NpDistParams& p, Src& s) {
  if (p.d == NpDist::kBernoulli) return s.Next() < p.a ? 1.0 : 0.0;
  const double u = (s.Next() * 9007199254740992.0 + 0.5) * (1.0 / 9007199254740992.0);
  switch (p.d) {
    case NpDist::kGumbel: return p.a - p.b * std::log(-std::log(u));
    case NpDist::kLogistic: return p.a + p.b * std::log(u / (1.0 - u));
    case NpDist::kRayleigh: return p.a * std::sqrt(-2.0 * std::log(u));
    case NpDist::kWeibull: return p.a == 0.0 ? 0.0 : std::pow(-std::log(u), 1.0 / p.a);
    case NpDist::kPareto: return std::pow(u, -1.0 / p.a) - 1.0;
    case NpDist::kPower: return std::pow(u, 1.0 / p.a);
    case NpDist::kBernoulli: break;
  }
  return 0.0;
}

}  // namespace sampler
}  // namespace weft
