#include "core/op/loss/loss_cpu.h"

#include <cmath>
#include <type_traits>

#include "core/op/common/nnx_cpu.h"

namespace weft {
namespace nnx_cpu {
namespace {

template <typename A>
A Sign(A v) { return v > A(0) ? A(1) : v < A(0) ? A(-1) : A(0); }

}  // namespace

void RegressionForward(RegressionKind kind, const TensorView& x, OpReq req, const TensorView& y) {
  WEFT_NNX_FLOAT_SWITCH(x.dtype, "RegressionOutput", T, {
    using A = Acc<T>;
    if (kind == RegressionKind::kLogistic) Map1<T>(x, req, y, 8, [](A v) { return A(1) / (A(1) + std::exp(-v)); });
    else Map1<T>(x, req, y, 1, [](A v) { return v; });
  })
}

void RegressionBackward(RegressionKind kind, const TensorView& label, const TensorView& out, double grad_scale,
                        OpReq req, const TensorView& gx) {
  const int64_t rows = label.ndim() > 0 ? label.shape[0] : 1;
  const double num_output = rows == 0 ? 1.0 : static_cast<double>(label.Size()) / static_cast<double>(rows);
  WEFT_NNX_FLOAT_SWITCH(out.dtype, "_backward_reg_out", T, {
    using A = Acc<T>;
    const A sc = static_cast<A>(grad_scale / num_output);
    if (kind == RegressionKind::kMAE) Map2<T>(out, label, req, gx, 1, [sc](A o, A l) { return Sign(o - l) * sc; });
    else Map2<T>(out, label, req, gx, 1, [sc](A o, A l) { return (o - l) * sc; });
  })
}

void SmoothL1Forward(const TensorView& x, double sigma, OpReq req, const TensorView& y) {
  WEFT_NNX_FLOAT_SWITCH(x.dtype, "smooth_l1", T, {
    using A = Acc<T>;
    const A s2 = static_cast<A>(sigma * sigma);
    Map1<T>(x, req, y, 2, [s2](A v) {
      const A a = std::fabs(v);
      return a < A(1) / s2 ? A(0.5) * v * v * s2 : a - A(0.5) / s2;
    });
  })
}

void SmoothL1Backward(const TensorView& gy, const TensorView& x, double sigma, OpReq req, const TensorView& gx) {
  WEFT_NNX_FLOAT_SWITCH(x.dtype, "_backward_smooth_l1", T, {
    using A = Acc<T>;
    const A s2 = static_cast<A>(sigma * sigma);
    Map2<T>(gy, x, req, gx, 2, [s2](A g, A v) { return g * (std::fabs(v) < A(1) / s2 ? v * s2 : Sign(v)); });
  })
}

void MakeLossBackward(const TensorView& x, double grad_scale, double valid_thresh, int normalization, OpReq req,
                      const TensorView& gx) {
  WEFT_NNX_FLOAT_SWITCH(x.dtype, "_backward_MakeLoss", T, {
    using A = Acc<T>;
    double scale = grad_scale;
    if (normalization == 1) {
      scale /= x.ndim() > 0 && x.shape[0] > 0 ? static_cast<double>(x.shape[0]) : 1.0;
    } else if (normalization == 2) {
      const T* xp = x.ptr<T>();
      int64_t valid = 0;
      for (int64_t i = 0; i < x.Size(); ++i) valid += static_cast<double>(static_cast<A>(xp[i])) > valid_thresh;
      scale /= static_cast<double>(valid > 0 ? valid : 1);
    }
    const A sc = static_cast<A>(scale);
    Map1<T>(x, req, gx, 1, [sc](A) { return sc; });
  })
}

}  // namespace nnx_cpu
}  // namespace weft
