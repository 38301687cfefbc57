// LayerNorm and InstanceNorm on CPU: per-row mean and (biased) variance in
// double, rows split across threads. The gamma/beta gradients are reduced
// over rows in one serial pass before the data gradient is written (gx may
// share memory with gy).
#include <cmath>
#include <vector>

#include "core/op/common/dnnl_nn.h"
#include "core/op/common/nnx_cpu.h"
#include "core/op/norm/norm_cpu.h"
#include "core/op/op_util.h"
#include "core/base/checked_math.h"

namespace weft {
namespace nnx_cpu {
namespace {

template <typename T>
void ForwardT(const RowNormArgs& a, const TensorView& x, const TensorView& gamma, const TensorView& beta,
              const std::vector<OpReq>& req, const TensorView& y, const TensorView& mean, const TensorView& stat) {
  using A = Acc<T>;
  const T* xp = x.ptr<T>();
  const T* g = gamma.ptr<T>();
  const T* b = beta.ptr<T>();
  T* yp = y.ptr<T>();
  T* mp = mean.ptr<T>();
  T* sp = stat.ptr<T>();
  ParallelFor(a.outer * a.inner, SaturatingMul(a.n, 6), [&](int64_t r0, int64_t r1) {
    for (int64_t r = r0; r < r1; ++r) {
      const int64_t base = (r / a.inner) * a.n * a.inner + r % a.inner;
      double s = 0;
      for (int64_t j = 0; j < a.n; ++j) s += static_cast<double>(static_cast<A>(xp[base + j * a.inner]));
      const double m = a.n > 0 ? s / static_cast<double>(a.n) : 0.0;
      double ss = 0;
      for (int64_t j = 0; j < a.n; ++j) {
        const double d = static_cast<double>(static_cast<A>(xp[base + j * a.inner])) - m;
        ss += d * d;
      }
      const double var = a.n > 0 ? ss / static_cast<double>(a.n) : 0.0;
      const double sd = std::sqrt(var + a.eps);
      const A inv = static_cast<A>(1.0 / sd), am = static_cast<A>(m);
      const int64_t ch = a.channels > 0 ? r % a.channels : -1;
      for (int64_t j = 0; j < a.n; ++j) {
        const int64_t k = ch >= 0 ? ch : j;
        const A v = (static_cast<A>(xp[base + j * a.inner]) - am) * inv * static_cast<A>(g[k]) + static_cast<A>(b[k]);
        Store(req[0], yp + base + j * a.inner, v);
      }
      Store(req[1], mp + r, am);
      Store(req[2], sp + r, static_cast<A>(a.store_var ? var : sd));
    }
  });
}

template <typename T>
void BackwardT(const RowNormArgs& a, const TensorView& gy, const TensorView& x, const TensorView& gamma,
               const TensorView& mean, const TensorView& stat, const std::vector<OpReq>& req, const TensorView& gx,
               const TensorView& ggamma, const TensorView& gbeta) {
  using A = Acc<T>;
  const T* gp = gy.ptr<T>();
  const T* xp = x.ptr<T>();
  const T* g = gamma.ptr<T>();
  const T* mp = mean.ptr<T>();
  const T* sp = stat.ptr<T>();
  const int64_t rows = a.outer * a.inner;
  auto row_sd = [&](int64_t r) {
    const double s = static_cast<double>(static_cast<A>(sp[r]));
    return a.store_var ? std::sqrt(s + a.eps) : s;
  };
  if (req[1] != OpReq::kNull || req[2] != OpReq::kNull) {
    const size_t np = static_cast<size_t>(gamma.Size());
    std::vector<double> dg(np, 0.0), db(np, 0.0);
    for (int64_t r = 0; r < rows; ++r) {
      const int64_t base = (r / a.inner) * a.n * a.inner + r % a.inner;
      const double m = static_cast<double>(static_cast<A>(mp[r])), inv = 1.0 / row_sd(r);
      const int64_t ch = a.channels > 0 ? r % a.channels : -1;
      for (int64_t j = 0; j < a.n; ++j) {
        const size_t k = static_cast<size_t>(ch >= 0 ? ch : j);
        const double gv = static_cast<double>(static_cast<A>(gp[base + j * a.inner]));
        dg[k] += gv * (static_cast<double>(static_cast<A>(xp[base + j * a.inner])) - m) * inv;
        db[k] += gv;
      }
    }
    for (size_t k = 0; k < np; ++k) {
      if (req[1] != OpReq::kNull) Store(req[1], ggamma.ptr<T>() + k, static_cast<A>(dg[k]));
      if (req[2] != OpReq::kNull) Store(req[2], gbeta.ptr<T>() + k, static_cast<A>(db[k]));
    }
  }
  if (req[0] == OpReq::kNull) return;
  T* gxp = gx.ptr<T>();
  ParallelFor(rows, SaturatingMul(a.n, 8), [&](int64_t r0, int64_t r1) {
    std::vector<double> gg(static_cast<size_t>(a.n)), xh(static_cast<size_t>(a.n));
    for (int64_t r = r0; r < r1; ++r) {
      const int64_t base = (r / a.inner) * a.n * a.inner + r % a.inner;
      const double m = static_cast<double>(static_cast<A>(mp[r])), inv = 1.0 / row_sd(r);
      const int64_t ch = a.channels > 0 ? r % a.channels : -1;
      double mg = 0, mgx = 0;
      for (int64_t j = 0; j < a.n; ++j) {
        const size_t k = static_cast<size_t>(j);
        const int64_t gi = ch >= 0 ? ch : j;
        xh[k] = (static_cast<double>(static_cast<A>(xp[base + j * a.inner])) - m) * inv;
        gg[k] = static_cast<double>(static_cast<A>(gp[base + j * a.inner])) * static_cast<double>(static_cast<A>(g[gi]));
        mg += gg[k];
        mgx += gg[k] * xh[k];
      }
      const double nn = a.n > 0 ? static_cast<double>(a.n) : 1.0;
      mg /= nn;
      mgx /= nn;
      for (int64_t j = 0; j < a.n; ++j) {
        const size_t k = static_cast<size_t>(j);
        Store(req[0], gxp + base + j * a.inner, static_cast<A>((gg[k] - mg - xh[k] * mgx) * inv));
      }
    }
  });
}

}  // namespace

void RowNormForward(const RowNormArgs& a, const TensorView& x, const TensorView& gamma, const TensorView& beta,
                    const std::vector<OpReq>& req, const TensorView& y, const TensorView& mean,
                    const TensorView& stat) {
#if WEFT_USE_DNNL  // LayerNorm only (InstanceNorm stores the variance); Note [NN kernel paths] in nn_backend.cc
  if (nn_cpu::UseDnnl() && dnnl_cpu::LayerNormForward(a, x, gamma, beta, req, y, mean, stat)) return;
#endif
  WEFT_NNX_FLOAT_SWITCH(x.dtype, "LayerNorm", T, { ForwardT<T>(a, x, gamma, beta, req, y, mean, stat); })
}

void RowNormBackward(const RowNormArgs& a, const TensorView& gy, const TensorView& x, const TensorView& gamma,
                     const TensorView& mean, const TensorView& stat, const std::vector<OpReq>& req,
                     const TensorView& gx, const TensorView& ggamma, const TensorView& gbeta) {
  WEFT_NNX_FLOAT_SWITCH(x.dtype, "_backward_LayerNorm", T, {
    BackwardT<T>(a, gy, x, gamma, mean, stat, req, gx, ggamma, gbeta);
  })
}

}  // namespace nnx_cpu
}  // namespace weft
