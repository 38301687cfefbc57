// The per-row rules of _npi_diff and _backward_npi_diff, written once for the
// CPU loop (diff_cpu.cc) and the GPU kernel (diff.cu): Note [Diff by repeated
// differences].
//
// Note [Diff by repeated differences]
// NumPy computes the n-th difference as n first differences, each rounded to
// the dtype (bool: not_equal, integers wrapping). The closed form, a sum of
// binomially weighted inputs, rounds differently in floating point and its
// weights overflow for large n, so both devices repeat the first difference
// instead: a row of the input is copied to a work row (the op's scratch, as
// long as the input), differenced n times in place, and its first len - n
// entries are stored. The gradient applies the transpose of the first
// difference n times (length m -> m + 1: r[0] = -g[0], r[i] = g[i-1] - g[i],
// r[m] = g[m-1]), again in the work row. Cost O(n * len) per row, as NumPy.
#pragma once
#include <cstdint>
#include <type_traits>

#include "core/base/shape.h"
#include "core/op/common/hd.h"
#include "core/op/common/req_hd.h"
#include "core/opdef/params.h"

namespace weft {
namespace tensor {

// The (outer, len, inner) view of _npi_diff (np.diff) around its axis and the
// n-th difference's output shape, shared by the declaration, the CPU kernel
// and the GPU kernel.
struct DiffGeom {
  int axis = 0;
  int64_t outer = 1, len = 1, inner = 1;
  int64_t n = 1;  // the order of the difference
  // The output's length along axis: len - n, or 0 when n >= len (NumPy).
  WEFT_HD int64_t out_len() const { return n >= len ? 0 : len - n; }
};

// Throws kShape for a 0-d input and kInvalidArgument for n < 0 or an axis
// out of range, naming the op and the argument.
DiffGeom DiffGeomOf(const Params& p, const Shape& a);

// a's shape with out_len() along the axis.
Shape DiffOutShape(const DiffGeom& g, const Shape& a);

// The type a difference is taken in: unsigned for the integers (they wrap),
// float for the 16-bit floats (then rounded back, as NumPy's float16).
template <typename T>
struct DiffArithOf {
  using type = float;
};
template <> struct DiffArithOf<double> { using type = double; };
template <> struct DiffArithOf<uint8_t> { using type = uint8_t; };
template <> struct DiffArithOf<int8_t> { using type = uint8_t; };
template <> struct DiffArithOf<int32_t> { using type = uint32_t; };
template <> struct DiffArithOf<int64_t> { using type = uint64_t; };

// hi - lo in T (bool: hi != lo, NumPy's boolean diff).
template <typename T>
WEFT_HD inline T DiffSub(T hi, T lo) {
  if constexpr (std::is_same<T, bool>::value) {
    return hi != lo;
  } else {
    using A = typename DiffArithOf<T>::type;
    return static_cast<T>(static_cast<A>(static_cast<A>(hi) - static_cast<A>(lo)));
  }
}

// a + b in T (bool: a || b, NumPy's boolean add): the kAddTo store.
template <typename T>
WEFT_HD inline T DiffAdd(T a, T b) {
  if constexpr (std::is_same<T, bool>::value) {
    return a || b;
  } else {
    using A = typename DiffArithOf<T>::type;
    return static_cast<T>(static_cast<A>(static_cast<A>(a) + static_cast<A>(b)));
  }
}

// Row `row` (an (o, k) pair) of the forward: work has len entries per row.
template <typename T>
WEFT_HD inline void DiffRow(const DiffGeom& g, int64_t row, const T* in, T* work, OpReq req, T* out) {
  const int64_t o = row / g.inner, k = row % g.inner, m = g.out_len();
  if (m == 0) return;
  T* w = work + row * g.len;
  const T* x = in + o * g.len * g.inner + k;
  for (int64_t i = 0; i < g.len; ++i) w[i] = x[i * g.inner];
  for (int64_t s = 0; s < g.n; ++s) {
    for (int64_t i = 0; i + 1 < g.len - s; ++i) w[i] = DiffSub(w[i + 1], w[i]);
  }
  T* y = out + o * m * g.inner + k;
  for (int64_t i = 0; i < m; ++i) {
    y[i * g.inner] = req == OpReq::kAddTo ? DiffAdd(y[i * g.inner], w[i]) : w[i];
  }
}

// Row `row` of the gradient (floating T only): og has out_len() entries along
// the axis, grad (the input's shape) len.
template <typename T>
WEFT_HD inline void DiffBackwardRow(const DiffGeom& g, int64_t row, const T* og, T* work, OpReq req, T* grad) {
  using A = typename DiffArithOf<T>::type;
  const int64_t o = row / g.inner, k = row % g.inner, m = g.out_len();
  T* w = work + row * g.len;
  if (m == 0) {
    for (int64_t i = 0; i < g.len; ++i) w[i] = static_cast<T>(A(0));
  } else {
    const T* gy = og + o * m * g.inner + k;
    for (int64_t i = 0; i < m; ++i) w[i] = gy[i * g.inner];
    for (int64_t c = m; c < g.len; ++c) {  // c: the current length
      w[c] = w[c - 1];
      for (int64_t i = c - 1; i >= 1; --i) w[i] = static_cast<T>(static_cast<A>(w[i - 1]) - static_cast<A>(w[i]));
      w[0] = static_cast<T>(-static_cast<A>(w[0]));
    }
  }
  T* gx = grad + o * g.len * g.inner + k;
  for (int64_t i = 0; i < g.len; ++i) nnm::Put(gx, i * g.inner, req, static_cast<A>(w[i]));
}

}  // namespace tensor
}  // namespace weft
