// The densities of the _random_pdf_<d> ops and their gradients (core/op/random/pdf.cc),
// written once for the CPU and the GPU kernels, in double. The formulas are
// MXNet 1.9.1's (src/operator/random/pdf_op.h): note that its gamma density
// takes beta as a rate (x^(a-1) b^a e^(-b x) / Gamma(a)) while the gamma
// sampler takes it as a scale, and the negative binomials' p is the failure
// probability: P(x) = C(x + k - 1, x) p^k (1 - p)^x. The uniform density does
// not check the support.
#pragma once
#include <cmath>
#include <cstdint>

#include "core/op/common/hd.h"
#include "core/opdef/tensor_view.h"

namespace weft {
namespace pdf {

enum class Pdf : int { kUniform, kNormal, kGamma, kExponential, kPoisson, kNegBinomial, kGenNegBinomial, kDirichlet };

// digamma(x): the recurrence up to x >= 6, then the asymptotic series
// (reflection below 0).
WEFT_HD inline double Digamma(double x) {
  const double pi = 3.14159265358979323846;
  double r = 0.0;
  if (x <= 0.0) {
    if (std::floor(x) == x) return 0.0 / 0.0;
    r = -pi / std::tan(pi * x);
    x = 1.0 - x;
  }
  while (x < 6.0) {
    r -= 1.0 / x;
    x += 1.0;
  }
  const double f = 1.0 / (x * x);
  return r + std::log(x) - 0.5 / x -
         f * (1.0 / 12 - f * (1.0 / 120 - f * (1.0 / 252 - f * (1.0 / 240 - f * (1.0 / 132)))));
}

WEFT_HD inline double LogNegBinomial(double x, double k, double p) {
  return ::lgamma(x + k) - ::lgamma(x + 1.0) - ::lgamma(k) + k * std::log(p) + x * std::log(1.0 - p);
}

// log density of sample x under parameters (a, b) (b unused by one-parameter
// distributions; not the Dirichlet).
WEFT_HD inline double LogPdf(Pdf d, double x, double a, double b) {
  switch (d) {
    case Pdf::kUniform: return -std::log(b - a);
    case Pdf::kNormal: return -0.5 * (x - a) * (x - a) / (b * b) - std::log(2.5066282746310002 * b);
    case Pdf::kGamma: return a * std::log(b) + (a - 1.0) * std::log(x) - b * x - ::lgamma(a);
    case Pdf::kExponential: return std::log(a) - a * x;
    case Pdf::kPoisson: return x * std::log(a) - ::lgamma(x + 1.0) - a;
    case Pdf::kNegBinomial: return LogNegBinomial(x, a, b);
    case Pdf::kGenNegBinomial: return LogNegBinomial(x, 1.0 / b, 1.0 / (a * b + 1.0));
    case Pdf::kDirichlet: break;
  }
  return 0.0;
}

// d log density / d(x, a, b), as MXNet's (a zero sample gradient for the
// uniform and the discrete distributions).
WEFT_HD inline void LogPdfGrad(Pdf d, double x, double a, double b, double* gx, double* ga, double* gb) {
  *gx = 0.0;
  *ga = 0.0;
  *gb = 0.0;
  switch (d) {
    case Pdf::kUniform:
      *ga = 1.0 / (b - a);
      *gb = 1.0 / (a - b);
      break;
    case Pdf::kNormal:
      *ga = (x - a) / (b * b);
      *gb = ((x - a) * (x - a) - b * b) / (b * b * b);
      *gx = (a - x) / (b * b);
      break;
    case Pdf::kGamma:
      *ga = std::log(b) + std::log(x) - Digamma(a);
      *gb = a / b - x;
      *gx = (a - 1.0) / x - b;
      break;
    case Pdf::kExponential:
      *ga = 1.0 / a - x;
      *gx = -a;
      break;
    case Pdf::kPoisson: *ga = x / a - 1.0; break;
    case Pdf::kNegBinomial:
      *ga = Digamma(x + a) - Digamma(a) + std::log(b);
      *gb = a / b - x / (1.0 - b);
      break;
    case Pdf::kGenNegBinomial: {
      // Through k = 1/alpha, p = 1/(mu alpha + 1).
      const double k = 1.0 / b, p = 1.0 / (a * b + 1.0), den = a * b + 1.0;
      const double gk = Digamma(x + k) - Digamma(k) + std::log(p), gp = k / p - x / (1.0 - p);
      *ga = -gp * b / (den * den);
      *gb = -gk / (b * b) - gp * a / (den * den);
      break;
    }
    case Pdf::kDirichlet: break;
  }
}

// log density of the k-vector x under concentrations alpha.
template <typename TX, typename TA>
WEFT_HD inline double LogDirichlet(const TX* x, const TA* alpha, int64_t k) {
  double sum_a = 0.0, sum_lg = 0.0, acc = 0.0;
  for (int64_t j = 0; j < k; ++j) {
    const double aj = static_cast<double>(alpha[j]);
    sum_a += aj;
    sum_lg += ::lgamma(aj);
    acc += (aj - 1.0) * std::log(static_cast<double>(x[j]));
  }
  return acc + ::lgamma(sum_a) - sum_lg;
}

// How the _random_pdf_<d> ops (core/op/random/pdf.cc) map samples to their
// parameter sets, shared by the CPU and GPU kernels: the parameter arrays have
// the leading shape of `sample`, so output element i (a scalar sample, or a
// k-vector for the Dirichlet) belongs to parameter set i / per.
struct Layout {
  int64_t n_out = 0;   // densities (output elements)
  int64_t n_sets = 0;  // parameter sets
  int64_t per = 1;     // densities per parameter set
  int64_t k = 1;       // length of one sample (the Dirichlet's last axis; 1 otherwise)
};

inline Layout LayoutOf(Pdf d, const TensorView& sample, const TensorView& param) {
  Layout l;
  l.k = d == Pdf::kDirichlet && sample.ndim() > 0 ? sample.shape[sample.ndim() - 1] : 1;
  if (l.k <= 0) return Layout{0, 0, 1, 1};
  l.n_out = sample.Size() / l.k;
  l.n_sets = param.Size() / l.k;
  l.per = l.n_sets > 0 ? l.n_out / l.n_sets : 1;
  if (l.per <= 0) l.per = 1;
  return l;
}

}  // namespace pdf
}  // namespace weft
