// The log-likelihood of a marked self-exciting Hawkes process with
// exponential kernels (_contrib_hawkesll) and its gradient
// (_contrib_backward_hawkesll), one sample per call, shared by the CPU kernels
// (hawkes.cc) and the GPU kernels (hawkes.cu).
//
// Note [Hawkes log-likelihood]
// Sample i has background intensities mu[i, k], branching ratios alpha[k],
// decays beta[k], initial states phi[k] = state[i, k], and valid_length[i]
// events with inter-arrival times lags[i, j] and marks marks[i, j] in [0, K).
// The intensity of mark k at time t is
//   lambda_k(t) = mu[i, k] + alpha[k] beta[k] sum_{events of mark k before t} exp(-beta[k] (t - t_event)),
// kept recursively in phi[k] (phi[k] <- 1 + phi[k] exp(-beta[k] d) at each event of mark k, d the time
// since the previous one). loglike = sum_events log lambda_c(t_j) - sum_k integral_0^max_time lambda_k,
// and out_state[i, k] = phi[k] decayed to max_time[i]. The gradient is that of loglike with respect
// to mu, alpha and beta (MXNet's backward: out_state's gradient and the other inputs' are not used);
// dphi holds d phi / d beta.
#pragma once
#include <cmath>
#include <cstdint>
#include <vector>

#include "core/op/common/hd.h"
#include "core/opdef/tensor_view.h"

namespace weft {
namespace signal {

template <typename T>
struct HawkesInputs {
  const T* mu;      // (N, K)
  const T* alpha;   // (K,)
  const T* beta;    // (K,)
  const T* state;   // (N, K)
  const T* lags;    // (N, T)
  const int32_t* marks;  // (N, T)
  const T* valid_length;  // (N,)
  const T* max_time;      // (N,)
  int64_t K, T_len;
};

// The eight inputs (lda, alpha, beta, state, lags, marks, valid_length,
// max_time) from in[first] on (host code of both kernels).
template <typename T>
HawkesInputs<T> HawkesInputsOf(const std::vector<TensorView>& in, size_t first) {
  HawkesInputs<T> h;
  h.mu = in[first].ptr<T>();
  h.alpha = in[first + 1].ptr<T>();
  h.beta = in[first + 2].ptr<T>();
  h.state = in[first + 3].ptr<T>();
  h.lags = in[first + 4].ptr<T>();
  h.marks = in[first + 5].ptr<int32_t>();
  h.valid_length = in[first + 6].ptr<T>();
  h.max_time = in[first + 7].ptr<T>();
  h.K = in[first].shape[1];
  h.T_len = in[first + 4].shape[1];
  return h;
}

// loglike of sample i; phi and last (K each) are scratch, phi ends as out_state's row.
template <typename T>
WEFT_HD inline double HawkesLogLike(const HawkesInputs<T>& h, int64_t i, double* phi, double* last) {
  const int64_t K = h.K;
  for (int64_t k = 0; k < K; ++k) {
    phi[k] = static_cast<double>(h.state[i * K + k]);
    last[k] = 0;
  }
  double ll = 0, t = 0;
  const int64_t n = static_cast<int64_t>(h.valid_length[i]);
  for (int64_t j = 0; j < n; ++j) {
    const int64_t c = h.marks[i * h.T_len + j];
    t += static_cast<double>(h.lags[i * h.T_len + j]);
    const double d = t - last[c], a = h.alpha[c], b = h.beta[c], m = h.mu[i * K + c];
    const double ed = std::exp(-b * d);
    ll += std::log(m + a * b * phi[c] * ed) - (m * d + a * phi[c] * (1 - ed));
    phi[c] = 1 + phi[c] * ed;
    last[c] = t;
  }
  for (int64_t k = 0; k < K; ++k) {
    const double d = static_cast<double>(h.max_time[i]) - last[k], ed = std::exp(-static_cast<double>(h.beta[k]) * d);
    ll -= static_cast<double>(h.mu[i * K + k]) * d + static_cast<double>(h.alpha[k]) * phi[k] * (1 - ed);
    phi[k] *= ed;
  }
  return ll;
}

// d loglike_i / d (mu[i, :], alpha, beta) times g, into gm, ga, gb (K each); phi, dphi, last scratch.
template <typename T>
WEFT_HD inline void HawkesGrad(const HawkesInputs<T>& h, int64_t i, double g, double* phi, double* dphi,
                               double* last, double* gm, double* ga, double* gb) {
  const int64_t K = h.K;
  for (int64_t k = 0; k < K; ++k) {
    phi[k] = static_cast<double>(h.state[i * K + k]);
    dphi[k] = last[k] = gm[k] = ga[k] = gb[k] = 0;
  }
  double t = 0;
  const int64_t n = static_cast<int64_t>(h.valid_length[i]);
  for (int64_t j = 0; j < n; ++j) {
    const int64_t c = h.marks[i * h.T_len + j];
    t += static_cast<double>(h.lags[i * h.T_len + j]);
    const double d = t - last[c], a = h.alpha[c], b = h.beta[c], m = h.mu[i * K + c];
    const double ed = std::exp(-b * d);
    const double lda = m + a * b * phi[c] * ed;
    gm[c] += 1 / lda - d;
    ga[c] += b * phi[c] * ed / lda - phi[c] * (1 - ed);
    gb[c] += a * ed * (phi[c] * (1 - b * d) + b * dphi[c]) / lda - a * (dphi[c] * (1 - ed) + phi[c] * d * ed);
    dphi[c] = ed * (dphi[c] - d * phi[c]);
    phi[c] = 1 + phi[c] * ed;
    last[c] = t;
  }
  for (int64_t k = 0; k < K; ++k) {
    const double a = h.alpha[k], b = h.beta[k];
    const double d = static_cast<double>(h.max_time[i]) - last[k], ed = std::exp(-b * d);
    gm[k] = g * (gm[k] - d);
    ga[k] = g * (ga[k] - phi[k] * (1 - ed));
    gb[k] = g * (gb[k] - a * (dphi[k] * (1 - ed) + phi[k] * d * ed));
  }
}

}  // namespace signal
}  // namespace weft
