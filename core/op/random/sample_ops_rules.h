// What the CPU and GPU kernels of the samplers (core/op/random/sample_ops.cc)
// must agree on: the distributions' parameter names, their valid ranges, and
// where element i of the output takes its parameters from.
#pragma once
#include <cstdint>
#include <sstream>
#include <string>

#include "core/base/error.h"
#include "core/opdef/op_def.h"
#include "core/op/random/sampler_rules.h"

namespace weft {
namespace sampler {

// _random_<d> (parameters are attributes), _random_<d>_like (attributes, the
// shape of input `data`), _sample_<d> (parameters are input arrays).
enum class Form : int { kScalar, kLike, kArray };

struct DistInfo {
  Dist dist;
  const char* name;      // "gamma": _random_gamma, _sample_gamma, ...
  int nparams;           // 1 or 2
  const char* attr[2];   // attribute names of _random_<d> / _random_<d>_like
  const char* input[2];  // input names of _sample_<d>
};

inline const DistInfo& Info(Dist d) {
  static const DistInfo kInfo[] = {
      {Dist::kUniform, "uniform", 2, {"low", "high"}, {"low", "high"}},
      {Dist::kNormal, "normal", 2, {"loc", "scale"}, {"mu", "sigma"}},
      {Dist::kExponential, "exponential", 1, {"lam", nullptr}, {"lam", nullptr}},
      {Dist::kGamma, "gamma", 2, {"alpha", "beta"}, {"alpha", "beta"}},
      {Dist::kPoisson, "poisson", 1, {"lam", nullptr}, {"lam", nullptr}},
      {Dist::kNegBinomial, "negative_binomial", 2, {"k", "p"}, {"k", "p"}},
      {Dist::kGenNegBinomial, "generalized_negative_binomial", 2, {"mu", "alpha"}, {"mu", "alpha"}},
  };
  return kInfo[static_cast<int>(d)];
}

// Empty when (a, b) are valid parameters of d; else what is expected, naming
// the parameter with `names`.
inline std::string Violation(Dist d, double a, double b, const char* const names[2]) {
  if (Valid(d, a, b)) return "";
  std::ostringstream os;
  switch (d) {
    case Dist::kUniform:
      if (!(a <= b)) os << "'" << names[0] << "' (" << a << ") must be <= '" << names[1] << "' (" << b << ")";
      break;
    case Dist::kNormal:
      if (!(b >= 0)) os << "'" << names[1] << "' must be >= 0, got " << b;
      break;
    case Dist::kExponential:
      if (!(a > 0)) os << "'" << names[0] << "' must be > 0, got " << a;
      break;
    case Dist::kGamma:
      if (!(a >= 0)) os << "'" << names[0] << "' must be >= 0, got " << a;
      else if (!(b > 0)) os << "'" << names[1] << "' must be > 0, got " << b;
      break;
    case Dist::kPoisson:
      if (!(a >= 0)) os << "'" << names[0] << "' must be >= 0, got " << a;
      break;
    case Dist::kNegBinomial:
      if (!(a >= 0)) os << "'" << names[0] << "' must be >= 0, got " << a;
      else if (!(b >= 0 && b <= 1)) os << "'" << names[1] << "' must be in [0, 1], got " << b;
      break;
    case Dist::kGenNegBinomial:
      if (!(a >= 0)) os << "'" << names[0] << "' must be >= 0, got " << a;
      else if (!(b >= 0)) os << "'" << names[1] << "' must be >= 0, got " << b;
      break;
  }
  return os.str();
}

// A numeric attribute (float or int) of a sampler.
inline double AttrNumber(const Params& p, const char* name) {
  const ParamSpec* spec = p.op()->FindParam(name);
  return spec != nullptr && spec->type == ParamType::kInt ? static_cast<double>(p.GetInt(name)) : p.GetFloat(name);
}

// The attribute parameters of a _random_<d>(_like) call, checked.
inline void AttrParams(const Params& p, Dist d, double* a, double* b) {
  const DistInfo& info = Info(d);
  *a = AttrNumber(p, info.attr[0]);
  *b = info.nparams > 1 ? AttrNumber(p, info.attr[1]) : 0.0;
  const std::string bad = Violation(d, *a, *b, info.attr);
  WEFT_CHECK(bad.empty(), kInvalidArgument) << p.op()->name << ": parameter " << bad;
}

// Output elements per parameter set of a _sample_<d> call: the product of its
// `shape` attribute (output shape = parameter shape + shape).
inline int64_t SamplesPerParam(const Params& p) {
  int64_t n = 1;
  for (int64_t d : p.GetTuple("shape")) n *= d;
  return n;
}

}  // namespace sampler
}  // namespace weft
