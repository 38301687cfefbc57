// GPU kernels of BatchNorm, LayerNorm and InstanceNorm with their backward
// operators (declarations: core/op/norm/batch_norm.cc, layer_norm.cc; CPU kernels:
// core/op/norm/batch_norm_cpu.cc, layer_norm.cc, whose arithmetic these repeat:
// statistics and reductions in double, in the CPU's element order).
//
// BatchNorm runs in two kernels: one index per channel reduces the channel
// (and, when training without use_global_stats, folds the batch statistics
// into moving_mean / moving_var in place, Note [BatchNorm statistics]) and
// leaves the per-channel coefficients in scratch memory; then one index per
// element applies them. The row norms reduce one row per index.
#include <cmath>
#include <string>

#include "core/op/norm/norm_cpu.h"
#include "core/op/common/gpu_kernel.h"
#include "core/op/norm/norm_rules.h"

namespace weft {
namespace cuda {
namespace {

using nnx_cpu::BatchNormArgs;
using nnx_cpu::RowNormArgs;

// T is data's dtype; the parameters and statistics have P = AccT<T> (float32
// for 16-bit data, batch_norm.cc's ParamDType), as on the CPU.
template <typename T>
void BatchNormForwardT(const OpContext& ctx, const BatchNormArgs& a, const TensorView& x, const TensorView& gamma,
                       const TensorView& beta, const TensorView& mm, const TensorView& mv,
                       const std::vector<OpReq>& req, const TensorView& y, const TensorView& mean_out,
                       const TensorView& invstd_out) {
  const int64_t outer = a.outer, channels = a.channels, inner = a.inner, cnt = outer * inner;
  const double eps = a.eps, momentum = a.momentum;
  const bool fix_gamma = a.fix_gamma, batch_stats = a.batch_stats, update_moving = a.update_moving;
  using P = AccT<T>;
  const T* xp = x.ptr<T>();
  const P* g = gamma.ptr<P>();
  const P* b = beta.ptr<P>();
  P* mmp = mm.ptr<P>();
  P* mvp = mv.ptr<P>();
  P* mo = mean_out.ptr<P>();
  P* io = invstd_out.ptr<P>();
  const OpReq req_mean = req[1], req_invstd = req[2], req_y = req[0];
  P* coef = static_cast<P*>(Scratch(ctx, static_cast<size_t>(2 * channels) * sizeof(P)));  // scale, shift
  Launch(ctx, channels, [=] WEFT_HD(int64_t c) {
    double mean, invstd;
    if (batch_stats) {
      double s = 0;
      for (int64_t o = 0; o < outer; ++o) {
        const T* row = xp + (o * channels + c) * inner;
        for (int64_t i = 0; i < inner; ++i) s += static_cast<double>(row[i]);
      }
      mean = cnt > 0 ? s / static_cast<double>(cnt) : 0.0;
      double ss = 0;
      for (int64_t o = 0; o < outer; ++o) {
        const T* row = xp + (o * channels + c) * inner;
        for (int64_t i = 0; i < inner; ++i) {
          const double d = static_cast<double>(row[i]) - mean;
          ss += d * d;
        }
      }
      const double var = cnt > 0 ? ss / static_cast<double>(cnt) : 0.0;
      invstd = (var == 0 && eps == 0) ? 0.0 : 1.0 / std::sqrt(var + eps);
      if (update_moving) {
        mmp[c] = static_cast<P>(static_cast<double>(mmp[c]) * momentum + mean * (1 - momentum));
        mvp[c] = static_cast<P>(static_cast<double>(mvp[c]) * momentum + var * (1 - momentum));
      }
    } else {
      mean = static_cast<double>(mmp[c]);
      invstd = 1.0 / std::sqrt(static_cast<double>(mvp[c]) + eps);
    }
    const P w = fix_gamma ? P(1) : g[c];
    coef[c] = static_cast<P>(invstd) * w;
    coef[channels + c] = b[c] - static_cast<P>(mean) * static_cast<P>(invstd) * w;
    if (req_mean != OpReq::kNull) Assign(mo, c, req_mean, static_cast<P>(mean));
    if (req_invstd != OpReq::kNull) Assign(io, c, req_invstd, static_cast<P>(invstd));
  });
  if (req_y == OpReq::kNull) return;
  T* yp = y.ptr<T>();
  Launch(ctx, y.Size(), [=] WEFT_HD(int64_t i) {
    const int64_t c = (i / inner) % channels;
    Assign(yp, i, req_y, static_cast<P>(xp[i]) * coef[c] + coef[channels + c]);
  });
}

void BatchNorm(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
               const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  const BatchNormArgs a = nnx::BatchNormArgsOf(p, in[0].shape, ctx.is_train);
  WEFT_GPU_REAL_SWITCH(in[0].dtype, "BatchNorm", T, {
    BatchNormForwardT<T>(ctx, a, in[0], in[1], in[2], in[3], in[4], req, out[0], out[1], out[2]);
  })
}

// Gradients of data, gamma and beta; the saved statistics with batch_stats,
// else the moving ones. gx may share memory with gy (in place): the channel
// sums are done by the first kernel before the second writes gx.
template <typename T>
void BatchNormBackwardT(const OpContext& ctx, const BatchNormArgs& a, const TensorView& gy, const TensorView& mean_in,
                        const TensorView& invstd_in, const TensorView& x, const TensorView& gamma, const TensorView& mm,
                        const TensorView& mv, const std::vector<OpReq>& req, const TensorView& gx,
                        const TensorView& ggamma, const TensorView& gbeta) {
  const int64_t outer = a.outer, channels = a.channels, inner = a.inner, cnt = outer * inner;
  const double eps = a.eps;
  const bool fix_gamma = a.fix_gamma, batch_stats = a.batch_stats;
  using P = AccT<T>;  // the parameters' and statistics' dtype
  const T* gp = gy.ptr<T>();
  const T* xp = x.ptr<T>();
  const P* smean = mean_in.ptr<P>();
  const P* sinv = invstd_in.ptr<P>();
  const P* mmp = mm.ptr<P>();
  const P* mvp = mv.ptr<P>();
  const P* wp = gamma.ptr<P>();
  P* ggp = ggamma.ptr<P>();
  P* gbp = gbeta.ptr<P>();
  const OpReq req_x = req[0], req_g = req[1], req_b = req[2];
  P* coef = static_cast<P*>(Scratch(ctx, static_cast<size_t>(4 * channels) * sizeof(P)));  // iw, k, gmean, mean
  Launch(ctx, channels, [=] WEFT_HD(int64_t c) {
    double mean, invstd;
    if (batch_stats) {
      mean = static_cast<double>(smean[c]);
      invstd = static_cast<double>(sinv[c]);
    } else {
      mean = static_cast<double>(mmp[c]);
      invstd = 1.0 / std::sqrt(static_cast<double>(mvp[c]) + eps);
    }
    double sum_g = 0, dotp = 0;
    for (int64_t o = 0; o < outer; ++o) {
      const int64_t off = (o * channels + c) * inner;
      for (int64_t i = 0; i < inner; ++i) {
        const double gv = static_cast<double>(gp[off + i]);
        sum_g += gv;
        dotp += (static_cast<double>(xp[off + i]) - mean) * gv;
      }
    }
    const double w = fix_gamma ? 1.0 : static_cast<double>(wp[c]);
    const double n = cnt > 0 ? static_cast<double>(cnt) : 1.0;
    coef[c] = static_cast<P>(invstd * w);
    coef[channels + c] = static_cast<P>(batch_stats ? dotp * invstd * invstd / n : 0.0);
    coef[2 * channels + c] = static_cast<P>(batch_stats ? sum_g / n : 0.0);
    coef[3 * channels + c] = static_cast<P>(mean);
    if (req_g != OpReq::kNull) Assign(ggp, c, req_g, static_cast<P>(fix_gamma ? 0.0 : dotp * invstd));
    if (req_b != OpReq::kNull) Assign(gbp, c, req_b, static_cast<P>(sum_g));
  });
  if (req_x == OpReq::kNull) return;
  T* gxp = gx.ptr<T>();
  Launch(ctx, gx.Size(), [=] WEFT_HD(int64_t i) {
    const int64_t c = (i / inner) % channels;
    const P v = (static_cast<P>(gp[i]) - coef[2 * channels + c] -
                 (static_cast<P>(xp[i]) - coef[3 * channels + c]) * coef[channels + c]) *
                coef[c];
    Assign(gxp, i, req_x, v);
  });
}

void BatchNormBackward(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                       const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  const BatchNormArgs a = nnx::BatchNormArgsOf(p, in[3].shape, ctx.is_train);
  WEFT_GPU_REAL_SWITCH(in[3].dtype, "_backward_BatchNorm", T, {
    BatchNormBackwardT<T>(ctx, a, in[0], in[1], in[2], in[3], in[4], in[6], in[7], req, out[0], out[1], out[2]);
  })
}

// ---- LayerNorm / InstanceNorm ----

// One index per row: mean and biased variance in double, then the row's
// outputs. gamma/beta are indexed by j (LayerNorm) or by the row's channel.
template <typename T>
void RowNormForwardT(const OpContext& ctx, const RowNormArgs& a, const TensorView& x, const TensorView& gamma,
                     const TensorView& beta, const std::vector<OpReq>& req, const TensorView& y,
                     const TensorView& mean, const TensorView& stat) {
  const int64_t n = a.n, inner = a.inner, channels = a.channels;
  const double eps = a.eps;
  const bool store_var = a.store_var;
  const T* xp = x.ptr<T>();
  const T* g = gamma.ptr<T>();
  const T* b = beta.ptr<T>();
  T* yp = y.ptr<T>();
  T* mp = mean.ptr<T>();
  T* sp = stat.ptr<T>();
  const OpReq ry = req[0], rm = req[1], rs = req[2];
  Launch(ctx, a.outer * a.inner, [=] WEFT_HD(int64_t r) {
    const int64_t base = (r / inner) * n * inner + r % inner;
    double s = 0;
    for (int64_t j = 0; j < n; ++j) s += static_cast<double>(xp[base + j * inner]);
    const double m = n > 0 ? s / static_cast<double>(n) : 0.0;
    double ss = 0;
    for (int64_t j = 0; j < n; ++j) {
      const double d = static_cast<double>(xp[base + j * inner]) - m;
      ss += d * d;
    }
    const double var = n > 0 ? ss / static_cast<double>(n) : 0.0;
    const double sd = std::sqrt(var + eps);
    using A = AccT<T>;
    const A inv = static_cast<A>(1.0 / sd), am = static_cast<A>(m);
    const int64_t ch = channels > 0 ? r % channels : -1;
    if (ry != OpReq::kNull) {
      for (int64_t j = 0; j < n; ++j) {
        const int64_t k = ch >= 0 ? ch : j;
        Assign(yp, base + j * inner, ry,
               (static_cast<A>(xp[base + j * inner]) - am) * inv * static_cast<A>(g[k]) + static_cast<A>(b[k]));
      }
    }
    if (rm != OpReq::kNull) Assign(mp, r, rm, am);
    if (rs != OpReq::kNull) Assign(sp, r, rs, static_cast<A>(store_var ? var : sd));
  });
}

template <bool kInstance>
void RowNorm(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
             const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  const RowNormArgs a = kInstance ? nnx::InstanceNormArgsOf(p, in[0].shape) : nnx::LayerNormArgsOf(p, in[0].shape);
  WEFT_GPU_REAL_SWITCH(in[0].dtype, kInstance ? "InstanceNorm" : "LayerNorm", T, {
    RowNormForwardT<T>(ctx, a, in[0], in[1], in[2], req, out[0], out[1], out[2]);
  })
}

// The row's standard deviation from the saved statistic.
WEFT_HD inline double RowSd(double stat, bool store_var, double eps) { return store_var ? std::sqrt(stat + eps) : stat; }

template <typename T>
void RowNormBackwardT(const OpContext& ctx, const RowNormArgs& a, const TensorView& gy, const TensorView& x,
                      const TensorView& gamma, const TensorView& mean, const TensorView& stat,
                      const std::vector<OpReq>& req, const TensorView& gx, const TensorView& ggamma,
                      const TensorView& gbeta) {
  const int64_t n = a.n, inner = a.inner, channels = a.channels, rows = a.outer * a.inner;
  const double eps = a.eps;
  const bool store_var = a.store_var;
  const T* gp = gy.ptr<T>();
  const T* xp = x.ptr<T>();
  const T* g = gamma.ptr<T>();
  const T* mp = mean.ptr<T>();
  const T* sp = stat.ptr<T>();
  const OpReq rx = req[0], rg = req[1], rb = req[2];
  // gamma/beta gradients first (gx may share memory with gy): one index per
  // parameter k sums, row by row as the CPU does, the elements that use it.
  if (rg != OpReq::kNull || rb != OpReq::kNull) {
    T* ggp = ggamma.ptr<T>();
    T* gbp = gbeta.ptr<T>();
    Launch(ctx, gamma.Size(), [=] WEFT_HD(int64_t k) {
      double dg = 0, db = 0;
      for (int64_t r = 0; r < rows; ++r) {
        if (channels > 0 && r % channels != k) continue;
        const int64_t base = (r / inner) * n * inner + r % inner;
        const double m = static_cast<double>(mp[r]), inv = 1.0 / RowSd(static_cast<double>(sp[r]), store_var, eps);
        const int64_t j0 = channels > 0 ? 0 : k, j1 = channels > 0 ? n : k + 1;
        for (int64_t j = j0; j < j1; ++j) {
          const double gv = static_cast<double>(gp[base + j * inner]);
          dg += gv * (static_cast<double>(xp[base + j * inner]) - m) * inv;
          db += gv;
        }
      }
      if (rg != OpReq::kNull) Assign(ggp, k, rg, static_cast<T>(dg));
      if (rb != OpReq::kNull) Assign(gbp, k, rb, static_cast<T>(db));
    });
  }
  if (rx == OpReq::kNull) return;
  T* gxp = gx.ptr<T>();
  Launch(ctx, rows, [=] WEFT_HD(int64_t r) {
    const int64_t base = (r / inner) * n * inner + r % inner;
    const double m = static_cast<double>(mp[r]), inv = 1.0 / RowSd(static_cast<double>(sp[r]), store_var, eps);
    const int64_t ch = channels > 0 ? r % channels : -1;
    double mg = 0, mgx = 0;
    for (int64_t j = 0; j < n; ++j) {
      const int64_t e = base + j * inner;
      const double xh = (static_cast<double>(xp[e]) - m) * inv;
      const double gg = static_cast<double>(gp[e]) * static_cast<double>(g[ch >= 0 ? ch : j]);
      mg += gg;
      mgx += gg * xh;
    }
    const double nn = n > 0 ? static_cast<double>(n) : 1.0;
    mg /= nn;
    mgx /= nn;
    // Element j is read before it is written (in place).
    for (int64_t j = 0; j < n; ++j) {
      const int64_t e = base + j * inner;
      const double xh = (static_cast<double>(xp[e]) - m) * inv;
      const double gg = static_cast<double>(gp[e]) * static_cast<double>(g[ch >= 0 ? ch : j]);
      Assign(gxp, e, rx, static_cast<T>((gg - mg - xh * mgx) * inv));
    }
  });
}

template <bool kInstance>
void RowNormBackward(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                     const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  const RowNormArgs a = kInstance ? nnx::InstanceNormArgsOf(p, in[1].shape) : nnx::LayerNormArgsOf(p, in[1].shape);
  WEFT_GPU_REAL_SWITCH(in[1].dtype, kInstance ? "_backward_InstanceNorm" : "_backward_LayerNorm", T, {
    RowNormBackwardT<T>(ctx, a, in[0], in[1], in[2], in[3], in[4], req, out[0], out[1], out[2]);
  })
}

}  // namespace

WEFT_GPU_KERNEL_EXPORT(BatchNormGpu, BatchNorm)  // BatchNorm
WEFT_GPU_KERNEL_EXPORT(BackwardBatchNormGpu, BatchNormBackward)  // _backward_BatchNorm
WEFT_GPU_KERNEL_EXPORT(LayerNormGpu, RowNorm<false>)  // LayerNorm
WEFT_GPU_KERNEL_EXPORT(BackwardLayerNormGpu, RowNormBackward<false>)  // _backward_LayerNorm
WEFT_GPU_KERNEL_EXPORT(InstanceNormGpu, RowNorm<true>)  // InstanceNorm
WEFT_GPU_KERNEL_EXPORT(BackwardInstanceNormGpu, RowNormBackward<true>)  // _backward_InstanceNorm

}  // namespace cuda
}  // namespace weft
