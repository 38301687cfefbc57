// The drivers of the optimizer updates of optim_single.cc / optim_multi.cc,
// shared by the CPU kernels (update_drivers_cpu.cc) and the GPU kernels
// (update_drivers.cu): each is a template over a loop policy L with
//   L::For(ctx, n, f)            f(i) for i in [0, n) (threads on CPU, a grid on GPU),
//   L::Temp(ctx, bytes, &hold)   scratch memory on the op's device,
//   L::kHalf                     whether float16/bfloat16 storage is built,
// and calls the rules of optim_rules.h (Note [One optimizer rule]), so
// the two devices share one body per update; only the loop differs.
// Included by exactly those two files.
#pragma once
#include <cstdint>
#include <type_traits>
#include <vector>

#include "core/op/common/hd.h"
#include "core/op/common/loop_policy.h"
#include "core/opdef/op_def.h"
#include "core/op/optim/update_settings.h"
#include "core/op/optim/optim_rules.h"

namespace weft {
namespace optim {

template <typename T>
using AccOf = ::weft::LoopAccOf<T>;

template <typename T, typename A>
WEFT_HD inline void Put(T* o, int64_t i, OpReq req, A v) {
  if (req == OpReq::kAddTo) o[i] = static_cast<T>(static_cast<A>(o[i]) + v);
  else o[i] = static_cast<T>(v);
}

// Put with the write mode known at compile time: the host loops that call it
// have no branch and vectorise (a float add inside a branch may trap, so GCC
// keeps the branch; Note [Vector loops of the CPU policy] in common/loop_policy.h).
template <bool kAddTo, typename T, typename A>
WEFT_HD inline void PutAs(T* o, int64_t i, A v) {
  if (kAddTo) o[i] = static_cast<T>(static_cast<A>(o[i]) + v);
  else o[i] = static_cast<T>(v);
}

// ---------------------------------------------------------------------------
// The SGD family, one tensor: sgd (kStates 0), sgd_mom (1), nag_mom (kNag);
// kMp: the weight is stored as T and updated through the float32 master w32
// (states float32). kPreloaded (preloaded_*): lr/wd are read from the device
// arrays lrs/wds at index k, else from c. kAddTo: the write mode. Template
// arguments, as kMom is, so the element loop has no branch and vectorises
// (Note [Vector loops of the CPU policy] in common/loop_policy.h): Gluon's
// Trainer runs multi_sgd_mom_update, which ran scalar.
template <class L, typename T, bool kMom, bool kNag, bool kMp, bool kPreloaded, bool kAddTo>
void SgdLoop(const OpContext& ctx, const Consts<typename std::conditional<kMp, float, typename AccOf<T>::type>::type>& c,
             const float* lrs, const float* wds, int64_t k, const TensorView& w, const TensorView& g,
             const TensorView* mom, const TensorView* w32, const TensorView& out) {
  using A = typename std::conditional<kMp, float, typename AccOf<T>::type>::type;
  using M = typename std::conditional<kMp, float, T>::type;
  const T* wp = w.ptr<T>();
  const T* gp = g.ptr<T>();
  M* mp = mom ? mom->ptr<M>() : nullptr;
  float* mw = w32 ? w32->ptr<float>() : nullptr;
  T* o = out.ptr<T>();
  L::For(ctx, out.Size(), [=] WEFT_HD(int64_t i) {
    const A lr = kPreloaded ? static_cast<A>(lrs[k]) : c.lr;
    const A wd = kPreloaded ? static_cast<A>(wds[k]) : c.wd;
    const A wi = kMp ? static_cast<A>(mw[i]) : static_cast<A>(wp[i]);
    const A gi = static_cast<A>(gp[i]);
    A nw;
    if (!kMom) {  // plain if: nvcc's extended lambdas cannot first-capture inside if constexpr
      nw = SgdRule(wi, gi, lr, wd, c);
    } else {
      A m = static_cast<A>(mp[i]);
      if (kNag) {
        Consts<A> cc = c;
        cc.lr = lr;
        cc.wd = wd;
        nw = NagRule(wi, gi, &m, cc);
      } else {
        nw = SgdMomRule(wi, gi, &m, lr, wd, c);
      }
      mp[i] = static_cast<M>(m);
    }
    if (kMp) mw[i] = static_cast<float>(nw);
    PutAs<kAddTo>(o, i, nw);
  });
}

// SgdLoop for the write mode req (lrs/wds are read when kPreloaded).
template <class L, typename T, bool kMom, bool kNag, bool kMp, bool kPreloaded = false>
void SgdTensor(const OpContext& ctx, const Consts<typename std::conditional<kMp, float, typename AccOf<T>::type>::type>& c,
               const float* lrs, const float* wds, int64_t k, const TensorView& w, const TensorView& g,
               const TensorView* mom, const TensorView* w32, OpReq req, const TensorView& out) {
  if (req == OpReq::kNull) return;
  if (req == OpReq::kAddTo)
    SgdLoop<L, T, kMom, kNag, kMp, kPreloaded, true>(ctx, c, lrs, wds, k, w, g, mom, w32, out);
  else
    SgdLoop<L, T, kMom, kNag, kMp, kPreloaded, false>(ctx, c, lrs, wds, k, w, g, mom, w32, out);
}

// multi_*/preloaded_multi_* SGD: groups of `stride` inputs (weight, grad[, mom][, weight32]),
// then (preloaded) the lrs and wds arrays.
template <class L, bool kMom, bool kMp, bool kPreloaded>
void MultiSgd(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
              const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  const UpdateArgs a = UpdateArgsOf(p);
  const int stride = 2 + (kMom ? 1 : 0) + (kMp ? 1 : 0);
  const size_t n = out.size();
  const float* lrs = kPreloaded ? in[n * stride].ptr<float>() : nullptr;
  const float* wds = kPreloaded ? in[n * stride + 1].ptr<float>() : nullptr;
  for (size_t k = 0; k < n; ++k) {
    const TensorView& w = in[k * stride];
    const TensorView* mom = kMom ? &in[k * stride + 2] : nullptr;
    const TensorView* w32 = kMp ? &in[k * stride + 2 + (kMom ? 1 : 0)] : nullptr;
    WEFT_LOOP_FLOAT_SWITCH(L, w.dtype, p.op()->name.c_str(), T, {
      using A = typename std::conditional<kMp, float, typename AccOf<T>::type>::type;
      Consts<A> c = ConstsOf<A>(a);
      if (!kPreloaded) {
        c.lr = static_cast<A>(a.lrs[k]);
        c.wd = static_cast<A>(a.wds[k]);
      }
      SgdTensor<L, T, kMom, false, kMp, kPreloaded>(ctx, c, lrs, wds, static_cast<int64_t>(k), w, in[k * stride + 1], mom, w32,
                                        req[k], out[k]);
    })
  }
}

// mp_sgd_update, mp_sgd_mom_update, mp_nag_mom_update: (weight, grad[, mom], weight32).
template <class L, bool kMom, bool kNag>
void MpSgd(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in, const std::vector<OpReq>& req,
           const std::vector<TensorView>& out) {
  const Consts<float> c = ConstsOf<float>(UpdateArgsOf(p));
  WEFT_LOOP_FLOAT_SWITCH(L, in[0].dtype, p.op()->name.c_str(), T, {
    SgdTensor<L, T, kMom, kNag, true>(ctx, c, nullptr, nullptr, 0, in[0], in[1], kMom ? &in[2] : nullptr,
                                      &in[kMom ? 3 : 2], req[0], out[0]);
  })
}

// ---------------------------------------------------------------------------
// ftml_update (weight, grad, d, v, z) and rmspropalex_update (weight, grad, n, g, delta).
template <class L, bool kFtml>
void ThreeStates(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                 const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull) return;
  const UpdateArgs a = UpdateArgsOf(p);
  WEFT_LOOP_FLOAT_SWITCH(L, in[0].dtype, p.op()->name.c_str(), T, {
    using A = typename AccOf<T>::type;
    const Consts<A> c = ConstsOf<A>(a);
    const T* w = in[0].ptr<T>();
    const T* g = in[1].ptr<T>();
    T* s0 = in[2].ptr<T>();
    T* s1 = in[3].ptr<T>();
    T* s2 = in[4].ptr<T>();
    T* o = out[0].ptr<T>();
    const OpReq r = req[0];
    L::For(ctx, out[0].Size(), [=] WEFT_HD(int64_t i) {
      A x = static_cast<A>(s0[i]), y = static_cast<A>(s1[i]), z = static_cast<A>(s2[i]);
      const A wi = static_cast<A>(w[i]), gi = static_cast<A>(g[i]);
      const A nw = kFtml ? FtmlRule(wi, gi, &x, &y, &z, c) : RmspropAlexRule(wi, gi, &x, &y, &z, c);
      s0[i] = static_cast<T>(x);
      s1[i] = static_cast<T>(y);
      s2[i] = static_cast<T>(z);
      Put(o, i, r, nw);
    });
  })
}

// ---------------------------------------------------------------------------
// LAMB. Phase 1 of one tensor: (weight or weight32 `wm`, grad, mean, var) -> g (type G).
template <class L, typename T, typename S, typename A, typename G>
void LambPhase1Tensor(const OpContext& ctx, const Consts<A>& c, const void* wm, const TensorView& g,
                      const TensorView& mean, const TensorView& var, G* gout, OpReq req) {
  const S* w = static_cast<const S*>(wm);
  const T* gp = g.ptr<T>();
  S* m = mean.ptr<S>();
  S* v = var.ptr<S>();
  L::For(ctx, g.Size(), [=] WEFT_HD(int64_t i) {
    A mi = static_cast<A>(m[i]), vi = static_cast<A>(v[i]);
    const A r = LambPhase1Rule(static_cast<A>(w[i]), static_cast<A>(gp[i]), &mi, &vi, c.wd, c);
    m[i] = static_cast<S>(mi);
    v[i] = static_cast<S>(vi);
    Put(gout, i, req, r);
  });
}

// Phase 2 of one tensor: w' = w - LambRate(r1, r2) * g; r1, r2 are one-element
// arrays read on the device (kMp: w from and to the float32 master too).
template <class L, typename T, typename Gt, typename Rt, typename A, bool kMp>
void LambPhase2Tensor(const OpContext& ctx, const Consts<A>& c, const void* wv, const Gt* gp, const Rt* r1,
                      const Rt* r2, float* w32, T* o, int64_t n, OpReq req) {
  const T* w = static_cast<const T*>(wv);
  L::For(ctx, n, [=] WEFT_HD(int64_t i) {
    const A rate = LambRate(static_cast<A>(r1[0]), static_cast<A>(r2[0]), c.lr, c);
    const A wi = kMp ? static_cast<A>(w32[i]) : static_cast<A>(w[i]);
    const A nw = wi - rate * static_cast<A>(gp[i]);
    if (kMp) w32[i] = static_cast<float>(nw);
    Put(o, i, req, nw);
  });
}

// lamb_update_phase1 (weight, grad, mean, var) and mp_lamb_update_phase1 (+ weight32; g is float32).
template <class L, bool kMp>
void LambPhase1(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull) return;
  const UpdateArgs a = UpdateArgsOf(p);
  WEFT_LOOP_FLOAT_SWITCH(L, in[0].dtype, p.op()->name.c_str(), T, {
    if constexpr (kMp) {
      LambPhase1Tensor<L, T, float, float, float>(ctx, ConstsOf<float>(a), in[4].data, in[1], in[2], in[3],
                                                  out[0].ptr<float>(), req[0]);
    } else {
      using A = typename AccOf<T>::type;
      LambPhase1Tensor<L, T, T, A, T>(ctx, ConstsOf<A>(a), in[0].data, in[1], in[2], in[3], out[0].ptr<T>(), req[0]);
    }
  })
}

// lamb_update_phase2 (weight, g, r1, r2) and mp_lamb_update_phase2 (+ weight32; g, r1, r2 float32).
template <class L, bool kMp>
void LambPhase2(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull) return;
  const UpdateArgs a = UpdateArgsOf(p);
  WEFT_LOOP_FLOAT_SWITCH(L, in[0].dtype, p.op()->name.c_str(), T, {
    if constexpr (kMp) {
      LambPhase2Tensor<L, T, float, float, float, true>(ctx, ConstsOf<float>(a), in[0].data, in[1].ptr<float>(),
                                                 in[2].ptr<float>(), in[3].ptr<float>(), in[4].ptr<float>(),
                                                 out[0].ptr<T>(), out[0].Size(), req[0]);
    } else {
      using A = typename AccOf<T>::type;
      LambPhase2Tensor<L, T, T, T, A, false>(ctx, ConstsOf<A>(a), in[0].data, in[1].ptr<T>(), in[2].ptr<T>(),
                                          in[3].ptr<T>(), nullptr, out[0].ptr<T>(), out[0].Size(), req[0]);
    }
  })
}

// The L2 norm of x (n elements) into *dst, on the device: one index that
// loops (Note [GPU kernel style]: a reduction loops inside one index), summed
// in double.
template <class L, typename S>
void Norm2(const OpContext& ctx, const S* x, int64_t n, double* dst) {
  L::For(ctx, 1, [=] WEFT_HD(int64_t) {
    double s = 0;
    for (int64_t j = 0; j < n; ++j) {
      const double v = static_cast<double>(x[j]);
      s += v * v;
    }
    *dst = std::sqrt(s);
  });
}

// _contrib_multi_lamb_update / _contrib_multi_mp_lamb_update: groups (weight, grad, mean, var[, weight32]);
// per tensor: phase 1 into scratch g, the norms of the weight and of g, phase 2.
template <class L, bool kMp>
void MultiLamb(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
               const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  const UpdateArgs a = UpdateArgsOf(p);
  const int stride = kMp ? 5 : 4;
  const size_t n = out.size();
  int64_t most = 0;
  for (size_t k = 0; k < n; ++k) most = most > out[k].Size() ? most : out[k].Size();
  std::vector<char> hold;
  // g of the largest tensor (float32 or float64) and the two norms.
  char* scratch = static_cast<char*>(L::Temp(ctx, static_cast<size_t>(most) * sizeof(double) + 2 * sizeof(double), &hold));
  double* norms = reinterpret_cast<double*>(scratch + static_cast<size_t>(most) * sizeof(double));
  for (size_t k = 0; k < n; ++k) {
    if (req[k] == OpReq::kNull) continue;
    const TensorView& w = in[k * stride];
    const int64_t size = w.Size();
    WEFT_LOOP_FLOAT_SWITCH(L, w.dtype, p.op()->name.c_str(), T, {
      using A = typename std::conditional<kMp, float, typename AccOf<T>::type>::type;
      using S = typename std::conditional<kMp, float, T>::type;
      using G = typename std::conditional<std::is_same<A, double>::value, double, float>::type;
      Consts<A> c = ConstsOf<A>(a);
      c.lr = static_cast<A>(a.lrs[k]);
      c.wd = static_cast<A>(a.wds[k]);
      if (a.bias_correction) {
        const double t = static_cast<double>(a.steps[k]);
        c.corr1 = static_cast<A>(1.0 - std::pow(a.beta1, t));
        c.corr2 = static_cast<A>(1.0 - std::pow(a.beta2, t));
      }
      G* gbuf = reinterpret_cast<G*>(scratch);
      const void* wm = kMp ? in[k * stride + 4].data : w.data;
      LambPhase1Tensor<L, T, S, A, G>(ctx, c, wm, in[k * stride + 1], in[k * stride + 2], in[k * stride + 3], gbuf,
                                      OpReq::kWriteTo);
      Norm2<L, S>(ctx, static_cast<const S*>(wm), size, norms);
      Norm2<L, G>(ctx, gbuf, size, norms + 1);
      LambPhase2Tensor<L, T, G, double, A, kMp>(ctx, c, w.data, gbuf, norms, norms + 1,
                                               kMp ? in[k * stride + 4].ptr<float>() : nullptr, out[k].ptr<T>(),
                                               size, req[k]);
    })
  }
}

// ---------------------------------------------------------------------------
// AdamW of one tensor: kMp updates through the float32 master (states and
// rescale_grad float32). The update is skipped (the weight is written back
// unchanged) when rescale_grad, read on the device, is NaN.
template <class L, typename T, bool kMp, typename Sc>
void AdamWTensor(const OpContext& ctx, const Consts<typename std::conditional<kMp, float, typename AccOf<T>::type>::type>& c,
                 const TensorView& w, const TensorView& g, const TensorView& mean, const TensorView& var,
                 const TensorView* w32, const TensorView& scale, OpReq req, const TensorView& out) {
  using A = typename std::conditional<kMp, float, typename AccOf<T>::type>::type;
  using S = typename std::conditional<kMp, float, T>::type;
  if (req == OpReq::kNull) return;
  const T* wp = w.ptr<T>();
  const T* gp = g.ptr<T>();
  S* m = mean.ptr<S>();
  S* v = var.ptr<S>();
  float* mw = w32 ? w32->ptr<float>() : nullptr;
  const Sc* sc = scale.ptr<Sc>();
  T* o = out.ptr<T>();
  L::For(ctx, out.Size(), [=] WEFT_HD(int64_t i) {
    const A s = static_cast<A>(sc[0]);
    const A wi = kMp ? static_cast<A>(mw[i]) : static_cast<A>(wp[i]);
    if (AdamWSkips(s)) {
      Put(o, i, req, wi);
      return;
    }
    A mi = static_cast<A>(m[i]), vi = static_cast<A>(v[i]);
    const A nw = AdamWRule(wi, static_cast<A>(gp[i]), &mi, &vi, s, c.lr, c.wd, c.eta, c);
    m[i] = static_cast<S>(mi);
    v[i] = static_cast<S>(vi);
    if (kMp) mw[i] = static_cast<float>(nw);
    Put(o, i, req, nw);
  });
}

// _contrib_adamw_update (weight, grad, mean, var, rescale_grad) and
// _contrib_mp_adamw_update (weight, grad, mean, var, weight32, rescale_grad).
template <class L, bool kMp>
void AdamW(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in, const std::vector<OpReq>& req,
           const std::vector<TensorView>& out) {
  const UpdateArgs a = UpdateArgsOf(p);
  WEFT_LOOP_FLOAT_SWITCH(L, in[0].dtype, p.op()->name.c_str(), T, {
    using A = typename std::conditional<kMp, float, typename AccOf<T>::type>::type;
    using Sc = typename std::conditional<kMp, float, T>::type;
    AdamWTensor<L, T, kMp, Sc>(ctx, ConstsOf<A>(a), in[0], in[1], in[2], in[3], kMp ? &in[4] : nullptr,
                           in[kMp ? 5 : 4], req[0], out[0]);
  })
}

// _contrib_multi_adamw_update / _contrib_multi_mp_adamw_update: groups
// (weight, grad, mean, var[, weight32]), then rescale_grad (float32).
template <class L, bool kMp>
void MultiAdamW(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  const UpdateArgs a = UpdateArgsOf(p);
  const size_t stride = kMp ? 5 : 4;
  const TensorView& scale = in.back();
  for (size_t k = 0; k < out.size(); ++k) {
    WEFT_LOOP_FLOAT_SWITCH(L, in[k * stride].dtype, p.op()->name.c_str(), T, {
      using A = typename std::conditional<kMp, float, typename AccOf<T>::type>::type;
      Consts<A> c = ConstsOf<A>(a);
      c.lr = static_cast<A>(a.lrs[k]);
      c.wd = static_cast<A>(a.wds[k]);
      c.eta = static_cast<A>(a.etas[k]);
      AdamWTensor<L, T, kMp, float>(ctx, c, in[k * stride], in[k * stride + 1], in[k * stride + 2], in[k * stride + 3],
                             kMp ? &in[k * stride + 4] : nullptr, scale, req[k], out[k]);
    })
  }
}

// _contrib_group_adagrad_update (weight, grad, history): one index per row;
// history[row] (shape (rows, 1)) grows by the row's mean squared gradient.
template <class L>
void GroupAdagrad(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                  const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull) return;
  const UpdateArgs a = UpdateArgsOf(p);
  WEFT_LOOP_FLOAT_SWITCH(L, in[0].dtype, p.op()->name.c_str(), T, {
    using A = typename AccOf<T>::type;
    const Consts<A> c = ConstsOf<A>(a);
    const int64_t rows = in[0].shape[0];
    const int64_t cols = rows > 0 ? in[0].Size() / rows : 0;
    const T* w = in[0].ptr<T>();
    const T* g = in[1].ptr<T>();
    T* h = in[2].ptr<T>();
    T* o = out[0].ptr<T>();
    const OpReq r = req[0];
    L::For(ctx, rows, [=] WEFT_HD(int64_t row) {
      A sum = 0;
      for (int64_t j = 0; j < cols; ++j) {
        const A gg = ClipTo(c.rescale * static_cast<A>(g[row * cols + j]), c.clip);
        sum += gg * gg;
      }
      const A hist = static_cast<A>(h[row]) + (cols > 0 ? sum / static_cast<A>(cols) : A(0));
      h[row] = static_cast<T>(hist);
      const A div = std::sqrt(hist + c.eps);
      for (int64_t j = 0; j < cols; ++j) {
        const int64_t i = row * cols + j;
        const A gg = ClipTo(c.rescale * static_cast<A>(g[i]), c.clip);
        Put(o, i, r, static_cast<A>(w[i]) - c.lr * gg / div);
      }
    });
  })
}

// multi_lars (lrs, weights_sum_sq, grads_sum_sq, wds) -> the new lrs.
template <class L>
void MultiLars(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
               const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull) return;
  const double eta = p.GetFloat("eta"), eps = p.GetFloat("eps"), rescale = p.GetFloat("rescale_grad");
  WEFT_LOOP_FLOAT_SWITCH(L, in[0].dtype, p.op()->name.c_str(), T, {
    using A = typename AccOf<T>::type;
    const T* lr = in[0].ptr<T>();
    const T* ws = in[1].ptr<T>();
    const T* gs = in[2].ptr<T>();
    const T* wd = in[3].ptr<T>();
    T* o = out[0].ptr<T>();
    const A e = static_cast<A>(eta), ep = static_cast<A>(eps), rs = static_cast<A>(rescale);
    const OpReq r = req[0];
    L::For(ctx, out[0].Size(), [=] WEFT_HD(int64_t i) {
      Put(o, i, r, LarsRule(static_cast<A>(lr[i]), static_cast<A>(ws[i]), static_cast<A>(gs[i]),
                            static_cast<A>(wd[i]), e, ep, rs));
    });
  })
}

}  // namespace optim
}  // namespace weft
