// GPU kernels of the softmax family: softmax, log_softmax, SoftmaxActivation,
// SoftmaxOutput, softmax_cross_entropy and their backward operators
// (declarations: core/op/softmax/softmax.cc, softmax_output.cc; CPU kernels:
// softmax_cpu.cc, softmax_output_cpu.cc). A softmax row is reduced by one
// index looping over its n elements (Note [GPU kernel style] in
// core/op/common/gpu_kernel.h), running the CPU's row rule (Note [One softmax
// rule] in softmax_rules.h).
#include <cstring>
#include <string>

#include "core/op/softmax/softmax_cpu.h"
#include "core/op/common/gpu_kernel.h"
#include "core/op/softmax/softmax_rules.h"

namespace weft {
namespace cuda {
namespace {

// ---- softmax rows ----

// y (req)= softmax(x / t) (or its log) along the middle axis of (outer, n,
// inner). A is the compute type: AccT<TI> when TI == TO, else double (the CPU
// converts to double first when dtype= changes the output type). y may share
// memory with x: element j is read before it is written.
template <typename TI, typename TO, typename A>
void SoftmaxRowsT(const OpContext& ctx, const TI* x, TO* y, int64_t outer, int64_t n, int64_t inner,
                  double temperature, bool log, OpReq req, const int64_t* lens) {
  const A inv_t = static_cast<A>(1.0 / temperature);
  Launch(ctx, outer * inner, [=] WEFT_HD(int64_t r) {
    const int64_t len = lens != nullptr ? lens[r] : n;  // Note [Softmax with length] in softmax.cc
    nnx::SoftmaxRow<A>(x, (r / inner) * n * inner + r % inner, n, inner, len, inv_t, log,
                       [=](int64_t k, A v) { Assign(y, k, req, static_cast<TO>(v)); });
  });
}

void SoftmaxForward(const OpContext& ctx, const TensorView& x, int64_t outer, int64_t n, int64_t inner,
                    double temperature, bool log, OpReq req, const TensorView& y, const char* op,
                    const int64_t* lens = nullptr) {
  if (req == OpReq::kNull || y.Size() == 0) return;
  if (x.dtype == y.dtype) {
    WEFT_GPU_REAL_SWITCH(x.dtype, op, T, {
      SoftmaxRowsT<T, T, AccT<T>>(ctx, x.ptr<T>(), y.ptr<T>(), outer, n, inner, temperature, log, req, lens);
    })
  } else {  // dtype= another floating type (float16 data, float32 output, as with AMP)
    WEFT_GPU_REAL_SWITCH(x.dtype, op, TI, {
      WEFT_GPU_REAL_SWITCH(y.dtype, op, TO, {
        SoftmaxRowsT<TI, TO, double>(ctx, x.ptr<TI>(), y.ptr<TO>(), outer, n, inner, temperature, log, req,
                                      lens);
      })
    })
  }
}

// gx (req)= gradient of the softmax from its output y and out_grad gy. gx may
// share memory with gy (in place): the row sum is taken before any write.
template <typename T>
void SoftmaxGradRowsT(const OpContext& ctx, const T* gy, const T* y, T* gx, int64_t outer, int64_t n, int64_t inner,
                      double temperature, bool log, OpReq req, const int64_t* lens) {
  using A = AccT<T>;
  const A inv_t = static_cast<A>(1.0 / temperature);
  Launch(ctx, outer * inner, [=] WEFT_HD(int64_t r) {
    const int64_t len = lens != nullptr ? lens[r] : n;  // Note [Softmax with length] in softmax.cc
    nnx::SoftmaxGradRow<A>(gy, y, (r / inner) * n * inner + r % inner, n, inner, len, inv_t, log,
                           [=](int64_t k, A v) { Assign(gx, k, req, v); });
  });
}

void SoftmaxBackward(const OpContext& ctx, const TensorView& gy, const TensorView& y, int64_t outer, int64_t n,
                     int64_t inner, double temperature, bool log, OpReq req, const TensorView& gx, const char* op,
                     const int64_t* lens = nullptr) {
  if (req == OpReq::kNull || gx.Size() == 0) return;
  WEFT_GPU_REAL_SWITCH(gy.dtype, op, T, {
    SoftmaxGradRowsT<T>(ctx, gy.ptr<T>(), y.ptr<T>(), gx.ptr<T>(), outer, n, inner, temperature, log, req, lens);
  })
}

// ---- softmax / log_softmax ----

// lens[r] = length[r] clamped to [0, n] (a negative or NaN length is 0), as the CPU reads it.
template <typename L>
void ClampLengths(const OpContext& ctx, const L* l, int64_t rows, int64_t n, int64_t* lens) {
  Launch(ctx, rows, [=] WEFT_HD(int64_t r) {
    const double v = static_cast<double>(l[r]);
    lens[r] = !(v > 0) ? 0 : (v >= static_cast<double>(n) ? n : static_cast<int64_t>(v));
  });
}

// use_length (Note [Softmax with length] in softmax.cc): the length input as
// one valid count per row in [0, n], in scratch device memory; nullptr without.
const int64_t* RowLengths(const OpContext& ctx, const Params& p, const TensorView& length, int64_t n,
                          const char* op) {
  if (!p.GetBool("use_length")) return nullptr;
  const int64_t rows = length.Size();
  int64_t* lens = static_cast<int64_t*>(Scratch(ctx, static_cast<size_t>(rows > 0 ? rows : 1) * sizeof(int64_t)));
  switch (length.dtype) {
    case DType::kInt32: ClampLengths(ctx, length.ptr<int32_t>(), rows, n, lens); break;
    case DType::kInt64: ClampLengths(ctx, length.ptr<int64_t>(), rows, n, lens); break;
    case DType::kFloat32: ClampLengths(ctx, length.ptr<float>(), rows, n, lens); break;
    case DType::kFloat64: ClampLengths(ctx, length.ptr<double>(), rows, n, lens); break;
    default: nnx::CheckSoftmaxLengthType(op, length.dtype);
  }
  return lens;
}

// softmin is softmax with the temperature negated (sign -1).
template <bool kLog, int kSign>
void Softmax(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in, const std::vector<OpReq>& req,
             const std::vector<TensorView>& out) {
  const char* op = kSign < 0 ? "softmin" : (kLog ? "log_softmax" : "softmax");
  const nnx::AxisSplit s = nnx::SoftmaxAxisSplit(p, in[0].shape);
  const int64_t* lens = in.size() > 1 ? RowLengths(ctx, p, in[1], s.n, op) : nullptr;
  SoftmaxForward(ctx, in[0], s.outer, s.n, s.inner, kSign * nnx::SoftmaxTemperature(p), kLog, req[0], out[0], op,
                 lens);
}

template <bool kLog, int kSign>
void SoftmaxGrad(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                 const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  const char* op = kSign < 0 ? "_backward_softmin" : (kLog ? "_backward_log_softmax" : "_backward_softmax");
  const nnx::AxisSplit s = nnx::SoftmaxAxisSplit(p, in[0].shape);
  const int64_t* lens = in.size() > 2 ? RowLengths(ctx, p, in[2], s.n, op) : nullptr;
  SoftmaxBackward(ctx, in[0], in[1], s.outer, s.n, s.inner, kSign * nnx::SoftmaxTemperature(p), kLog, req[0], out[0],
                  op, lens);
}

// ---- SoftmaxActivation ----

void SoftmaxActivation(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                       const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  const nnx::AxisSplit s = nnx::SoftmaxActivationSplit(p, in[0].shape);
  SoftmaxForward(ctx, in[0], s.outer, s.n, s.inner, 1.0, false, req[0], out[0], "SoftmaxActivation");
}

void SoftmaxActivationGrad(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                           const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  const nnx::AxisSplit s = nnx::SoftmaxActivationSplit(p, in[0].shape);
  SoftmaxBackward(ctx, in[0], in[1], s.outer, s.n, s.inner, 1.0, false, req[0], out[0], "_backward_SoftmaxActivation");
}

// ---- SoftmaxOutput ----

void SoftmaxOutputForward(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                          const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  const nnx::AxisSplit s = nnx::SoftmaxOutputSplit(p, in[0].shape);
  SoftmaxForward(ctx, in[0], s.outer, s.n, s.inner, 1.0, false, req[0], out[0], "SoftmaxOutput");
}

// SoftmaxOutput's gradient, MXNet 1.x rules (see the comment of
// core/op/softmax/softmax_output_cpu.cc): out seen as (rows, k, s), one label per
// (row, s) position. One index per element. `count` (normalization=valid)
// depends on the labels, so a one-index kernel computes the scale first.
template <typename T>
void SoftmaxOutputGradT(const OpContext& ctx, const Params& p, const TensorView& out, const TensorView& label,
                        OpReq req, const TensorView& gx) {
  using A = AccT<T>;
  const T* op = out.ptr<T>();
  const T* lp = label.ptr<T>();
  T* gp = gx.ptr<T>();
  const int64_t total = out.Size();
  const nnx_cpu::SoftmaxOutputGradParams g = nnx_cpu::SoftmaxOutputGradParamsOf(p);
  const double grad_scale = g.grad_scale;
  if (label.shape == out.shape) {  // probabilities as labels
    const A sc = static_cast<A>(grad_scale);
    Launch(ctx, total, [=] WEFT_HD(int64_t i) { Assign(gp, i, req, (static_cast<A>(op[i]) - static_cast<A>(lp[i])) * sc); });
    return;
  }
  const bool multi = g.multi_output;
  const bool use_ignore = g.use_ignore;
  const int normalization = g.normalization;
  const int ignore = static_cast<int>(g.ignore_label);
  const double smooth = g.smooth_alpha;
  const nnx_cpu::SoftmaxOutputGradView v = nnx_cpu::SoftmaxOutputGradViewOf(g, out.shape);
  const int64_t rows = v.rows, k = v.k, s = v.s;
  const int64_t nlab = label.Size();
  double host_scale = grad_scale;
  if (normalization == 1) host_scale /= multi ? static_cast<double>(rows) : static_cast<double>(nlab);
  if (multi && normalization != 2) host_scale /= static_cast<double>(s);
  const double* dev_scale = nullptr;
  if (normalization == 2) {
    double* sc = static_cast<double*>(Scratch(ctx, sizeof(double)));
    Launch(ctx, 1, [=] WEFT_HD(int64_t) {
      int64_t valid = nlab;
      for (int64_t i = 0; i < nlab; ++i)
        if (static_cast<int>(static_cast<double>(lp[i])) == ignore) --valid;
      sc[0] = grad_scale / (valid == 0 ? 1.0 : static_cast<double>(valid));
    });
    dev_scale = sc;
  }
  const A alpha = static_cast<A>(smooth);
  const A spread = k > 1 ? static_cast<A>(smooth / static_cast<double>(k - 1)) : A(0);
  Launch(ctx, total, [=] WEFT_HD(int64_t idx) {
    const int64_t j = idx % s, c = (idx / s) % k, i = idx / s / k;
    const double l = static_cast<double>(lp[multi ? i * s + j : i]);
    const A sc = static_cast<A>(dev_scale != nullptr ? *dev_scale : host_scale);
    A v = A(0);
    if (!(use_ignore && static_cast<int>(l) == ignore)) {
      const int64_t li = static_cast<int64_t>(l);
      v = static_cast<A>(op[idx]);
      if (smooth > 0) v -= c == li ? A(1) - alpha : spread;
      else if (c == li) v -= A(1);
    }
    Assign(gp, idx, req, v * sc);
  });
}

void SoftmaxOutputBackward(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                           const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  // The label's gradient first, as on the CPU.
  if (req[1] != OpReq::kAddTo && req[1] != OpReq::kNull)
    gpu::MemsetAsync(out[1].data, 0, static_cast<size_t>(out[1].Size()) * DTypeSize(out[1].dtype), StreamOf(ctx));
  if (req[0] == OpReq::kNull || out[0].Size() == 0) return;
  WEFT_GPU_REAL_SWITCH(in[0].dtype, "_backward_SoftmaxOutput", T, {
    SoftmaxOutputGradT<T>(ctx, p, in[0], in[1], req[0], out[0]);
  })
}

// ---- softmax_cross_entropy ----

// The labels (any dtype) as doubles in dst, like nnx_cpu::ToDoubles.
void LabelsToDouble(const OpContext& ctx, const TensorView& label, double* dst) {
  WEFT_GPU_ALL_SWITCH(label.dtype, "softmax_cross_entropy", L, {
    const L* lp = label.ptr<L>();
    Launch(ctx, label.Size(), [=] WEFT_HD(int64_t i) { dst[i] = static_cast<double>(lp[i]); });
  })
}

// out[0] = sum over rows of -log softmax(row)[label]: one index runs the rows
// in order, in double, as the CPU does.
template <typename T>
void CrossEntropyT(const OpContext& ctx, const TensorView& x, const double* lab, OpReq req, const TensorView& out) {
  const int64_t n = x.shape[0], k = x.shape[1];
  const T* xp = x.ptr<T>();
  T* op = out.ptr<T>();
  Launch(ctx, 1, [=] WEFT_HD(int64_t) {
    Assign(op, 0, req, static_cast<T>(nnx::SoftmaxCrossEntropyLoss<AccT<T>>(xp, lab, n, k)));
  });
}

void SoftmaxCrossEntropy(const OpContext& ctx, const Params&, const std::vector<TensorView>& in,
                         const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull) return;
  double* lab = static_cast<double*>(Scratch(ctx, static_cast<size_t>(in[1].Size() + 1) * sizeof(double)));
  LabelsToDouble(ctx, in[1], lab);
  WEFT_GPU_REAL_SWITCH(in[0].dtype, "softmax_cross_entropy", T, { CrossEntropyT<T>(ctx, in[0], lab, req[0], out[0]); })
}

// gx = (softmax(x) - onehot(label)) * gout[0], one index per row.
template <typename T>
void CrossEntropyGradT(const OpContext& ctx, const TensorView& gout, const TensorView& x, const double* lab,
                       OpReq req, const TensorView& gx) {
  const int64_t k = x.shape[1];
  const T* gp0 = gout.ptr<T>();
  const T* xp = x.ptr<T>();
  T* gp = gx.ptr<T>();
  using A = AccT<T>;
  Launch(ctx, x.shape[0], [=] WEFT_HD(int64_t i) {
    T* gi = gp + i * k;
    nnx::SoftmaxCrossEntropyGradRow<A>(xp + i * k, k, lab[i], static_cast<A>(gp0[0]),
                                       [=](int64_t j, A v) { Assign(gi, j, req, v); });
  });
}

void SoftmaxCrossEntropyGrad(const OpContext& ctx, const Params&, const std::vector<TensorView>& in,
                             const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  if (req[1] != OpReq::kNull && req[1] != OpReq::kAddTo)
    gpu::MemsetAsync(out[1].data, 0, static_cast<size_t>(out[1].Size()) * DTypeSize(out[1].dtype), StreamOf(ctx));
  if (req[0] == OpReq::kNull) return;
  double* lab = static_cast<double*>(Scratch(ctx, static_cast<size_t>(in[2].Size() + 1) * sizeof(double)));
  LabelsToDouble(ctx, in[2], lab);
  WEFT_GPU_REAL_SWITCH(in[1].dtype, "_backward_softmax_cross_entropy", T, {
    CrossEntropyGradT<T>(ctx, in[0], in[1], lab, req[0], out[0]);
  })
}

}  // namespace

WEFT_GPU_KERNEL_EXPORT(SoftmaxGpu, (Softmax<false, 1>))  // softmax
WEFT_GPU_KERNEL_EXPORT(LogSoftmaxGpu, (Softmax<true, 1>))  // log_softmax
WEFT_GPU_KERNEL_EXPORT(BackwardSoftmaxGpu, (SoftmaxGrad<false, 1>))  // _backward_softmax
WEFT_GPU_KERNEL_EXPORT(BackwardLogSoftmaxGpu, (SoftmaxGrad<true, 1>))  // _backward_log_softmax
WEFT_GPU_KERNEL_EXPORT(SoftminGpu, (Softmax<false, -1>))  // softmin
WEFT_GPU_KERNEL_EXPORT(BackwardSoftminGpu, (SoftmaxGrad<false, -1>))  // _backward_softmin
WEFT_GPU_KERNEL_EXPORT(SoftmaxActivationGpu, SoftmaxActivation)  // SoftmaxActivation
WEFT_GPU_KERNEL_EXPORT(BackwardSoftmaxActivationGpu, SoftmaxActivationGrad)  // _backward_SoftmaxActivation
WEFT_GPU_KERNEL_EXPORT(SoftmaxOutputGpu, SoftmaxOutputForward)  // SoftmaxOutput
WEFT_GPU_KERNEL_EXPORT(BackwardSoftmaxOutputGpu, SoftmaxOutputBackward)  // _backward_SoftmaxOutput
WEFT_GPU_KERNEL_EXPORT(SoftmaxCrossEntropyGpu, SoftmaxCrossEntropy)  // softmax_cross_entropy
WEFT_GPU_KERNEL_EXPORT(BackwardSoftmaxCrossEntropyGpu, SoftmaxCrossEntropyGrad)  // _backward_softmax_cross_entropy

}  // namespace cuda
}  // namespace weft
