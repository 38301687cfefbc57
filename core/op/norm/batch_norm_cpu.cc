// BatchNorm on CPU, following MXNet 1.x's batch_norm.cc: biased batch
// variance, invstd = 1/sqrt(var + eps) (0 when both are 0), fix_gamma uses 1
// for gamma and gives gamma a zero gradient. Channels run in parallel, each
// running the rules of norm_rules.h (Note [One normalisation rule]).
#include "core/op/common/dnnl_nn.h"
#include "core/op/common/nnx_cpu.h"
#include "core/op/common/nn_path.h"
#include "core/op/norm/norm_cpu.h"
#include "core/op/norm/norm_rules.h"
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
  ParallelFor(a.channels, a.outer * a.inner * 4, [&](int64_t c0, int64_t c1) {
    for (int64_t c = c0; c < c1; ++c) {
      double mean, invstd;
      nnx::BatchNormChannelStats(a, xp, c, mmp, mvp, &mean, &invstd);
      const nnx::BatchNormAffine<P> f = nnx::BatchNormAffineOf(a, g, b, c, mean, invstd);
      for (int64_t o = 0; o < a.outer; ++o) {
        const int64_t off = (o * a.channels + c) * a.inner;
        for (int64_t i = 0; i < a.inner; ++i)
          Store(req[0], yp + off + i, static_cast<P>(xp[off + i]) * f.scale + f.shift);
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
  ParallelFor(a.channels, a.outer * a.inner * 6, [&](int64_t c0, int64_t c1) {
    for (int64_t c = c0; c < c1; ++c) {
      const nnx::BatchNormGradChannel<P> ch = nnx::BatchNormGradChannelOf(
          a, gp, xp, mean_in.ptr<P>(), invstd_in.ptr<P>(), mm.ptr<P>(), mv.ptr<P>(), gamma.ptr<P>(), c);
      if (req[0] != OpReq::kNull) {
        for (int64_t o = 0; o < a.outer; ++o) {
          const int64_t off = (o * a.channels + c) * a.inner;
          for (int64_t i = 0; i < a.inner; ++i)
            Store(req[0], gxp + off + i, nnx::BatchNormGradAt(ch, gp[off + i], xp[off + i]));
        }
      }
      Store(req[1], ggamma.ptr<P>() + c, static_cast<P>(ch.ggamma));
      Store(req[2], gbeta.ptr<P>() + c, static_cast<P>(ch.gbeta));
    }
  });
}

}  // namespace

void BatchNormForward(const BatchNormArgs& a, const TensorView& x, const TensorView& gamma, const TensorView& beta,
                      const TensorView& moving_mean, const TensorView& moving_var, const std::vector<OpReq>& req,
                      const TensorView& y, const TensorView& mean_out, const TensorView& invstd_out) {
#if WEFT_USE_DNNL  // Note [NN kernel paths] in core/op/common/nn_path.cc
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
