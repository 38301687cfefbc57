// Shared by the neural-network kernels (normalisation, activations, softmax,
// losses, dropout, embedding, padding, sequences, optimizer updates): the
// floating-point dtype switch, the accumulation type per storage type, and
// stores that honour the write mode, and the Map1/Map2 drivers that apply an
// element function across threads. No kernel bodies here (docs/STYLE.md "Files").
//
// Note [NN kernel arithmetic]
// float32, float16 and bfloat16 compute in float, float64 in double (Acc<T>);
// sums over many elements (means, variances, gradient reductions) accumulate
// in double whatever the storage type. Integer dtypes are rejected by the ops'
// type inference, so kernels never see them (the switch throws if they do).
#pragma once
#include "core/op/op_util.h"
#include <cstdint>
#include <vector>

#include "core/base/dtype.h"
#include "core/base/error.h"
#include "core/opdef/op_def.h"
#include "core/opdef/tensor_view.h"

namespace weft {
namespace nnx_cpu {

template <typename T>
struct AccOf { using type = float; };
template <>
struct AccOf<double> { using type = double; };
template <typename T>
using Acc = typename AccOf<T>::type;

// *dst (req)= v, converting from the compute type A to the storage type T.
template <typename T, typename A>
inline void Store(OpReq req, T* dst, A v) {
  if (req == OpReq::kAddTo) *dst = static_cast<T>(static_cast<A>(*dst) + v);
  else if (req != OpReq::kNull) *dst = static_cast<T>(v);
}

// y[i] (req)= f(x[i]) over flat arrays, split across threads. The write mode
// is decided once per block, not per element, so the loops vectorise.
template <typename T, typename F>
void Map1(const TensorView& x, OpReq req, const TensorView& y, int64_t cost, F f) {
  if (req == OpReq::kNull) return;
  const T* xp = x.ptr<T>();
  T* yp = y.ptr<T>();
  ParallelFor(y.Size(), cost, [&](int64_t b, int64_t e) {
    if (req == OpReq::kAddTo) {
      for (int64_t i = b; i < e; ++i) yp[i] = static_cast<T>(static_cast<Acc<T>>(yp[i]) + f(static_cast<Acc<T>>(xp[i])));
    } else {
      for (int64_t i = b; i < e; ++i) yp[i] = static_cast<T>(f(static_cast<Acc<T>>(xp[i])));
    }
  });
}

// z[i] (req)= f(a[i], b[i]).
template <typename T, typename F>
void Map2(const TensorView& a, const TensorView& b, OpReq req, const TensorView& z, int64_t cost, F f) {
  if (req == OpReq::kNull) return;
  const T* ap = a.ptr<T>();
  const T* bp = b.ptr<T>();
  T* zp = z.ptr<T>();
  ParallelFor(z.Size(), cost, [&](int64_t lo, int64_t hi) {
    if (req == OpReq::kAddTo) {
      for (int64_t i = lo; i < hi; ++i)
        zp[i] = static_cast<T>(static_cast<Acc<T>>(zp[i]) + f(static_cast<Acc<T>>(ap[i]), static_cast<Acc<T>>(bp[i])));
    } else {
      for (int64_t i = lo; i < hi; ++i)
        zp[i] = static_cast<T>(f(static_cast<Acc<T>>(ap[i]), static_cast<Acc<T>>(bp[i])));
    }
  });
}

// The values of any-dtype array v (labels, indices, lengths) as doubles.
std::vector<double> ToDoubles(const TensorView& v);

}  // namespace nnx_cpu
}  // namespace weft

// Runs BODY with T bound to the storage type of floating dtype `dt`; other
// dtypes throw kDType naming `opname`.
#define WEFT_NNX_FLOAT_SWITCH(dt, opname, T, ...)                                                  \
  switch (dt) {                                                                                   \
    case ::weft::DType::kFloat32: { using T = float; __VA_ARGS__ break; }                          \
    case ::weft::DType::kFloat64: { using T = double; __VA_ARGS__ break; }                         \
    case ::weft::DType::kFloat16: { using T = ::weft::half_t; __VA_ARGS__ break; }                 \
    case ::weft::DType::kBFloat16: { using T = ::weft::bf16_t; __VA_ARGS__ break; }                \
    default:                                                                                      \
      WEFT_THROW(kDType) << (opname) << ": unsupported dtype " << ::weft::DTypeName(dt)          \
                         << " (a floating-point dtype is expected)";                             \
  }
