// CPU kernels of the regression outputs (LinearRegressionOutput,
// MAERegressionOutput, LogisticRegressionOutput), smooth_l1, MakeLoss and
// add_n. Element-wise; write mode is a runtime argument.
#pragma once
#include <vector>

#include "core/opdef/op_def.h"
#include "core/opdef/tensor_view.h"

namespace weft {
namespace nnx_cpu {

enum class RegressionKind : int { kLinear, kMAE, kLogistic };

// y = x (linear, mae) or sigmoid(x) (logistic).
void RegressionForward(RegressionKind kind, const TensorView& x, OpReq req, const TensorView& y);
// gx = (out - label) (linear, logistic) or sign(out - label) (mae), times
// grad_scale / (label.Size() / label.shape[0]).
void RegressionBackward(RegressionKind kind, const TensorView& label, const TensorView& out, double grad_scale,
                        OpReq req, const TensorView& gx);

// y = 0.5 (sigma x)^2 where |x| < 1/sigma^2, else |x| - 0.5/sigma^2.
void SmoothL1Forward(const TensorView& x, double sigma, OpReq req, const TensorView& y);
// gx = gy * (sigma^2 x where |x| < 1/sigma^2, else sign(x)).
void SmoothL1Backward(const TensorView& gy, const TensorView& x, double sigma, OpReq req, const TensorView& gx);

// MakeLoss's gradient: grad_scale everywhere, divided by x.shape[0]
// (normalization 1, batch) or by max(1, count(x > valid_thresh)) (2, valid).
void MakeLossBackward(const TensorView& x, double grad_scale, double valid_thresh, int normalization, OpReq req,
                      const TensorView& gx);


}  // namespace nnx_cpu
}  // namespace weft
