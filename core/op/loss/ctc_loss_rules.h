// The CTC forward-backward recursion (Graves et al. 2006), shared by CTCLoss's
// CPU kernel (core/op/loss/ctc_loss.cc) and its GPU kernel (ctc_loss.cu): one
// index per sequence of the batch, in log space and double precision.
#pragma once
#include <cmath>
#include <cstdint>

#include "core/op/common/hd.h"
#include "core/op/common/req_hd.h"

namespace weft {
namespace nnm {

// data (T, N, C) holds unnormalised activations (softmax is applied here);
// labels (N, Lmax) channel indices, blank the reserved channel (0 or C - 1).
// A sequence's labels end at its label length, or at the first `pad` value
// (0 for blank 'first', -1 for 'last') without label lengths.
struct CtcGeom {
  int64_t T = 1, N = 1, C = 1, Lmax = 0;
  int64_t blank = 0;
  double pad = 0;
  // Work per sequence, in doubles: lse (T), alpha and beta (T * S each), the
  // extended label sequence (S), with S = 2 * Lmax + 1.
  WEFT_HD int64_t S() const { return 2 * Lmax + 1; }
  WEFT_HD int64_t Work() const { return T + 2 * T * S() + S(); }
};

constexpr double kCtcLogZero = -1e300;

WEFT_HD inline double CtcLogAdd(double a, double b) {
  if (a < b) {
    const double t = a;
    a = b;
    b = t;
  }
  if (b <= kCtcLogZero) return a;
  return a + log1p(exp(b - a));
}

// Sequence b: loss[b] (req_loss)= -log p(label | data), and, when req_grad
// is not kNull, grad[:, b, :] = d loss / d data (softmax minus the label
// occupancies; zero past the sequence's length). lengths may be null.
template <typename T, typename A>
WEFT_HD inline void CtcSequence(int64_t b, const CtcGeom& g, const T* x, const double* labels,
                                const double* data_len, const double* label_len, double* work, OpReq req_loss,
                                T* loss, OpReq req_grad, T* grad) {
  const int64_t C = g.C, N = g.N, Smax = g.S();
  double* lse = work + b * g.Work();
  double* alpha = lse + g.T;
  double* beta = alpha + g.T * Smax;
  double* ext = beta + g.T * Smax;
  // Lengths.
  int64_t Tb = g.T;
  if (data_len != nullptr) {
    const double v = data_len[b];
    Tb = !(v > 0) ? 0 : (v >= static_cast<double>(g.T) ? g.T : static_cast<int64_t>(v));
  }
  int64_t U = 0;
  if (label_len != nullptr) {
    const double v = label_len[b];
    U = !(v > 0) ? 0 : (v >= static_cast<double>(g.Lmax) ? g.Lmax : static_cast<int64_t>(v));
  } else {
    while (U < g.Lmax && labels[b * g.Lmax + U] != g.pad) ++U;
  }
  const int64_t S = 2 * U + 1;
  for (int64_t s = 0; s < S; ++s) {
    ext[s] = s % 2 == 0 ? static_cast<double>(g.blank) : labels[b * g.Lmax + s / 2];
    // Out of range or NaN (every comparison false): the blank.
    if (!(ext[s] >= 0 && ext[s] < static_cast<double>(C))) ext[s] = static_cast<double>(g.blank);
  }
  // log-sum-exp of each step's activations: log p_t(k) = x - lse[t].
  for (int64_t t = 0; t < Tb; ++t) {
    const T* row = x + (t * N + b) * C;
    double m = kCtcLogZero;
    for (int64_t k = 0; k < C; ++k) {
      const double v = static_cast<double>(static_cast<A>(row[k]));
      m = v > m ? v : m;
    }
    double s = 0;
    for (int64_t k = 0; k < C; ++k) s += exp(static_cast<double>(static_cast<A>(row[k])) - m);
    lse[t] = m + log(s);
  }
  auto lp = [&](int64_t t, int64_t s) {
    return static_cast<double>(static_cast<A>(x[(t * N + b) * C + static_cast<int64_t>(ext[s])])) - lse[t];
  };
  auto skip = [&](int64_t s) {  // the transition s - 2 -> s is allowed
    return s >= 2 && ext[s] != static_cast<double>(g.blank) && ext[s] != ext[s - 2];
  };
  // alpha_t(s): log probability of the prefixes ending at s at step t (emission included).
  double logp = kCtcLogZero;
  if (Tb > 0) {
    for (int64_t s = 0; s < S; ++s) alpha[s] = s < 2 ? lp(0, s) : kCtcLogZero;
    for (int64_t t = 1; t < Tb; ++t)
      for (int64_t s = 0; s < S; ++s) {
        double a = alpha[(t - 1) * Smax + s];
        if (s >= 1) a = CtcLogAdd(a, alpha[(t - 1) * Smax + s - 1]);
        if (skip(s)) a = CtcLogAdd(a, alpha[(t - 1) * Smax + s - 2]);
        alpha[t * Smax + s] = a <= kCtcLogZero ? kCtcLogZero : a + lp(t, s);
      }
    logp = alpha[(Tb - 1) * Smax + S - 1];
    if (S >= 2) logp = CtcLogAdd(logp, alpha[(Tb - 1) * Smax + S - 2]);
  }
  if (req_loss != OpReq::kNull) Put(loss, b, req_loss, static_cast<A>(logp <= kCtcLogZero ? HUGE_VAL : -logp));
  if (req_grad == OpReq::kNull) return;
  // beta_t(s): log probability of the suffixes after step t from s (emission at t excluded).
  for (int64_t t = Tb - 1; t >= 0; --t)
    for (int64_t s = 0; s < S; ++s) {
      double v;
      if (t == Tb - 1) {
        v = (s == S - 1 || s == S - 2) ? 0.0 : kCtcLogZero;
      } else {
        v = beta[(t + 1) * Smax + s] + lp(t + 1, s);
        if (s + 1 < S) v = CtcLogAdd(v, beta[(t + 1) * Smax + s + 1] + lp(t + 1, s + 1));
        if (s + 2 < S && skip(s + 2)) v = CtcLogAdd(v, beta[(t + 1) * Smax + s + 2] + lp(t + 1, s + 2));
        if (v <= kCtcLogZero) v = kCtcLogZero;
      }
      beta[t * Smax + s] = v;
    }
  for (int64_t t = 0; t < g.T; ++t)
    for (int64_t k = 0; k < C; ++k) {
      double v = 0;
      if (t < Tb) {
        v = exp(static_cast<double>(static_cast<A>(x[(t * N + b) * C + k])) - lse[t]);
        if (logp > kCtcLogZero) {
          double occ = kCtcLogZero;
          for (int64_t s = 0; s < S; ++s)
            if (static_cast<int64_t>(ext[s]) == k) occ = CtcLogAdd(occ, alpha[t * Smax + s] + beta[t * Smax + s]);
          if (occ > kCtcLogZero) v -= exp(occ - logp);
        }
      }
      Put(grad, (t * N + b) * C + k, req_grad, static_cast<A>(v));
    }
}

}  // namespace nnm
}  // namespace weft
