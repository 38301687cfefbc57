// The per-element rules of the optimizer updates: the fused updates of
// core/op/optim/optimizer_update.cc (sgd ... signsgd, at the bottom) and the
// updates declared in optim_single.cc and optim_multi.cc (ftml, rmspropalex, the
// lamb phases, the mp_* multi-precision updates, the multi_*/preloaded_multi_*
// aggregated updates, multi_lars, the contrib adamw/lamb/group_adagrad
// updates), with MXNet 1.9.1's formulas (optimizer_op-inl.h,
// contrib/adamw-inl.h, contrib/multi_lamb-inl.h, contrib/optimizer_op-inl.h).
//
// Note [One optimizer rule]
// Each rule is one WEFT_HD function of the compute type A, called by the CPU
// kernels (update_drivers_cpu.cc, optimizer_update_cpu.cc) and the GPU kernels
// (update_drivers.cu, optimizer_update.cu; the first two through the drivers
// of update_drivers.h), so both devices compute with the same
// arithmetic in the same order. "No clipping" (a negative bound) is an
// infinite bound (Note [Branch-free updates] in optimizer_update_cpu.cc).
#pragma once
#include <cmath>
#include <cstdint>

#include "core/op/common/hd.h"

namespace weft {
namespace optim {

// min(max(v, -c), c) keeping NaN, as std::max(std::min(v, c), -c).
template <typename A>
WEFT_HD inline A ClipTo(A v, A c) {
  const A lo = c < v ? c : v;
  return lo < -c ? -c : lo;
}

// The constants of one update, converted once to the compute type A.
template <typename A>
struct Consts {
  A lr = 0, wd = 0, rescale = 1, clip = 0, momentum = 0, beta1 = 0, beta2 = 0, eps = 0;
  A gamma1 = 0, gamma2 = 0, clip_w = 0, eta = 0, lower = -1, upper = -1;
  A corr1 = 1, corr2 = 1;  // 1 - beta1^t, 1 - beta2^t (ftml, lamb with bias correction)
};

// sgd_update (MXNet SGDKernel, MP_SGDKernel on the float32 master weight).
template <typename A>
WEFT_HD inline A SgdRule(A w, A g, A lr, A wd, const Consts<A>& c) {
  return (A(1) - lr * wd) * w - lr * ClipTo(c.rescale * g, c.clip);
}

// sgd_mom_update (SGDMomKernel, MP_SGDMomKernel): *mom is updated.
template <typename A>
WEFT_HD inline A SgdMomRule(A w, A g, A* mom, A lr, A wd, const Consts<A>& c) {
  const A m = c.momentum * *mom - lr * wd * w - lr * ClipTo(c.rescale * g, c.clip);
  *mom = m;
  return w + m;
}

// nag_mom_update (NAGMomKernel, MP_NAGMomKernel).
template <typename A>
WEFT_HD inline A NagRule(A w, A g, A* mom, const Consts<A>& c) {
  const A gg = ClipTo(c.rescale * g, c.clip) + c.wd * w;
  const A m = c.momentum * *mom + gg;
  *mom = m;
  return w - c.lr * (c.momentum * m + gg);
}

// ftml_update: d, v, z are updated.
template <typename A>
WEFT_HD inline A FtmlRule(A w, A g, A* d, A* v, A* z, const Consts<A>& c) {
  const A gg = ClipTo(c.rescale * g + c.wd * w, c.clip);
  const A vn = c.beta2 * *v + (A(1) - c.beta2) * gg * gg;
  const A dt = c.corr1 / c.lr * (std::sqrt(vn / c.corr2) + c.eps);
  const A zn = c.beta1 * *z + (A(1) - c.beta1) * gg - (dt - c.beta1 * *d) * w;
  *v = vn;
  *z = zn;
  *d = dt;
  return -zn / dt;
}

// rmspropalex_update (Graves 2013, Eq. 38-45): n, g, delta are updated.
template <typename A>
WEFT_HD inline A RmspropAlexRule(A w, A g, A* n, A* gs, A* delta, const Consts<A>& c) {
  const A gg = ClipTo(c.rescale * g + c.wd * w, c.clip);
  const A nn = (A(1) - c.gamma1) * gg * gg + c.gamma1 * *n;
  const A gn = (A(1) - c.gamma1) * gg + c.gamma1 * *gs;
  const A dn = c.gamma2 * *delta - c.lr * (gg / std::sqrt(nn - gn * gn + c.eps));
  *n = nn;
  *gs = gn;
  *delta = dn;
  return ClipTo(w + dn, c.clip_w);
}

// lamb_update_phase1: mean, var are updated; returns the direction g.
template <typename A>
WEFT_HD inline A LambPhase1Rule(A w, A g, A* mean, A* var, A wd, const Consts<A>& c) {
  const A gg = ClipTo(c.rescale * g, c.clip);
  const A m = c.beta1 * *mean + (A(1) - c.beta1) * gg;
  const A v = c.beta2 * *var + (A(1) - c.beta2) * gg * gg;
  *mean = m;
  *var = v;
  return (m / c.corr1) / (std::sqrt(v / c.corr2) + c.eps) + wd * w;
}

// The learning rate lamb_update_phase2 applies: lr * r1 / r2 with r1 (the
// weight's norm) held in [lower_bound, upper_bound] where a bound is >= 0,
// and lr itself when either norm is 0.
template <typename A>
WEFT_HD inline A LambRate(A r1, A r2, A lr, const Consts<A>& c) {
  if (c.lower >= A(0) && r1 < c.lower) r1 = c.lower;
  if (c.upper >= A(0) && r1 > c.upper) r1 = c.upper;
  return (r1 == A(0) || r2 == A(0)) ? lr : lr * r1 / r2;
}

// _contrib_adamw_update (MPAdamWKernel): mean, var are updated. `scale` is
// the rescale_grad input.
template <typename A>
WEFT_HD inline A AdamWRule(A w, A g, A* mean, A* var, A scale, A lr, A wd, A eta, const Consts<A>& c) {
  const A gg = ClipTo(scale * g, c.clip);
  const A m = c.beta1 * *mean + (A(1) - c.beta1) * gg;
  const A v = c.beta2 * *var + (A(1) - c.beta2) * gg * gg;
  *mean = m;
  *var = v;
  return w - eta * (lr * m / (std::sqrt(v) + c.eps) + wd * w);
}

// The adamw updates are skipped when rescale_grad is NaN (MXNet 1.9.1
// contrib/adamw.cc: std::isnan(scale)).
template <typename A>
WEFT_HD inline bool AdamWSkips(A scale) {
  return !(scale == scale);
}

// multi_lars: the new learning rate of one layer.
template <typename A>
WEFT_HD inline A LarsRule(A lr, A w_sum_sq, A g_sum_sq, A wd, A eta, A eps, A rescale) {
  const A w_norm = std::sqrt(w_sum_sq);
  const bool valid = w_norm > A(0) && g_sum_sq > A(0);
  return valid ? lr * eta * w_norm / (std::sqrt(g_sum_sq) * rescale + wd * w_norm + eps) : lr;
}

// ---------------------------------------------------------------------------
// The fused updates of optimizer_update.cc (sgd, sgd_mom, nag_mom, adam,
// rmsprop, ftrl, signum, signsgd), run by optimizer_update_cpu.cc and
// optimizer_update.cu: one rule per element for both devices.

enum class OptimizerKind : int { kSGD, kSGDMom, kNAG, kAdam, kRMSProp, kFtrl, kSignum, kSignSGD };

// How many state arrays (inputs after weight and grad) the update keeps.
constexpr int FusedUpdateStates(OptimizerKind k) {
  return k == OptimizerKind::kAdam || k == OptimizerKind::kFtrl ? 2
         : k == OptimizerKind::kSGD || k == OptimizerKind::kSignSGD ? 0
                                                                    : 1;
}

// The settings in the update's compute type A, converted once on the host
// (optimizer_update_cpu.h: OptimizerConstsOf). "No clipping" is an infinite
// bound (Note [Branch-free updates] in optimizer_update_cpu.cc).
template <typename A>
struct OptimizerConsts {
  A lr, wd, rescale, clip, momentum, beta1, beta2, eps, gamma1, clip_w, lamda1, beta, wd_lh;
};

template <typename A>
WEFT_HD inline A SignOf(A v) {
  return v > A(0) ? A(1) : v < A(0) ? A(-1) : A(0);
}

// One element of update K with MXNet 1.x's formulas (optimizer_op-inl.h):
// w the weight, gr = rescale_grad * grad, *s0 / *s1 its first and second
// states (FusedUpdateStates(K) of them are read and updated); returns the new
// weight. K is a template argument so the CPU loop has no branch on it.
template <OptimizerKind K, typename A>
WEFT_HD inline A FusedUpdateRule(A wi, A gr, A* s0, A* s1, const OptimizerConsts<A>& c) {
  switch (K) {
    case OptimizerKind::kSGD:
      return (A(1) - c.lr * c.wd) * wi - c.lr * ClipTo(gr, c.clip);
    case OptimizerKind::kSGDMom: {
      const A m = c.momentum * *s0 - c.lr * c.wd * wi - c.lr * ClipTo(gr, c.clip);
      *s0 = m;
      return wi + m;
    }
    case OptimizerKind::kNAG: {
      const A gg = ClipTo(gr, c.clip) + c.wd * wi;
      const A m = c.momentum * *s0 + gg;
      *s0 = m;
      return wi - c.lr * (c.momentum * m + gg);
    }
    case OptimizerKind::kAdam: {
      const A gg = ClipTo(gr + c.wd * wi, c.clip);
      const A m = c.beta1 * *s0 + (A(1) - c.beta1) * gg;
      const A v = c.beta2 * *s1 + (A(1) - c.beta2) * gg * gg;
      *s0 = m;
      *s1 = v;
      return wi - c.lr * m / (std::sqrt(v) + c.eps);
    }
    case OptimizerKind::kRMSProp: {
      const A gg = ClipTo(gr + c.wd * wi, c.clip);
      const A n = (A(1) - c.gamma1) * gg * gg + c.gamma1 * *s0;
      *s0 = n;
      return ClipTo(wi - c.lr * gg / std::sqrt(n + c.eps), c.clip_w);
    }
    case OptimizerKind::kFtrl: {
      const A gg = ClipTo(gr, c.clip);
      const A n0 = *s1;
      const A z = *s0 + gg - (std::sqrt(n0 + gg * gg) - std::sqrt(n0)) * wi / c.lr;
      const A n = n0 + gg * gg;
      *s0 = z;
      *s1 = n;
      return std::fabs(z) > c.lamda1 ? (SignOf(z) * c.lamda1 - z) / ((c.beta + std::sqrt(n)) / c.lr + c.wd) : A(0);
    }
    case OptimizerKind::kSignum: {
      const A m = c.momentum * *s0 - (A(1) - c.momentum) * c.wd * wi - (A(1) - c.momentum) * ClipTo(gr, c.clip);
      *s0 = m;
      return (A(1) - c.lr * c.wd_lh) * wi + c.lr * SignOf(m);
    }
    case OptimizerKind::kSignSGD:
      return (A(1) - c.lr * c.wd) * wi - c.lr * SignOf(gr);
  }
  return wi;
}

// Element i of update K over storage T: loads the states, applies the rule,
// stores the states back; returns the new weight (the caller stores it
// honouring req).
template <OptimizerKind K, typename A, typename T>
WEFT_HD inline A FusedUpdateAt(const T* w, const T* g, T* s0, T* s1, int64_t i, const OptimizerConsts<A>& c) {
  constexpr int kStates = FusedUpdateStates(K);
  A st0 = kStates >= 1 ? static_cast<A>(s0[i]) : A(0);
  A st1 = kStates >= 2 ? static_cast<A>(s1[i]) : A(0);
  const A nw = FusedUpdateRule<K, A>(static_cast<A>(w[i]), c.rescale * static_cast<A>(g[i]), &st0, &st1, c);
  if (kStates >= 1) s0[i] = static_cast<T>(st0);
  if (kStates >= 2) s1[i] = static_cast<T>(st1);
  return nw;
}

}  // namespace optim
}  // namespace weft
