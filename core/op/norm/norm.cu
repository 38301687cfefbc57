// GPU kernels of BatchNorm, LayerNorm and InstanceNorm with their backward
// operators (declarations: core/op/norm/batch_norm.cc, layer_norm.cc; CPU kernels:
// core/op/norm/batch_norm_cpu.cc, layer_norm_cpu.cc, whose rules these run:
// Note [One normalisation rule] in norm_rules.h).
//
// BatchNorm runs in two kernels: one index per channel reduces the channel
// (and, when training without use_global_stats, folds the batch statistics
// into moving_mean / moving_var in place, Note [BatchNorm statistics]) and
// leaves the per-channel coefficients in scratch memory; then one index per
// element applies them. The row norms reduce one row per index.
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
  const int64_t channels = a.channels, inner = a.inner;
  using P = AccT<T>;
  const T* xp = x.ptr<T>();
  const P* g = gamma.ptr<P>();
  const P* b = beta.ptr<P>();
  P* mmp = mm.ptr<P>();
  P* mvp = mv.ptr<P>();
  P* mo = mean_out.ptr<P>();
  P* io = invstd_out.ptr<P>();
  const OpReq req_mean = req[1], req_invstd = req[2], req_y = req[0];
  auto* coef = static_cast<nnx::BatchNormAffine<P>*>(
      Scratch(ctx, static_cast<size_t>(channels) * sizeof(nnx::BatchNormAffine<P>)));
  Launch(ctx, channels, [=] WEFT_HD(int64_t c) {
    double mean, invstd;
    nnx::BatchNormChannelStats(a, xp, c, mmp, mvp, &mean, &invstd);
    coef[c] = nnx::BatchNormAffineOf(a, g, b, c, mean, invstd);
    if (req_mean != OpReq::kNull) Assign(mo, c, req_mean, static_cast<P>(mean));
    if (req_invstd != OpReq::kNull) Assign(io, c, req_invstd, static_cast<P>(invstd));
  });
  if (req_y == OpReq::kNull) return;
  T* yp = y.ptr<T>();
  Launch(ctx, y.Size(), [=] WEFT_HD(int64_t i) {
    const nnx::BatchNormAffine<P> f = coef[(i / inner) % channels];
    Assign(yp, i, req_y, static_cast<P>(xp[i]) * f.scale + f.shift);
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
  const int64_t channels = a.channels, inner = a.inner;
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
  auto* coef = static_cast<nnx::BatchNormGradChannel<P>*>(
      Scratch(ctx, static_cast<size_t>(channels) * sizeof(nnx::BatchNormGradChannel<P>)));
  Launch(ctx, channels, [=] WEFT_HD(int64_t c) {
    coef[c] = nnx::BatchNormGradChannelOf(a, gp, xp, smean, sinv, mmp, mvp, wp, c);
    if (req_g != OpReq::kNull) Assign(ggp, c, req_g, static_cast<P>(coef[c].ggamma));
    if (req_b != OpReq::kNull) Assign(gbp, c, req_b, static_cast<P>(coef[c].gbeta));
  });
  if (req_x == OpReq::kNull) return;
  T* gxp = gx.ptr<T>();
  Launch(ctx, gx.Size(), [=] WEFT_HD(int64_t i) {
    Assign(gxp, i, req_x, nnx::BatchNormGradAt(coef[(i / inner) % channels], gp[i], xp[i]));
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

// One index per row (Note [One normalisation rule]).
template <typename T>
void RowNormForwardT(const OpContext& ctx, const RowNormArgs& a, const TensorView& x, const TensorView& gamma,
                     const TensorView& beta, const std::vector<OpReq>& req, const TensorView& y,
                     const TensorView& mean, const TensorView& stat) {
  const T* xp = x.ptr<T>();
  const T* g = gamma.ptr<T>();
  const T* b = beta.ptr<T>();
  T* yp = y.ptr<T>();
  T* mp = mean.ptr<T>();
  T* sp = stat.ptr<T>();
  const OpReq ry = req[0], rm = req[1], rs = req[2];
  Launch(ctx, a.outer * a.inner,
         [=] WEFT_HD(int64_t r) { nnx::RowNormForwardAt(a, r, xp, g, b, ry, yp, rm, mp, rs, sp); });
}

template <bool kInstance>
void RowNorm(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
             const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  const RowNormArgs a = kInstance ? nnx::InstanceNormArgsOf(p, in[0].shape) : nnx::LayerNormArgsOf(p, in[0].shape);
  WEFT_GPU_REAL_SWITCH(in[0].dtype, kInstance ? "InstanceNorm" : "LayerNorm", T, {
    RowNormForwardT<T>(ctx, a, in[0], in[1], in[2], req, out[0], out[1], out[2]);
  })
}

template <typename T>
void RowNormBackwardT(const OpContext& ctx, const RowNormArgs& a, const TensorView& gy, const TensorView& x,
                      const TensorView& gamma, const TensorView& mean, const TensorView& stat,
                      const std::vector<OpReq>& req, const TensorView& gx, const TensorView& ggamma,
                      const TensorView& gbeta) {
  const T* gp = gy.ptr<T>();
  const T* xp = x.ptr<T>();
  const T* g = gamma.ptr<T>();
  const T* mp = mean.ptr<T>();
  const T* sp = stat.ptr<T>();
  const OpReq rx = req[0], rg = req[1], rb = req[2];
  // gamma/beta gradients first (gx may share memory with gy): one index per parameter.
  if (rg != OpReq::kNull || rb != OpReq::kNull) {
    T* ggp = ggamma.ptr<T>();
    T* gbp = gbeta.ptr<T>();
    Launch(ctx, gamma.Size(),
           [=] WEFT_HD(int64_t k) { nnx::RowNormParamGradAt(a, k, gp, xp, mp, sp, rg, ggp, rb, gbp); });
  }
  if (rx == OpReq::kNull) return;
  T* gxp = gx.ptr<T>();
  Launch(ctx, a.outer * a.inner,
         [=] WEFT_HD(int64_t r) { nnx::RowNormDataGradAt(a, r, gp, xp, g, mp, sp, rx, gxp); });
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
