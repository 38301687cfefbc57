// GroupNorm's arithmetic, shared by its CPU kernels (core/op/norm/group_norm.cc)
// and its GPU kernels (group_norm.cu): one index per (sample, group) row, or
// per group for the parameter gradients; sums in double.
#pragma once
#include <cmath>
#include <cstdint>

#include "core/op/common/hd.h"
#include "core/op/common/req_hd.h"

namespace weft {
namespace nnm {

// data (N, C, spatial...) seen as N * G contiguous rows of m = C / G * spatial
// elements; row r belongs to group r % G, whose gamma[g] and beta[g] scale
// and shift it (MXNet 1.x: gamma and beta are (num_groups,)).
struct GroupLayout {
  int64_t rows = 1, groups = 1, m = 1;
  double eps = 1e-5;
};

// y = (x - mean) / std * gamma[g] + beta[g]; mean[r], std[r] = sqrt(var + eps)
// with the population variance.
template <typename T, typename A>
WEFT_HD inline void GroupNormForwardAt(int64_t r, const GroupLayout& l, const T* x, const T* gamma, const T* beta,
                                       OpReq req_y, T* y, OpReq req_m, T* mean, OpReq req_s, T* stdv) {
  const T* row = x + r * l.m;
  double s = 0;
  for (int64_t j = 0; j < l.m; ++j) s += static_cast<double>(static_cast<A>(row[j]));
  const double mu = l.m > 0 ? s / static_cast<double>(l.m) : 0.0;
  double ss = 0;
  for (int64_t j = 0; j < l.m; ++j) {
    const double d = static_cast<double>(static_cast<A>(row[j])) - mu;
    ss += d * d;
  }
  const double sd = sqrt((l.m > 0 ? ss / static_cast<double>(l.m) : 0.0) + l.eps);
  if (req_m != OpReq::kNull) Put(mean, r, req_m, static_cast<A>(mu));
  if (req_s != OpReq::kNull) Put(stdv, r, req_s, static_cast<A>(sd));
  if (req_y == OpReq::kNull) return;
  const int64_t g = r % l.groups;
  const double ga = static_cast<double>(static_cast<A>(gamma[g])), be = static_cast<double>(static_cast<A>(beta[g]));
  for (int64_t j = 0; j < l.m; ++j)
    Put(y, r * l.m + j, req_y, static_cast<A>((static_cast<double>(static_cast<A>(row[j])) - mu) / sd * ga + be));
}

// gx = gamma[g] / std * (gy - mean(gy) - xhat * mean(gy * xhat)) along row r,
// xhat = (x - mean) / std.
template <typename T, typename A>
WEFT_HD inline void GroupNormBackwardDataAt(int64_t r, const GroupLayout& l, const T* gy, const T* x, const T* gamma,
                                            const T* mean, const T* stdv, OpReq req, T* gx) {
  const double mu = static_cast<double>(static_cast<A>(mean[r])), sd = static_cast<double>(static_cast<A>(stdv[r]));
  const double ga = static_cast<double>(static_cast<A>(gamma[r % l.groups]));
  double sg = 0, sgx = 0;
  for (int64_t j = 0; j < l.m; ++j) {
    const int64_t e = r * l.m + j;
    const double g = static_cast<double>(static_cast<A>(gy[e]));
    sg += g;
    sgx += g * (static_cast<double>(static_cast<A>(x[e])) - mu) / sd;
  }
  const double inv_m = l.m > 0 ? 1.0 / static_cast<double>(l.m) : 0.0;
  for (int64_t j = 0; j < l.m; ++j) {
    const int64_t e = r * l.m + j;
    const double xh = (static_cast<double>(static_cast<A>(x[e])) - mu) / sd;
    const double v = ga / sd * (static_cast<double>(static_cast<A>(gy[e])) - sg * inv_m - xh * sgx * inv_m);
    Put(gx, e, req, static_cast<A>(v));
  }
}

// ggamma[g] = sum of gy * xhat, gbeta[g] = sum of gy over group g's rows.
template <typename T, typename A>
WEFT_HD inline void GroupNormBackwardParamAt(int64_t g, const GroupLayout& l, const T* gy, const T* x, const T* mean,
                                             const T* stdv, OpReq req_g, T* ggamma, OpReq req_b, T* gbeta) {
  double sgx = 0, sg = 0;
  for (int64_t r = g; r < l.rows; r += l.groups) {
    const double mu = static_cast<double>(static_cast<A>(mean[r])), sd = static_cast<double>(static_cast<A>(stdv[r]));
    for (int64_t j = 0; j < l.m; ++j) {
      const int64_t e = r * l.m + j;
      const double d = static_cast<double>(static_cast<A>(gy[e]));
      sg += d;
      sgx += d * (static_cast<double>(static_cast<A>(x[e])) - mu) / sd;
    }
  }
  if (req_g != OpReq::kNull) Put(ggamma, g, req_g, static_cast<A>(sgx));
  if (req_b != OpReq::kNull) Put(gbeta, g, req_b, static_cast<A>(sg));
}

}  // namespace nnm
}  // namespace weft
