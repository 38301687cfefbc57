// BatchNorm on CPU, following MXNet 1.x's batch_norm.cc: biased batch
// variance, invstd = 1/sqrt(var + eps) (0 when both are 0), fix_gamma uses 1
// for gamma and gives gamma a zero gradient. Channels run in parallel.
#include <cmath>

#include "core/op/common/dnnl_nn.h"
#include "core/op/common/nnx_cpu.h"
#include "core/op/norm/norm_cpu.h"
#include "core/op/op_util.h"

namespace weft {
namespace nnx_cpu {
namespace {

template <typename T>
void ForwardT(const BatchNormArgs& a, const TensorView& x, const TensorView& gamma, const TensorView& beta,
              const TensorView& mm, const TensorView& mv, const std::vector<OpReq>& req, const TensorView& y,
              const TensorView& mean_out, const TensorView& invstd_out) {
  using P = Acc<T>;
  const T* xp = x.ptr<T>();
  T* yp = y.ptr<T>();
  const P* g = gamma.ptr<P>();
  const P* b = beta.ptr<P>();
  P* mmp = mm.ptr<P>();
  P* mvp = mv.ptr<P>();
  const int64_t cnt = a.outer * a.inner;
  ParallelFor(a.channels, cnt * 4, [&](int64_t c0, int64_t c1) {
    for (int64_t c = c0; c < c1; ++c) {
      double mean, invstd;
      if (a.batch_stats) {
        double s = 0;
        for (int64_t o = 0; o < a.outer; ++o) {
          const T* row = xp + (o * a.channels + c) * a.inner;
          for (int64_t i = 0; i < a.inner; ++i) s += static_cast<double>(static_cast<P>(row[i]));
        }
        mean = cnt > 0 ? s / static_cast<double>(cnt) : 0.0;
        double ss = 0;
        for (int64_t o = 0; o < a.outer; ++o) {
          const T* row = xp + (o * a.channels + c) * a.inner;
          for (int64_t i = 0; i < a.inner; ++i) {
            const double d = static_cast<double>(static_cast<P>(row[i])) - mean;
            ss += d * d;
          }
        }
        const double var = cnt > 0 ? ss / static_cast<double>(cnt) : 0.0;
        invstd = (var == 0 && a.eps == 0) ? 0.0 : 1.0 / std::sqrt(var + a.eps);
        if (a.update_moving) {
          mmp[c] = static_cast<P>(static_cast<double>(mmp[c]) * a.momentum + mean * (1 - a.momentum));
          mvp[c] = static_cast<P>(static_cast<double>(mvp[c]) * a.momentum + var * (1 - a.momentum));
        }
      } else {
        mean = static_cast<double>(mmp[c]);
        invstd = 1.0 / std::sqrt(static_cast<double>(mvp[c]) + a.eps);
      }
      const P w = a.fix_gamma ? P(1) : g[c];
      const P scale = static_cast<P>(invstd) * w, shift = b[c] - static_cast<P>(mean) * static_cast<P>(invstd) * w;
      for (int64_t o = 0; o < a.outer; ++o) {
        const int64_t off = (o * a.channels + c) * a.inner;
        for (int64_t i = 0; i < a.inner; ++i) Store(req[0], yp + off + i, static_cast<P>(xp[off + i]) * scale + shift);
      }
      Store(req[1], mean_out.ptr<P>() + c, static_cast<P>(mean));
      Store(req[2], invstd_out.ptr<P>() + c, static_cast<P>(invstd));
    }
  });
}

template <typename T>
void BackwardT(const BatchNormArgs& a, const TensorView& gy, const TensorView& mean_in, const TensorView& invstd_in,
               const TensorView& x, const TensorView& gamma, const TensorView& mm, const TensorView& mv,
               const std::vector<OpReq>& req, const TensorView& gx, const TensorView& ggamma,
               const TensorView& gbeta) {
  using P = Acc<T>;
  const T* gp = gy.ptr<T>();
  const T* xp = x.ptr<T>();
  T* gxp = gx.ptr<T>();
  const int64_t cnt = a.outer * a.inner;
  ParallelFor(a.channels, cnt * 6, [&](int64_t c0, int64_t c1) {
    for (int64_t c = c0; c < c1; ++c) {
      double mean, invstd;
      if (a.batch_stats) {
        mean = static_cast<double>(mean_in.ptr<P>()[c]);
        invstd = static_cast<double>(invstd_in.ptr<P>()[c]);
      } else {
        mean = static_cast<double>(mm.ptr<P>()[c]);
        invstd = 1.0 / std::sqrt(static_cast<double>(mv.ptr<P>()[c]) + a.eps);
      }
      double sum_g = 0, dotp = 0;
      for (int64_t o = 0; o < a.outer; ++o) {
        const int64_t off = (o * a.channels + c) * a.inner;
        for (int64_t i = 0; i < a.inner; ++i) {
          const double g = static_cast<double>(static_cast<P>(gp[off + i]));
          sum_g += g;
          dotp += (static_cast<double>(static_cast<P>(xp[off + i])) - mean) * g;
        }
      }
      const double w = a.fix_gamma ? 1.0 : static_cast<double>(gamma.ptr<P>()[c]);
      if (req[0] != OpReq::kNull) {
        const double n = cnt > 0 ? static_cast<double>(cnt) : 1.0;
        const double k = a.batch_stats ? dotp * invstd * invstd / n : 0.0;
        const double gmean = a.batch_stats ? sum_g / n : 0.0;
        const P iw = static_cast<P>(invstd * w), pk = static_cast<P>(k), pg = static_cast<P>(gmean),
                pm = static_cast<P>(mean);
        for (int64_t o = 0; o < a.outer; ++o) {
          const int64_t off = (o * a.channels + c) * a.inner;
          for (int64_t i = 0; i < a.inner; ++i) {
            const P v = (static_cast<P>(gp[off + i]) - pg - (static_cast<P>(xp[off + i]) - pm) * pk) * iw;
            Store(req[0], gxp + off + i, v);
          }
        }
      }
      Store(req[1], ggamma.ptr<P>() + c, static_cast<P>(a.fix_gamma ? 0.0 : dotp * invstd));
      Store(req[2], gbeta.ptr<P>() + c, static_cast<P>(sum_g));
    }
  });
}

}  // namespace

void BatchNormForward(const BatchNormArgs& a, const TensorView& x, const TensorView& gamma, const TensorView& beta,
                      const TensorView& moving_mean, const TensorView& moving_var, const std::vector<OpReq>& req,
                      const TensorView& y, const TensorView& mean_out, const TensorView& invstd_out) {
#if WEFT_USE_DNNL  // Note [NN kernel paths] in nn_backend.cc
  if (nn_cpu::UseDnnl() &&
      dnnl_cpu::BatchNormForward(a, x, gamma, beta, moving_mean, moving_var, req, y, mean_out, invstd_out))
    return;
#endif
  WEFT_NNX_FLOAT_SWITCH(x.dtype, "BatchNorm", T, {
    ForwardT<T>(a, x, gamma, beta, moving_mean, moving_var, req, y, mean_out, invstd_out);
  })
}

void BatchNormBackward(const BatchNormArgs& a, const TensorView& gy, const TensorView& mean, const TensorView& invstd,
                       const TensorView& x, const TensorView& gamma, const TensorView& moving_mean,
                       const TensorView& moving_var, const std::vector<OpReq>& req, const TensorView& gx,
                       const TensorView& ggamma, const TensorView& gbeta) {
#if WEFT_USE_DNNL  // "all" only: slower than the portable loop on plain nchw (Note [NN kernel paths])
  if (nn_cpu::UseDnnlAll() && dnnl_cpu::BatchNormBackward(a, gy, mean, invstd, x, gamma, moving_mean, moving_var, req,
                                                       gx, ggamma, gbeta))
    return;
#endif
  WEFT_NNX_FLOAT_SWITCH(x.dtype, "_backward_BatchNorm", T, {
    BackwardT<T>(a, gy, mean, invstd, x, gamma, moving_mean, moving_var, req, gx, ggamma, gbeta);
  })
}

}  // namespace nnx_cpu
}  // namespace weft
