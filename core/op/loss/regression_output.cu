// GPU kernels of the regression outputs (core/op/loss/regression_output.cc; CPU:
// core/op/loss/loss_cpu.cc, whose numeric rules these repeat).
#include <cmath>
#include <cstring>
#include <limits>
#include <string>

#include "core/op/common/gpu_kernel.h"
#include "core/op/elemwise/elemwise_math.cuh"

namespace weft {
namespace cuda {
namespace {

// std::max(m, v) as the CPU kernels use it (NaN in v is skipped, as there).
template <typename A>
WEFT_HD inline A MaxOf(A m, A v) { return m < v ? v : m; }

using elem::SignOf;

// ---- regression outputs ----

enum class Regression : int { kLinear, kMAE, kLogistic };

// The kind is a runtime argument (one kernel per dtype for the three ops).
void RegressionForwardImpl(Regression kind, const OpContext& ctx, const std::vector<TensorView>& in,
                           const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull) return;
  const OpReq r = req[0];
  const bool logistic = kind == Regression::kLogistic;
  WEFT_GPU_REAL_SWITCH(in[0].dtype, "RegressionOutput", T, {
    const T* xp = in[0].ptr<T>();
    T* yp = out[0].ptr<T>();
    Launch(ctx, out[0].Size(), [=] WEFT_HD(int64_t i) {
      using A = AccT<T>;
      const A v = static_cast<A>(xp[i]);
      Assign(yp, i, r, logistic ? A(1) / (A(1) + std::exp(-v)) : v);
    });
  })
}

// Inputs (label, output); gx = (out - label) or sign(out - label) (mae), times
// grad_scale / (label.size / label.shape[0]); the label's gradient is zero.
void RegressionBackwardImpl(Regression kind, const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                            const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  const TensorView& label = in[0];
  if (req[0] != OpReq::kNull) {
    const int64_t rows = label.ndim() > 0 ? label.shape[0] : 1;
    const double num_output = rows == 0 ? 1.0 : static_cast<double>(label.Size()) / static_cast<double>(rows);
    const double scale = p.GetFloat("grad_scale") / num_output;
    const OpReq r = req[0];
    const bool mae = kind == Regression::kMAE;
    WEFT_GPU_REAL_SWITCH(in[1].dtype, "_backward_reg_out", T, {
      const AccT<T> sc = static_cast<AccT<T>>(static_cast<T>(scale));
      const T* lp = label.ptr<T>();
      const T* op = in[1].ptr<T>();
      T* gp = out[0].ptr<T>();
      Launch(ctx, out[0].Size(), [=] WEFT_HD(int64_t i) {
        const AccT<T> d = static_cast<AccT<T>>(op[i]) - static_cast<AccT<T>>(lp[i]);
        Assign(gp, i, r, (mae ? SignOf(d) : d) * sc);
      });
    })
  }
  if (req[1] != OpReq::kAddTo && req[1] != OpReq::kNull)
    gpu::MemsetAsync(out[1].data, 0, static_cast<size_t>(out[1].Size()) * DTypeSize(out[1].dtype), StreamOf(ctx));
}

template <Regression kKind>
void RegressionForward(const OpContext& ctx, const Params&, const std::vector<TensorView>& in,
                       const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  RegressionForwardImpl(kKind, ctx, in, req, out);
}

template <Regression kKind>
void RegressionBackward(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                        const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  RegressionBackwardImpl(kKind, ctx, p, in, req, out);
}

}  // namespace

WEFT_GPU_KERNEL_EXPORT(LinearRegressionOutputGpu, RegressionForward<Regression::kLinear>)  // LinearRegressionOutput
WEFT_GPU_KERNEL_EXPORT(MAERegressionOutputGpu, RegressionForward<Regression::kMAE>)  // MAERegressionOutput
WEFT_GPU_KERNEL_EXPORT(LogisticRegressionOutputGpu, RegressionForward<Regression::kLogistic>)  // LogisticRegressionOutput
WEFT_GPU_KERNEL_EXPORT(BackwardLinearRegOutGpu, RegressionBackward<Regression::kLinear>)  // _backward_linear_reg_out
WEFT_GPU_KERNEL_EXPORT(BackwardMaeRegOutGpu, RegressionBackward<Regression::kMAE>)  // _backward_mae_reg_out
WEFT_GPU_KERNEL_EXPORT(BackwardLogisticRegOutGpu, RegressionBackward<Regression::kLogistic>)  // _backward_logistic_reg_out

}  // namespace cuda
}  // namespace weft
