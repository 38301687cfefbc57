// L2Normalization's arithmetic, shared by its CPU kernels
// (core/op/norm/l2_normalization.cc) and its GPU kernels (l2_normalization.cu):
// one index per normalised vector, sums in double.
#pragma once
#include <cmath>
#include <cstdint>

#include "core/op/common/hd.h"
#include "core/op/common/req_hd.h"

namespace weft {
namespace nnm {

// data seen as (outer, n, inner); vector k = o * inner + i is the n elements
// x[o, :, i], and its norm sits at norm[k].
//   instance: (N, prod(shape[1:]), 1)   norm (N,)
//   channel:  (N, C, prod(shape[2:]))   norm (N, 1, shape[2:]...)
//   spatial:  (N * C, prod(shape[2:]), 1) norm (N, C)
struct L2Layout {
  int64_t outer = 1, n = 1, inner = 1;
  double eps = 1e-10;
};

// y = x / sqrt(sum(x^2) + eps) along vector k; norm[k] = sqrt(sum(x^2) + eps).
template <typename T, typename A>
WEFT_HD inline void L2NormForwardAt(int64_t k, const L2Layout& l, const T* x, OpReq req_y, T* y, OpReq req_norm,
                                    T* norm) {
  const int64_t base = (k / l.inner) * l.n * l.inner + k % l.inner;
  double s = 0;
  for (int64_t j = 0; j < l.n; ++j) {
    const double v = static_cast<double>(static_cast<A>(x[base + j * l.inner]));
    s += v * v;
  }
  const double nv = sqrt(s + l.eps);
  if (req_norm != OpReq::kNull) Put(norm, k, req_norm, static_cast<A>(nv));
  if (req_y == OpReq::kNull) return;
  for (int64_t j = 0; j < l.n; ++j) {
    const int64_t e = base + j * l.inner;
    Put(y, e, req_y, static_cast<A>(static_cast<double>(static_cast<A>(x[e])) / nv));
  }
}

// gx = (gy - y * sum(gy * y)) / norm along vector k (y the forward output).
template <typename T, typename A>
WEFT_HD inline void L2NormBackwardAt(int64_t k, const L2Layout& l, const T* gy, const T* y, const T* norm, OpReq req,
                                     T* gx) {
  const int64_t base = (k / l.inner) * l.n * l.inner + k % l.inner;
  double dot = 0;
  for (int64_t j = 0; j < l.n; ++j) {
    const int64_t e = base + j * l.inner;
    dot += static_cast<double>(static_cast<A>(gy[e])) * static_cast<double>(static_cast<A>(y[e]));
  }
  const double nv = static_cast<double>(static_cast<A>(norm[k]));
  for (int64_t j = 0; j < l.n; ++j) {
    const int64_t e = base + j * l.inner;
    const double g = (static_cast<double>(static_cast<A>(gy[e])) - static_cast<double>(static_cast<A>(y[e])) * dot) / nv;
    Put(gx, e, req, static_cast<A>(g));
  }
}

}  // namespace nnm
}  // namespace weft
