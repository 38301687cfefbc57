// The reduction view of MXNet 1.9.1's NumPy-mode reductions declared in
// np_reduce.cc (_npi_argmax, _npi_argmin, _np_all, _np_any, _npi_std,
// _npi_var, _np_sum, _npi_mean, _np_prod, _np_max, _np_min) and their
// per-output rules, written once for the CPU loop
// (np_reduce.cc) and the GPU kernel (np_reduce.cu).
//
// Note [NumPy reductions as one loop per output]
// Each output element walks its reduced input elements in row-major order: the
// input's axes, adjacent ones of the same kind merged, split into the kept ones
// (which pick the output element) and the reduced ones (which the loop runs
// over). Row-major order makes the loop index of argmax over axis=None the flat
// index NumPy returns, and the first of equal extremes the one NumPy returns.
// The moments take two passes (the mean, then the squared deviations) in
// double, as NumPy's float64 results are the reference, and are rounded once to
// the output dtype (integers truncated, as MXNet's int std/var). Sums,
// products and extremes accumulate in int64 for integer and bool elements
// (wrapping as the narrow type's own arithmetic would, modulo its width) and
// in double for floats; means in double.
#pragma once
#include <cmath>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "core/base/shape.h"
#include "core/op/common/hd.h"
#include "core/opdef/params.h"

namespace weft {
namespace tensor {

constexpr int kNpReduceMaxDims = 8;

enum class NpReduceKind : int { kArgmax, kArgmin, kAll, kAny, kStd, kVar, kSum, kMean, kProd, kMax, kMin };

// The kind of a node of one of the ops, by its name.
inline NpReduceKind NpReduceKindOf(const std::string& op) {
  if (op == "_np_sum") return NpReduceKind::kSum;
  if (op == "_npi_mean") return NpReduceKind::kMean;
  if (op == "_np_prod") return NpReduceKind::kProd;
  if (op == "_np_max") return NpReduceKind::kMax;
  if (op == "_np_min") return NpReduceKind::kMin;
  if (op == "_npi_argmax") return NpReduceKind::kArgmax;
  if (op == "_npi_argmin") return NpReduceKind::kArgmin;
  if (op == "_np_all") return NpReduceKind::kAll;
  if (op == "_np_any") return NpReduceKind::kAny;
  if (op == "_npi_std") return NpReduceKind::kStd;
  return NpReduceKind::kVar;
}

struct NpReduceGeom {
  int nkept = 0, nred = 0;
  int64_t kept_shape[kNpReduceMaxDims] = {}, kept_stride[kNpReduceMaxDims] = {};
  int64_t red_shape[kNpReduceMaxDims] = {}, red_stride[kNpReduceMaxDims] = {};
  int64_t out_size = 1, red_size = 1;

  // The input offset of output element o's first reduced element.
  WEFT_HD int64_t Base(int64_t o) const {
    int64_t off = 0;
    for (int i = nkept - 1; i >= 0; --i) {
      off += (o % kept_shape[i]) * kept_stride[i];
      o /= kept_shape[i];
    }
    return off;
  }
  // The offset of the r-th reduced element (row-major) from Base.
  WEFT_HD int64_t Step(int64_t r) const {
    int64_t off = 0;
    for (int i = nred - 1; i >= 0; --i) {
      off += (r % red_shape[i]) * red_stride[i];
      r /= red_shape[i];
    }
    return off;
  }
};

// The view of `in` reducing the axes flagged in `reduce` (one flag per axis).
// Throws kShape naming `op` when more than kNpReduceMaxDims merged axes remain.
NpReduceGeom NpReduceGeomOf(const Shape& in, const std::vector<bool>& reduce, const std::string& op);

// The flags and the output shape of a NumPy-mode reduction node: `axis` an int
// (argmax/argmin) or a tuple (the others), None for every axis, () for none;
// keepdims keeps reduced axes as size 1. A full reduction gives a 0-d array.
Shape NpReduceShape(const Params& p, const Shape& in, std::vector<bool>* reduce);

template <typename T>
WEFT_HD inline double NpAsDouble(T v) {
  return static_cast<double>(static_cast<float>(v));
}
template <> WEFT_HD inline double NpAsDouble<double>(double v) { return v; }
template <> WEFT_HD inline double NpAsDouble<int64_t>(int64_t v) { return static_cast<double>(v); }
template <> WEFT_HD inline double NpAsDouble<int32_t>(int32_t v) { return static_cast<double>(v); }
template <> WEFT_HD inline double NpAsDouble<uint8_t>(uint8_t v) { return static_cast<double>(v); }
template <> WEFT_HD inline double NpAsDouble<int8_t>(int8_t v) { return static_cast<double>(v); }
template <> WEFT_HD inline double NpAsDouble<bool>(bool v) { return v ? 1.0 : 0.0; }

// argmax (is_max) / argmin of output element o: the row-major position of the
// first extreme, a NaN counting as the extreme (NumPy).
template <typename T>
WEFT_HD inline int64_t NpArgAt(const NpReduceGeom& g, int64_t o, bool is_max, const T* x) {
  const T* xo = x + g.Base(o);
  double best = NpAsDouble(xo[0]);
  if (best != best) return 0;
  int64_t res = 0;
  for (int64_t r = 1; r < g.red_size; ++r) {
    const double v = NpAsDouble(xo[g.Step(r)]);
    if (v != v) return r;
    if (is_max ? v > best : v < best) {
      best = v;
      res = r;
    }
  }
  return res;
}

// all (is_all) / any of output element o: whether every / some element is
// non-zero (NaN is non-zero); all of nothing is true, any of nothing false.
template <typename T>
WEFT_HD inline bool NpAllAnyAt(const NpReduceGeom& g, int64_t o, bool is_all, const T* x) {
  const T* xo = x + g.Base(o);
  for (int64_t r = 0; r < g.red_size; ++r) {
    const bool nonzero = NpAsDouble(xo[g.Step(r)]) != 0.0;
    if (is_all ? !nonzero : nonzero) return !is_all;
  }
  return is_all;
}

// The variance of output element o with divisor max(n - ddof, 0) (NumPy's:
// 0 gives inf or NaN), or its square root (is_std); NaN for no elements.
template <typename T>
WEFT_HD inline double NpMomentAt(const NpReduceGeom& g, int64_t o, bool is_std, int64_t ddof, const T* x) {
  const T* xo = x + g.Base(o);
  double sum = 0.0;
  for (int64_t r = 0; r < g.red_size; ++r) sum += NpAsDouble(xo[g.Step(r)]);
  const double mean = sum / static_cast<double>(g.red_size);
  double sq = 0.0;
  for (int64_t r = 0; r < g.red_size; ++r) {
    const double d = NpAsDouble(xo[g.Step(r)]) - mean;
    sq += d * d;
  }
  const int64_t div = g.red_size - ddof > 0 ? g.red_size - ddof : 0;
  const double var = sq / static_cast<double>(div);
  return is_std ? sqrt(var) : var;
}

// The accumulator of sums, products and extremes of T: int64 for integers and
// bool, double for floats (float16/bfloat16 read through float).
template <typename T>
using NpAccT = typename std::conditional<std::is_integral<T>::value, int64_t, double>::type;

template <typename T>
WEFT_HD inline NpAccT<T> NpRead(T v) {
  if constexpr (std::is_integral<T>::value) {
    return static_cast<int64_t>(v);
  } else {
    return NpAsDouble(v);
  }
}

// The sum (is_sum) or product of output element o's elements (0 and 1 for
// none). Integers add and multiply in uint64 (two's complement wrap, so the
// result rounded to a narrower type is that type's own wrapped result).
template <typename T>
WEFT_HD inline NpAccT<T> NpSumProdAt(const NpReduceGeom& g, int64_t o, bool is_sum, const T* x) {
  const T* xo = x + g.Base(o);
  if constexpr (std::is_integral<T>::value) {
    uint64_t acc = is_sum ? 0 : 1;
    for (int64_t r = 0; r < g.red_size; ++r) {
      const uint64_t v = static_cast<uint64_t>(NpRead(xo[g.Step(r)]));
      acc = is_sum ? acc + v : acc * v;
    }
    return static_cast<int64_t>(acc);
  } else {
    double acc = is_sum ? 0.0 : 1.0;
    for (int64_t r = 0; r < g.red_size; ++r) {
      const double v = NpRead(xo[g.Step(r)]);
      acc = is_sum ? acc + v : acc * v;
    }
    return acc;
  }
}

// The mean of output element o's elements, in double (NaN for none: 0 / 0).
template <typename T>
WEFT_HD inline double NpMeanAt(const NpReduceGeom& g, int64_t o, const T* x) {
  const T* xo = x + g.Base(o);
  double acc = 0.0;
  for (int64_t r = 0; r < g.red_size; ++r) acc += static_cast<double>(NpRead(xo[g.Step(r)]));
  return acc / static_cast<double>(g.red_size);
}

// The largest (is_max) or smallest of output element o's elements, a NaN
// propagating (NumPy); shape inference refuses an empty reduction.
template <typename T>
WEFT_HD inline NpAccT<T> NpExtremeAt(const NpReduceGeom& g, int64_t o, bool is_max, const T* x) {
  const T* xo = x + g.Base(o);
  NpAccT<T> best = NpRead(xo[0]);
  if (best != best) return best;
  for (int64_t r = 1; r < g.red_size; ++r) {
    const NpAccT<T> v = NpRead(xo[g.Step(r)]);
    if (v != v) return v;
    if (is_max ? v > best : v < best) best = v;
  }
  return best;
}

}  // namespace tensor
}  // namespace weft
