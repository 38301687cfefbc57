// How the normalisation ops see their data: the kernel arguments of
// core/op/norm/norm_cpu.h (the (outer, channels|n, inner) view and the settings)
// decoded from an op's parameters and its data shape. Defined next to the
// ops' declarations (batch_norm.cc, layer_norm.cc) and shared with their GPU
// kernels (core/op/norm/norm.cu), which must split the data exactly as the CPU
// does. Host code: called before any kernel is launched.
//
// Below them, the arithmetic both devices run (Note [One normalisation rule]).
#pragma once
#include <cmath>
#include <cstdint>

#include "core/base/shape.h"
#include "core/op/common/hd.h"
#include "core/op/common/req_hd.h"
#include "core/op/norm/norm_cpu.h"

namespace weft {
namespace nnx {

// BatchNorm, _backward_BatchNorm: data around the axis parameter (checked
// against its rank); the batch's statistics are used (and folded into the
// moving ones) when is_train and not use_global_stats.
nnx_cpu::BatchNormArgs BatchNormArgsOf(const Params& p, const Shape& data, bool is_train);
// LayerNorm, _backward_LayerNorm: rows along the axis parameter.
nnx_cpu::RowNormArgs LayerNormArgsOf(const Params& p, const Shape& data);
// InstanceNorm, _backward_InstanceNorm: one row per (sample, channel) over
// the spatial dims; data must have at least 3 dims (shape inference's check).
nnx_cpu::RowNormArgs InstanceNormArgsOf(const Params& p, const Shape& data);

// Note [One normalisation rule]
// Each rule below is the one copy of its arithmetic, run by the CPU kernels
// (batch_norm_cpu.cc, layer_norm_cpu.cc: ranges of channels or rows across
// threads) and by the GPU kernels (norm.cu: one index per channel, row or
// parameter). Sums are in double, in the element order of the row or channel,
// so both devices add the same numbers in the same order. A rule reads an
// element again rather than keep a row buffer (no per-row scratch on a GPU);
// the data gradient may share memory with out_grad, so every rule reads an
// element before it writes it. Stores honour req in the accumulation type
// (nnm::Put), as the CPU's Store and the GPU's Assign both do.

// BatchNorm channel c's statistics: with a.batch_stats the batch's mean and
// invstd = 1/sqrt(var + eps) (0 when both are 0), folded into moving_mean /
// moving_var when a.update_moving (Note [BatchNorm statistics]); else the
// moving ones. T is data's dtype, P the parameters' and statistics'.
template <typename T, typename P>
WEFT_HD inline void BatchNormChannelStats(const nnx_cpu::BatchNormArgs& a, const T* x, int64_t c, P* mm, P* mv,
                                          double* mean, double* invstd) {
  if (!a.batch_stats) {
    *mean = static_cast<double>(mm[c]);
    *invstd = 1.0 / sqrt(static_cast<double>(mv[c]) + a.eps);
    return;
  }
  const int64_t cnt = a.outer * a.inner;
  double s = 0;
  for (int64_t o = 0; o < a.outer; ++o) {
    const T* row = x + (o * a.channels + c) * a.inner;
    for (int64_t i = 0; i < a.inner; ++i) s += static_cast<double>(static_cast<P>(row[i]));
  }
  const double m = cnt > 0 ? s / static_cast<double>(cnt) : 0.0;
  double ss = 0;
  for (int64_t o = 0; o < a.outer; ++o) {
    const T* row = x + (o * a.channels + c) * a.inner;
    for (int64_t i = 0; i < a.inner; ++i) {
      const double d = static_cast<double>(static_cast<P>(row[i])) - m;
      ss += d * d;
    }
  }
  const double var = cnt > 0 ? ss / static_cast<double>(cnt) : 0.0;
  *mean = m;
  *invstd = (var == 0 && a.eps == 0) ? 0.0 : 1.0 / sqrt(var + a.eps);
  if (a.update_moving) {
    mm[c] = static_cast<P>(static_cast<double>(mm[c]) * a.momentum + m * (1 - a.momentum));
    mv[c] = static_cast<P>(static_cast<double>(mv[c]) * a.momentum + var * (1 - a.momentum));
  }
}

// y = x * scale + shift along channel c: scale = invstd * gamma, shift = beta -
// mean * invstd * gamma (gamma 1 with fix_gamma).
template <typename P>
struct BatchNormAffine {
  P scale, shift;
};
template <typename P>
WEFT_HD inline BatchNormAffine<P> BatchNormAffineOf(const nnx_cpu::BatchNormArgs& a, const P* gamma, const P* beta,
                                                    int64_t c, double mean, double invstd) {
  const P w = a.fix_gamma ? P(1) : gamma[c];
  return {static_cast<P>(invstd) * w, beta[c] - static_cast<P>(mean) * static_cast<P>(invstd) * w};
}

// The gradient of BatchNorm along channel c: gx = (gy - gmean - (x - mean) * k)
// * iw (k and gmean are 0 with the moving statistics, which do not depend on
// x); the gamma and beta gradients are the channel's sums.
template <typename P>
struct BatchNormGradChannel {
  P iw, k, gmean, mean;
  double ggamma, gbeta;
};
template <typename T, typename P>
WEFT_HD inline BatchNormGradChannel<P> BatchNormGradChannelOf(const nnx_cpu::BatchNormArgs& a, const T* gy,
                                                              const T* x, const P* saved_mean, const P* saved_invstd,
                                                              const P* mm, const P* mv, const P* gamma, int64_t c) {
  double mean, invstd;
  if (a.batch_stats) {
    mean = static_cast<double>(saved_mean[c]);
    invstd = static_cast<double>(saved_invstd[c]);
  } else {
    mean = static_cast<double>(mm[c]);
    invstd = 1.0 / sqrt(static_cast<double>(mv[c]) + a.eps);
  }
  double sum_g = 0, dotp = 0;
  for (int64_t o = 0; o < a.outer; ++o) {
    const int64_t off = (o * a.channels + c) * a.inner;
    for (int64_t i = 0; i < a.inner; ++i) {
      const double g = static_cast<double>(static_cast<P>(gy[off + i]));
      sum_g += g;
      dotp += (static_cast<double>(static_cast<P>(x[off + i])) - mean) * g;
    }
  }
  const double w = a.fix_gamma ? 1.0 : static_cast<double>(gamma[c]);
  const int64_t cnt = a.outer * a.inner;
  const double n = cnt > 0 ? static_cast<double>(cnt) : 1.0;
  BatchNormGradChannel<P> r;
  r.iw = static_cast<P>(invstd * w);
  r.k = static_cast<P>(a.batch_stats ? dotp * invstd * invstd / n : 0.0);
  r.gmean = static_cast<P>(a.batch_stats ? sum_g / n : 0.0);
  r.mean = static_cast<P>(mean);
  r.ggamma = a.fix_gamma ? 0.0 : dotp * invstd;
  r.gbeta = sum_g;
  return r;
}
template <typename T, typename P>
WEFT_HD inline P BatchNormGradAt(const BatchNormGradChannel<P>& ch, T gy, T x) {
  return (static_cast<P>(gy) - ch.gmean - (static_cast<P>(x) - ch.mean) * ch.k) * ch.iw;
}

// LayerNorm / InstanceNorm row r (RowNormArgs): mean and biased variance in
// double, then y = (x - mean) / sd * gamma + beta, gamma and beta indexed by
// the position in the row (LayerNorm) or the row's channel (InstanceNorm);
// the second statistic is sd = sqrt(var + eps), or var with store_var.
template <typename T>
WEFT_HD inline void RowNormForwardAt(const nnx_cpu::RowNormArgs& a, int64_t r, const T* x, const T* gamma,
                                     const T* beta, OpReq req_y, T* y, OpReq req_m, T* mean, OpReq req_s, T* stat) {
  using A = AccT<T>;
  const int64_t base = (r / a.inner) * a.n * a.inner + r % a.inner;
  double s = 0;
  for (int64_t j = 0; j < a.n; ++j) s += static_cast<double>(static_cast<A>(x[base + j * a.inner]));
  const double m = a.n > 0 ? s / static_cast<double>(a.n) : 0.0;
  double ss = 0;
  for (int64_t j = 0; j < a.n; ++j) {
    const double d = static_cast<double>(static_cast<A>(x[base + j * a.inner])) - m;
    ss += d * d;
  }
  const double var = a.n > 0 ? ss / static_cast<double>(a.n) : 0.0;
  const double sd = sqrt(var + a.eps);
  const A inv = static_cast<A>(1.0 / sd), am = static_cast<A>(m);
  const int64_t ch = a.channels > 0 ? r % a.channels : -1;
  if (req_y != OpReq::kNull) {
    for (int64_t j = 0; j < a.n; ++j) {
      const int64_t k = ch >= 0 ? ch : j;
      const int64_t e = base + j * a.inner;
      nnm::Put(y, e, req_y, (static_cast<A>(x[e]) - am) * inv * static_cast<A>(gamma[k]) + static_cast<A>(beta[k]));
    }
  }
  if (req_m != OpReq::kNull) nnm::Put(mean, r, req_m, am);
  if (req_s != OpReq::kNull) nnm::Put(stat, r, req_s, static_cast<A>(a.store_var ? var : sd));
}

// Row r's standard deviation from its saved statistic.
template <typename T>
WEFT_HD inline double RowNormSd(const nnx_cpu::RowNormArgs& a, const T* stat, int64_t r) {
  const double s = static_cast<double>(static_cast<AccT<T>>(stat[r]));
  return a.store_var ? sqrt(s + a.eps) : s;
}

// The gamma and beta gradients of parameter k: over the rows in order (every
// row for LayerNorm, whose k is a position in the row; the rows of channel k
// for InstanceNorm), the sums of gy * xhat and of gy.
template <typename T>
WEFT_HD inline void RowNormParamGradAt(const nnx_cpu::RowNormArgs& a, int64_t k, const T* gy, const T* x,
                                       const T* mean, const T* stat, OpReq req_g, T* ggamma, OpReq req_b, T* gbeta) {
  using A = AccT<T>;
  const int64_t rows = a.outer * a.inner;
  const int64_t step = a.channels > 0 ? a.channels : 1;
  const int64_t j0 = a.channels > 0 ? 0 : k, j1 = a.channels > 0 ? a.n : k + 1;
  double dg = 0, db = 0;
  for (int64_t r = a.channels > 0 ? k : 0; r < rows; r += step) {
    const int64_t base = (r / a.inner) * a.n * a.inner + r % a.inner;
    const double m = static_cast<double>(static_cast<A>(mean[r])), inv = 1.0 / RowNormSd(a, stat, r);
    for (int64_t j = j0; j < j1; ++j) {
      const double gv = static_cast<double>(static_cast<A>(gy[base + j * a.inner]));
      dg += gv * (static_cast<double>(static_cast<A>(x[base + j * a.inner])) - m) * inv;
      db += gv;
    }
  }
  if (req_g != OpReq::kNull) nnm::Put(ggamma, k, req_g, static_cast<A>(dg));
  if (req_b != OpReq::kNull) nnm::Put(gbeta, k, req_b, static_cast<A>(db));
}

// The data gradient along row r: (gg - mean(gg) - xhat * mean(gg * xhat)) / sd
// with gg = gy * gamma.
template <typename T>
WEFT_HD inline void RowNormDataGradAt(const nnx_cpu::RowNormArgs& a, int64_t r, const T* gy, const T* x,
                                      const T* gamma, const T* mean, const T* stat, OpReq req, T* gx) {
  using A = AccT<T>;
  if (req == OpReq::kNull) return;
  const int64_t base = (r / a.inner) * a.n * a.inner + r % a.inner;
  const double m = static_cast<double>(static_cast<A>(mean[r])), inv = 1.0 / RowNormSd(a, stat, r);
  const int64_t ch = a.channels > 0 ? r % a.channels : -1;
  double mg = 0, mgx = 0;
  for (int64_t j = 0; j < a.n; ++j) {
    const int64_t e = base + j * a.inner;
    const double xh = (static_cast<double>(static_cast<A>(x[e])) - m) * inv;
    const double gg =
        static_cast<double>(static_cast<A>(gy[e])) * static_cast<double>(static_cast<A>(gamma[ch >= 0 ? ch : j]));
    mg += gg;
    mgx += gg * xh;
  }
  const double nn = a.n > 0 ? static_cast<double>(a.n) : 1.0;
  mg /= nn;
  mgx /= nn;
  for (int64_t j = 0; j < a.n; ++j) {
    const int64_t e = base + j * a.inner;
    const double xh = (static_cast<double>(static_cast<A>(x[e])) - m) * inv;
    const double gg =
        static_cast<double>(static_cast<A>(gy[e])) * static_cast<double>(static_cast<A>(gamma[ch >= 0 ? ch : j]));
    nnm::Put(gx, e, req, static_cast<A>((gg - mg - xh * mgx) * inv));
  }
}

}  // namespace nnx
}  // namespace weft
