// How the softmax ops see their data: the (outer, n, inner) view around the
// softmax axis (core/op/common/nnx_util.h AxisSplit) and the temperature, decoded
// from an op's parameters. Defined next to the ops' declarations (softmax.cc,
// softmax_output.cc) and shared with their GPU kernels
// (core/op/softmax/softmax.cu), which must split the data exactly as the
// CPU does. Host code: called before any kernel is launched.
//
// Below them, the rows' arithmetic, which the CPU kernels (softmax_cpu.cc) and
// the GPU kernels (softmax.cu) both run (Note [One softmax rule]).
#pragma once
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

#include "core/base/shape.h"
#include "core/op/common/hd.h"
#include "core/op/common/nnx_util.h"

namespace weft {
namespace nnx {

// softmax, log_softmax: the temperature (None: 1); throws kInvalidArgument
// unless it is a non-zero number.
double SoftmaxTemperature(const Params& p);
// The second-order gradient does not take use_length=True; throws kInvalidArgument.
void CheckSoftmaxNoLength(const Params& p);
// use_length (Note [Softmax with length] in softmax.cc): the length input's
// shape for data (the data's without the axis; (1,) for 1-D data), and its
// dtypes (int32, int64, float32, float64; kDType naming op otherwise).
Shape SoftmaxLengthShape(const Params& p, const Shape& data);
void CheckSoftmaxLengthType(const std::string& op, DType t);
// softmax, log_softmax: data around the axis parameter (checked against its rank).
AxisSplit SoftmaxAxisSplit(const Params& p, const Shape& data);
// SoftmaxActivation: per instance (n = all axes but the first), or over axis 1
// at every position (mode=channel).
AxisSplit SoftmaxActivationSplit(const Params& p, const Shape& data);
// SoftmaxOutput's forward: rows (d0, size/d0) by default, the last axis with
// preserve_shape, axis 1 at every position with multi_output.
AxisSplit SoftmaxOutputSplit(const Params& p, const Shape& data);

// Note [One softmax rule]
// Each row rule below is the one copy of its arithmetic: the CPU kernel runs
// it over threads, the GPU kernel one index per row. A rule hands every value
// it computes to put(k, v) (k the element's offset, v in the compute type A)
// instead of storing it, so each device keeps its own store (the CPU's
// nnx_cpu::Store adds v in A; the GPU's cuda::Assign); a rule reads an input
// element again rather than keeping a row buffer, so one body serves a device
// that has no per-row scratch, and an output that shares memory with its
// input (in place) is still read, element by element, before it is written.

// std::max(m, v) (NaN in v is skipped, as std::max does).
template <typename A>
WEFT_HD inline A SoftmaxMax(A m, A v) {
  return m < v ? v : m;
}

// softmax(x / t) (or its log when `log`) along one row of the (outer, n,
// inner) view: elements base + j * inner, j < len valid (Note [Softmax with
// length] in softmax.cc), the rest put as 0. The largest x / t is subtracted:
// max(x) for t > 0, min(x) for t < 0 (softmin).
template <typename A, typename T, typename Put>
WEFT_HD inline void SoftmaxRow(const T* x, int64_t base, int64_t n, int64_t inner, int64_t len, A inv_t, bool log,
                               Put put) {
  const bool pos = inv_t > A(0);
  A m = pos ? -std::numeric_limits<A>::infinity() : std::numeric_limits<A>::infinity();
  for (int64_t j = 0; j < len; ++j) {
    const A v = static_cast<A>(x[base + j * inner]);
    m = pos ? SoftmaxMax(m, v) : (v < m ? v : m);
  }
  double sum = 0;
  for (int64_t j = 0; j < len; ++j)
    sum += static_cast<double>(std::exp((static_cast<A>(x[base + j * inner]) - m) * inv_t));
  if (log) {
    const A ls = static_cast<A>(std::log(sum));
    for (int64_t j = 0; j < len; ++j) {
      const int64_t k = base + j * inner;
      put(k, (static_cast<A>(x[k]) - m) * inv_t - ls);
    }
  } else {
    const A inv = static_cast<A>(1.0 / sum);
    for (int64_t j = 0; j < len; ++j) {
      const int64_t k = base + j * inner;
      put(k, std::exp((static_cast<A>(x[k]) - m) * inv_t) * inv);
    }
  }
  for (int64_t j = len; j < n; ++j) put(base + j * inner, A(0));
}

// The gradient of SoftmaxRow's row from its output y and out_grad gy (the row
// sum, in double, is taken before anything is put: gx may be gy).
template <typename A, typename T, typename Put>
WEFT_HD inline void SoftmaxGradRow(const T* gy, const T* y, int64_t base, int64_t n, int64_t inner, int64_t len,
                                   A inv_t, bool log, Put put) {
  double s = 0;
  for (int64_t j = 0; j < len; ++j) {
    const int64_t k = base + j * inner;
    const A g = static_cast<A>(gy[k]), o = static_cast<A>(y[k]);
    s += log ? static_cast<double>(g) : static_cast<double>(g) * static_cast<double>(o);
  }
  const A sa = static_cast<A>(s);
  for (int64_t j = 0; j < len; ++j) {
    const int64_t k = base + j * inner;
    const A g = static_cast<A>(gy[k]), o = static_cast<A>(y[k]);
    put(k, (log ? g - std::exp(o) * sa : o * (g - sa)) * inv_t);
  }
  for (int64_t j = len; j < n; ++j) put(base + j * inner, A(0));
}

// softmax_cross_entropy's label l for k classes, clipped to [0, k) (NaN and
// negative: 0): compared before converting, since an infinite or huge label has
// no int64 value (Note [Float to int conversions]); a GPU kernel cannot raise.
WEFT_HD inline int64_t SoftmaxClipLabel(double l, int64_t k) {
  if (!(l >= 0)) return 0;
  if (l >= static_cast<double>(k - 1)) return k - 1;
  return static_cast<int64_t>(l);
}

// softmax_cross_entropy: the sum over the (n, k) rows of x of
// -log softmax(row)[label], the rows in order, in double.
template <typename A, typename T>
WEFT_HD inline double SoftmaxCrossEntropyLoss(const T* x, const double* label, int64_t n, int64_t k) {
  double loss = 0;
  for (int64_t i = 0; i < n; ++i) {
    const T* row = x + i * k;
    double m = -std::numeric_limits<double>::infinity();
    for (int64_t j = 0; j < k; ++j) m = SoftmaxMax(m, static_cast<double>(static_cast<A>(row[j])));
    double s = 0;
    for (int64_t j = 0; j < k; ++j) s += std::exp(static_cast<double>(static_cast<A>(row[j])) - m);
    loss -= static_cast<double>(static_cast<A>(row[SoftmaxClipLabel(label[i], k)])) - m - std::log(s);
  }
  return loss;
}

// Its gradient along row i: (softmax(row) - onehot(label)) * g, put at j.
template <typename A, typename T, typename Put>
WEFT_HD inline void SoftmaxCrossEntropyGradRow(const T* row, int64_t k, double label, A g, Put put) {
  A m = -std::numeric_limits<A>::infinity();
  for (int64_t j = 0; j < k; ++j) m = SoftmaxMax(m, static_cast<A>(row[j]));
  double s = 0;
  for (int64_t j = 0; j < k; ++j) s += static_cast<double>(std::exp(static_cast<A>(row[j]) - m));
  const A inv = static_cast<A>(1.0 / s);
  const int64_t l = SoftmaxClipLabel(label, k);
  for (int64_t j = 0; j < k; ++j) put(j, (std::exp(static_cast<A>(row[j]) - m) * inv - (j == l ? A(1) : A(0))) * g);
}

}  // namespace nnx
}  // namespace weft
