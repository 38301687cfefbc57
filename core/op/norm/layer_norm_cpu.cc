// LayerNorm and InstanceNorm on CPU: the row rules of norm_rules.h (Note [One
// normalisation rule]), rows split across threads. The gamma/beta gradients,
// one parameter per task, are reduced before the data gradient is written (gx
// may share memory with gy).
#include <vector>

#include "core/op/common/dnnl_nn.h"
#include "core/op/common/nnx_cpu.h"
#include "core/op/common/nn_path.h"
#include "core/op/norm/norm_cpu.h"
#include "core/op/norm/norm_rules.h"
#include "core/op/op_util.h"
#include "core/base/checked_math.h"

namespace weft {
namespace nnx_cpu {
namespace {

template <typename T>
void ForwardT(const RowNormArgs& a, const TensorView& x, const TensorView& gamma, const TensorView& beta,
              const std::vector<OpReq>& req, const TensorView& y, const TensorView& mean, const TensorView& stat) {
  const T* xp = x.ptr<T>();
  const T* g = gamma.ptr<T>();
  const T* b = beta.ptr<T>();
  T* yp = y.ptr<T>();
  T* mp = mean.ptr<T>();
  T* sp = stat.ptr<T>();
  ParallelFor(a.outer * a.inner, SaturatingMul(a.n, 6), [&](int64_t r0, int64_t r1) {
    for (int64_t r = r0; r < r1; ++r) nnx::RowNormForwardAt(a, r, xp, g, b, req[0], yp, req[1], mp, req[2], sp);
  });
}

template <typename T>
void BackwardT(const RowNormArgs& a, const TensorView& gy, const TensorView& x, const TensorView& gamma,
               const TensorView& mean, const TensorView& stat, const std::vector<OpReq>& req, const TensorView& gx,
               const TensorView& ggamma, const TensorView& gbeta) {
  const T* gp = gy.ptr<T>();
  const T* xp = x.ptr<T>();
  const T* g = gamma.ptr<T>();
  const T* mp = mean.ptr<T>();
  const T* sp = stat.ptr<T>();
  const int64_t rows = a.outer * a.inner;
  // The parameters' gradients first: gx may share memory with gy.
  if (req[1] != OpReq::kNull || req[2] != OpReq::kNull) {
    T* ggp = ggamma.ptr<T>();
    T* gbp = gbeta.ptr<T>();
    const int64_t np = gamma.Size();
    ParallelFor(np, SaturatingMul(rows / (a.channels > 0 ? a.channels : 1), a.channels > 0 ? a.n * 4 : 4),
                [&](int64_t k0, int64_t k1) {
                  for (int64_t k = k0; k < k1; ++k)
                    nnx::RowNormParamGradAt(a, k, gp, xp, mp, sp, req[1], ggp, req[2], gbp);
                });
  }
  if (req[0] == OpReq::kNull) return;
  T* gxp = gx.ptr<T>();
  ParallelFor(rows, SaturatingMul(a.n, 8), [&](int64_t r0, int64_t r1) {
    for (int64_t r = r0; r < r1; ++r) nnx::RowNormDataGradAt(a, r, gp, xp, g, mp, sp, req[0], gxp);
  });
}

}  // namespace

void RowNormForward(const RowNormArgs& a, const TensorView& x, const TensorView& gamma, const TensorView& beta,
                    const std::vector<OpReq>& req, const TensorView& y, const TensorView& mean,
                    const TensorView& stat) {
#if WEFT_USE_DNNL  // LayerNorm only (InstanceNorm stores the variance); Note [NN kernel paths] in core/op/common/nn_path.cc
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
