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
//   exponential(scale)   -scale log u
//   normal(loc, scale)   loc + scale sqrt(-2 log u) cos(2 pi v)   (Box-Muller, a
//                        second uniform v from the source)
//   uniform(low, high)   low + (high - low) w, w the source's draw in [0, 1)
// (normal, uniform and exponential are here for their array parameters; Note
// [Sampler parameters from arrays]).
//   bernoulli(p)         1 if the source's draw in [0, 1) is below p, else 0 (p is
//                        prob, or sigmoid(logit) with is_logit)
#pragma once
#include <cmath>
#include <cstdint>
#include <vector>

#include "core/op/common/hd.h"
#include "core/op/random/sampler_rules.h"
#include "core/opdef/params.h"
#include "core/opdef/tensor_view.h"

namespace weft {
namespace sampler {

enum class NpDist : int { kGumbel, kLogistic, kRayleigh, kWeibull, kPareto, kPower, kBernoulli, kNormal, kUniform,
                          kExponential, kGamma };

struct NpDistParams {
  NpDist d = NpDist::kGumbel;
  double a = 0, b = 1;  // (loc, scale), (scale), (a), (p) or gamma's (shape, scale)
  bool logit = false;   // bernoulli with an array of log-odds: a is one, its sigmoid the probability
};

// The op's distribution and scalar parameters; throws kInvalidArgument naming
// the op and parameter for a scalar out of range. A parameter given as an
// array (None: Note [Sampler parameters from arrays]) keeps its default here.
// Host code (np_samplers.cc).
NpDistParams NpDistOf(const Params& p);

// Note [Sampler parameters from arrays]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// MXNet takes each parameter as a number or, when the parameter is None, as
// an input array (np.random.gumbel(loc=array, scale=2.0)); the op's inputs
// are those arrays in parameter order. They broadcast as NumPy's: to `size`
// when it is given (each must broadcast to it; MXNet 1.9.1 does not check,
// NumPy raises), else to one another, the output's shape. Element i of the
// output draws with the parameters at i's broadcast position, read as
// float32 or float64 (the dtypes type inference admits). Their values are
// checked on the host before any draw, as the scalars are (the GPU kernel
// copies them there), and one out of range is refused naming the parameter.
constexpr int kNpSamplerMaxDims = 8;

struct NpParamArrays {
  int n = 0;                    // array parameters: 0, 1 or 2
  int slot[2] = {0, 1};         // each sets NpDistParams::a (0) or b (1)
  bool f64[2] = {false, false}; // float64, else float32
  const void* data[2] = {nullptr, nullptr};
  int nd = 0;  // the output's dims, each array's element strides along them (0: broadcast)
  int64_t dims[kNpSamplerMaxDims] = {};
  int64_t strides[2][kNpSamplerMaxDims] = {};
};

// The op's array parameters over its inputs `in` (device or host views) for an
// output of shape `out`. Host code (np_samplers.cc).
NpParamArrays NpArraysOf(const Params& p, const std::vector<TensorView>& in, const Shape& out);

// Throws kInvalidArgument naming the op and parameter when an element of an
// array parameter (`in`: host views) is out of range. Host code.
void CheckNpArrayParams(const Params& p, const std::vector<TensorView>& in);

// The parameters of output element i.
WEFT_HD inline NpDistParams NpParamsAt(const NpDistParams& d, const NpParamArrays& arr, int64_t i) {
  NpDistParams e = d;
  for (int k = 0; k < arr.n; ++k) {
    int64_t off = 0, rem = i;
    for (int j = arr.nd - 1; j >= 0; --j) {
      off += (rem % arr.dims[j]) * arr.strides[k][j];
      rem /= arr.dims[j];
    }
    const double v = arr.f64[k] ? static_cast<const double*>(arr.data[k])[off]
                                : static_cast<double>(static_cast<const float*>(arr.data[k])[off]);
    (arr.slot[k] == 0 ? e.a : e.b) = v;
  }
  if (e.logit) e.a = 1.0 / (1.0 + std::exp(-e.a));
  return e;
}

template <typename Src>
WEFT_HD inline double NpDraw(const NpDistParams& p, Src& s) {
  if (p.d == NpDist::kBernoulli) return s.Next() < p.a ? 1.0 : 0.0;
  if (p.d == NpDist::kUniform) return p.a + (p.b - p.a) * s.Next();
  // Marsaglia-Tsang, the legacy samplers' rule (sampler_rules.h): a rejection loop,
  // so its source must give any number of uniforms
  if (p.d == NpDist::kGamma) return Gamma(p.a, p.b, s);
  const double u = (s.Next() * 9007199254740992.0 + 0.5) * (1.0 / 9007199254740992.0);
  switch (p.d) {
    case NpDist::kGumbel: return p.a - p.b * std::log(-std::log(u));
    case NpDist::kLogistic: return p.a + p.b * std::log(u / (1.0 - u));
    case NpDist::kRayleigh: return p.a * std::sqrt(-2.0 * std::log(u));
    case NpDist::kWeibull: return p.a == 0.0 ? 0.0 : std::pow(-std::log(u), 1.0 / p.a);
    case NpDist::kPareto: return std::pow(u, -1.0 / p.a) - 1.0;
    case NpDist::kPower: return std::pow(u, 1.0 / p.a);
    case NpDist::kExponential: return -p.a * std::log(u);
    case NpDist::kNormal: return p.a + p.b * std::sqrt(-2.0 * std::log(u)) * std::cos(6.283185307179586 * s.Next());
    case NpDist::kBernoulli:
    case NpDist::kUniform:
    case NpDist::kGamma: break;
  }
  return 0.0;
}

}  // namespace sampler
}  // namespace weft
