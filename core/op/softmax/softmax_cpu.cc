// softmax / log_softmax rows and softmax_cross_entropy. SoftmaxOutput's
// gradient: softmax_output.cc. Types: Note [NN kernel arithmetic].
#include "core/op/softmax/softmax_cpu.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "core/op/common/copy_cpu.h"
#include "core/op/common/nnx_cpu.h"
#include "core/op/op_util.h"

namespace weft {
namespace nnx_cpu {
namespace {

template <typename T>
void SoftmaxRows(const T* x, T* y, int64_t outer, int64_t n, int64_t inner, double temperature, bool log,
                 OpReq req, const int64_t* lens) {
  using A = Acc<T>;
  const A inv_t = static_cast<A>(1.0 / temperature);
  ParallelFor(outer * inner, n * 8, [&](int64_t b, int64_t e) {
    std::vector<A> buf(static_cast<size_t>(n));
    for (int64_t r = b; r < e; ++r) {
      const int64_t base = (r / inner) * n * inner + r % inner;
      const int64_t len = lens != nullptr ? lens[r] : n;  // Note [Softmax with length]
      // The largest x / t is subtracted: max(x) for t > 0, min(x) for t < 0 (softmin).
      A m = inv_t > A(0) ? -std::numeric_limits<A>::infinity() : std::numeric_limits<A>::infinity();
      for (int64_t j = 0; j < len; ++j) {
        const A v = static_cast<A>(x[base + j * inner]);
        m = inv_t > A(0) ? std::max(m, v) : std::min(m, v);
      }
      double sum = 0;
      for (int64_t j = 0; j < len; ++j) {
        const A v = (static_cast<A>(x[base + j * inner]) - m) * inv_t;
        buf[static_cast<size_t>(j)] = v;
        sum += static_cast<double>(std::exp(v));
      }
      if (log) {
        const A ls = static_cast<A>(std::log(sum));
        for (int64_t j = 0; j < len; ++j) Store(req, y + base + j * inner, buf[static_cast<size_t>(j)] - ls);
      } else {
        const A inv = static_cast<A>(1.0 / sum);
        for (int64_t j = 0; j < len; ++j)
          Store(req, y + base + j * inner, std::exp(buf[static_cast<size_t>(j)]) * inv);
      }
      for (int64_t j = len; j < n; ++j) Store(req, y + base + j * inner, A(0));
    }
  });
}

template <typename T>
void SoftmaxGradRows(const T* gy, const T* y, T* gx, int64_t outer, int64_t n, int64_t inner, double temperature,
                     bool log, OpReq req, const int64_t* lens) {
  using A = Acc<T>;
  const A inv_t = static_cast<A>(1.0 / temperature);
  ParallelFor(outer * inner, n * 6, [&](int64_t b, int64_t e) {
    std::vector<A> g(static_cast<size_t>(n)), o(static_cast<size_t>(n));
    for (int64_t r = b; r < e; ++r) {
      const int64_t base = (r / inner) * n * inner + r % inner;
      const int64_t len = lens != nullptr ? lens[r] : n;  // Note [Softmax with length]
      double s = 0;
      for (int64_t j = 0; j < len; ++j) {
        const size_t k = static_cast<size_t>(j);
        g[k] = static_cast<A>(gy[base + j * inner]);
        o[k] = static_cast<A>(y[base + j * inner]);
        s += log ? static_cast<double>(g[k]) : static_cast<double>(g[k]) * static_cast<double>(o[k]);
      }
      const A sa = static_cast<A>(s);
      for (int64_t j = 0; j < len; ++j) {
        const size_t k = static_cast<size_t>(j);
        const A v = log ? g[k] - std::exp(o[k]) * sa : o[k] * (g[k] - sa);
        Store(req, gx + base + j * inner, v * inv_t);
      }
      for (int64_t j = len; j < n; ++j) Store(req, gx + base + j * inner, A(0));
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

namespace {

int64_t ClipLabel(double l, int64_t k) {
  if (!(l >= 0)) return 0;  // negative and NaN
  // Compared before converting: an infinite or huge label has no int64 value (Note [Float to int conversions]).
  if (l >= static_cast<double>(k - 1)) return k - 1;
  return static_cast<int64_t>(l);
}

}  // namespace

void SoftmaxCrossEntropyForward(const TensorView& x, const TensorView& label, OpReq req, const TensorView& out) {
  const int64_t n = x.shape[0], k = x.shape[1];
  const std::vector<double> lab = ToDoubles(label);
  WEFT_NNX_FLOAT_SWITCH(x.dtype, "softmax_cross_entropy", T, {
    const T* xp = x.ptr<T>();
    double loss = 0;
    for (int64_t i = 0; i < n; ++i) {
      const T* row = xp + i * k;
      double m = -std::numeric_limits<double>::infinity();
      for (int64_t j = 0; j < k; ++j) m = std::max(m, static_cast<double>(static_cast<Acc<T>>(row[j])));
      double s = 0;
      for (int64_t j = 0; j < k; ++j) s += std::exp(static_cast<double>(static_cast<Acc<T>>(row[j])) - m);
      const double xl = static_cast<double>(static_cast<Acc<T>>(row[ClipLabel(lab[static_cast<size_t>(i)], k)]));
      loss -= xl - m - std::log(s);
    }
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
      std::vector<A> p(static_cast<size_t>(k));
      for (int64_t i = b; i < e; ++i) {
        const T* row = xp + i * k;
        A m = -std::numeric_limits<A>::infinity();
        for (int64_t j = 0; j < k; ++j) m = std::max(m, static_cast<A>(row[j]));
        double s = 0;
        for (int64_t j = 0; j < k; ++j) {
          p[static_cast<size_t>(j)] = std::exp(static_cast<A>(row[j]) - m);
          s += static_cast<double>(p[static_cast<size_t>(j)]);
        }
        const A inv = static_cast<A>(1.0 / s);
        const int64_t l = ClipLabel(lab[static_cast<size_t>(i)], k);
        for (int64_t j = 0; j < k; ++j) {
          const A v = p[static_cast<size_t>(j)] * inv - (j == l ? A(1) : A(0));
          Store(req_x, gp + i * k + j, v * g);
        }
      }
    });
  })
}

}  // namespace nnx_cpu
}  // namespace weft
