// The per-element rules of the optimizer updates declared in
// core/op/optim/optim_single.cc and optim_multi.cc (ftml, rmspropalex, the
// lamb phases, the mp_* multi-precision updates, the multi_*/preloaded_multi_*
// aggregated updates, multi_lars, the contrib adamw/lamb/group_adagrad
// updates), with MXNet 1.9.1's formulas (optimizer_op-inl.h,
// contrib/adamw-inl.h, contrib/multi_lamb-inl.h, contrib/optimizer_op-inl.h).
//
// Note [One optimizer rule]
// Each rule is one WEFT_HD function of the compute type A, called by the CPU
// kernels (update_drivers_cpu.cc) and the GPU kernels (update_drivers.cu) through the
// drivers of update_drivers.h, so both devices compute with the same
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

}  // namespace optim
}  // namespace weft
