// softmax / log_softmax rows and softmax_cross_entropy: the rules of
// softmax_rules.h (Note [One softmax rule]) over threads. SoftmaxOutput's
// gradient: softmax_output_cpu.cc. Types: Note [NN kernel arithmetic].
#include "core/op/softmax/softmax_cpu.h"

#include <vector>

#include "core/op/common/copy_cpu.h"
#include "core/op/common/nnx_cpu.h"
#include "core/op/op_util.h"
#include "core/op/softmax/softmax_rules.h"

namespace weft {
namespace nnx_cpu {
namespace {

// The row rules of softmax_rules.h (Note [One softmax rule]) over threads.
template <typename T>
void SoftmaxRows(const T* x, T* y, int64_t outer, int64_t n, int64_t inner, double temperature, bool log,
                 OpReq req, const int64_t* lens) {
  using A = Acc<T>;
  const A inv_t = static_cast<A>(1.0 / temperature);
  auto put = [req, y](int64_t k, A v) { Store(req, y + k, v); };
  ParallelFor(outer * inner, n * 8, [&](int64_t b, int64_t e) {
    for (int64_t r = b; r < e; ++r) {
      const int64_t len = lens != nullptr ? lens[r] : n;  // Note [Softmax with length]
      nnx::SoftmaxRow<A>(x, (r / inner) * n * inner + r % inner, n, inner, len, inv_t, log, put);
    }
  });
}

template <typename T>
void SoftmaxGradRows(const T* gy, const T* y, T* gx, int64_t outer, int64_t n, int64_t inner, double temperature,
                     bool log, OpReq req, const int64_t* lens) {
  using A = Acc<T>;
  const A inv_t = static_cast<A>(1.0 / temperature);
  auto put = [req, gx](int64_t k, A v) { Store(req, gx + k, v); };
  ParallelFor(outer * inner, n * 6, [&](int64_t b, int64_t e) {
    for (int64_t r = b; r < e; ++r) {
      const int64_t len = lens != nullptr ? lens[r] : n;  // Note [Softmax with length]
      nnx::SoftmaxGradRow<A>(gy, y, (r / inner) * n * inner + r % inner, n, inner, len, inv_t, log, put);
    }
  });
}

}  // namespace

void SoftmaxForward(const TensorView& x, int64_t outer, int64_t n, int64_t inner, double temperature, bool log,
                    OpReq req, const TensorView& y, const int64_t* lens) {
  if (req == OpReq::kNull || y.Size() == 0) return;
  if (x.dtype != y.dtype) {  // dtype=...: compute in double, convert once
    std::vector<double> tmp(static_cast<size_t>(x.Size()));
    TensorView t{tmp.data(), DType::kFloat64, x.shape};
    tensor_cpu::ConvertCopy(x, OpReq::kWriteTo, t);
    SoftmaxRows<double>(tmp.data(), tmp.data(), outer, n, inner, temperature, log, OpReq::kWriteTo, lens);
    tensor_cpu::ConvertCopy(t, req, y);
    return;
  }
  WEFT_NNX_FLOAT_SWITCH(x.dtype, "softmax", T, {
    SoftmaxRows<T>(x.ptr<T>(), y.ptr<T>(), outer, n, inner, temperature, log, req, lens);
  })
}

void SoftmaxBackward(const TensorView& gy, const TensorView& y, int64_t outer, int64_t n, int64_t inner,
                     double temperature, bool log, OpReq req, const TensorView& gx, const int64_t* lens) {
  if (req == OpReq::kNull || gx.Size() == 0) return;
  WEFT_NNX_FLOAT_SWITCH(gy.dtype, "_backward_softmax", T, {
    SoftmaxGradRows<T>(gy.ptr<T>(), y.ptr<T>(), gx.ptr<T>(), outer, n, inner, temperature, log, req, lens);
  })
}

std::vector<int64_t> SoftmaxRowLengths(const TensorView& length, int64_t n) {
  const std::vector<double> v = ToDoubles(length);
  std::vector<int64_t> lens(v.size());
  for (size_t i = 0; i < v.size(); ++i) {
    // compared before converting: a huge or infinite length has no int64 value
    lens[i] = !(v[i] > 0) ? 0 : (v[i] >= static_cast<double>(n) ? n : static_cast<int64_t>(v[i]));
  }
  return lens;
}

void SoftmaxCrossEntropyForward(const TensorView& x, const TensorView& label, OpReq req, const TensorView& out) {
  const int64_t n = x.shape[0], k = x.shape[1];
  const std::vector<double> lab = ToDoubles(label);
  WEFT_NNX_FLOAT_SWITCH(x.dtype, "softmax_cross_entropy", T, {
    const double loss = nnx::SoftmaxCrossEntropyLoss<Acc<T>>(x.ptr<T>(), lab.data(), n, k);
    Store(req, out.ptr<T>(), static_cast<Acc<T>>(loss));
  })
}

void SoftmaxCrossEntropyBackward(const TensorView& gout, const TensorView& x, const TensorView& label, OpReq req_x,
                                 const TensorView& gx, OpReq req_label, const TensorView& glabel) {
  const int64_t n = x.shape[0], k = x.shape[1];
  const std::vector<double> lab = ToDoubles(label);
  if (req_label != OpReq::kNull && req_label != OpReq::kAddTo) tensor_cpu::FillCPU(glabel, req_label, 0.0);
  if (req_x == OpReq::kNull) return;
  WEFT_NNX_FLOAT_SWITCH(x.dtype, "_backward_softmax_cross_entropy", T, {
    using A = Acc<T>;
    const A g = static_cast<A>(gout.ptr<T>()[0]);
    const T* xp = x.ptr<T>();
    T* gp = gx.ptr<T>();
    ParallelFor(n, k * 8, [&](int64_t b, int64_t e) {
      for (int64_t i = b; i < e; ++i) {
        T* gi = gp + i * k;
        nnx::SoftmaxCrossEntropyGradRow<A>(xp + i * k, k, lab[static_cast<size_t>(i)], g,
                                           [req_x, gi](int64_t j, A v) { Store(req_x, gi + j, v); });
      }
    });
  })
}

}  // namespace nnx_cpu
}  // namespace weft
