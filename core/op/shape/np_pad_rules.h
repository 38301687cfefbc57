// The padded geometry of _npi_pad (np.pad), parsed from pad_width and shared by
// the declaration and both kernels (captured by value), and its per-line rules,
// written once for the CPU kernel (np_pad.cc) and the GPU kernel (np_pad.cu).
//
// Note [Pad axis by axis, as NumPy]
// NumPy pads one axis after another over the whole padded array: the input
// is copied to the centre, then for axis 0, 1, ... every line along that axis
// (at every position of the other axes, padded ones included) has its pads
// filled from the line's own original stretch [before, before + n): constant
// (a value), edge (the nearest end), reflect (mirrored without repeating the
// edge, period 2(n - 1)), symmetric (mirrored with it, period 2n), maximum
// and minimum (of the stretch). Doing the same here gives NumPy's corners in
// every mode. The gradient (index modes and constant) runs the passes
// backwards: for the last axis first, every pad's gradient is added to the
// element it was copied from, then the centre is cut out.
#pragma once
#include <cstdint>

#include "core/base/shape.h"
#include "core/op/common/half_hd.h"
#include "core/op/common/hd.h"
#include "core/opdef/params.h"

namespace weft {
namespace tensor {

struct NpPadGeom {
  static constexpr int kMax = 32;  // NDArray::kMaxNDim
  int ndim = 0;
  int64_t in[kMax] = {}, out[kMax] = {}, before[kMax] = {};
  int mode = 0;
  double value = 0.0;
  WEFT_HD int64_t InnerOf(int d) const {  // out elements after axis d
    int64_t s = 1;
    for (int i = d + 1; i < ndim; ++i) s *= out[i];
    return s;
  }
  // The element of the padded array's centre that holds input element e
  // (both kernels: the forward copies x there, the backward reads it back).
  WEFT_HD int64_t CentreOf(int64_t e) const {
    int64_t o = 0, mul = 1;
    for (int d = ndim - 1; d >= 0; --d) {
      const int64_t c = e % in[d];
      e /= in[d];
      o += (c + before[d]) * mul;
      mul *= out[d];
    }
    return o;
  }
};

// pad_width (((b0, a0), (b1, a1), ...), or one (b, a) pair or one number for
// every axis; non-negative), mode and constant_values for input shape s.
// Throws kInvalidArgument naming the op and the parameter.
NpPadGeom NpPadGeomOf(const Params& p, const Shape& s);

Shape NpPadOutShape(const NpPadGeom& g);

enum NpPadMode : int { kPadConstant = 0, kPadEdge = 1, kPadReflect = 2, kPadSymmetric = 3, kPadMaximum = 4,
                       kPadMinimum = 5 };

// The position in [0, n) a pad position i (relative to the stretch, i < 0 or
// i >= n) copies in the index modes.
WEFT_HD inline int64_t NpPadSource(int mode, int64_t i, int64_t n) {
  if (mode == kPadEdge) return i < 0 ? 0 : n - 1;
  if (mode == kPadReflect) {
    if (n == 1) return 0;
    const int64_t p = 2 * (n - 1);
    int64_t m = i % p;
    if (m < 0) m += p;
    return m < n ? m : p - m;
  }
  const int64_t p = 2 * n;  // symmetric
  int64_t m = i % p;
  if (m < 0) m += p;
  return m < n ? m : p - 1 - m;
}

// Fills the pads of one line: y[k * stride] for k in [0, len), the stretch at
// [before, before + n).
template <typename T>
WEFT_HD inline void NpPadLine(T* y, int64_t stride, int64_t len, int64_t before, int64_t n, int mode, double value) {
  using A = AccT<T>;
  T fill = static_cast<T>(static_cast<A>(value));
  if (mode == kPadMaximum || mode == kPadMinimum) {
    A best = static_cast<A>(y[before * stride]);
    for (int64_t k = before + 1; k < before + n; ++k) {
      const A v = static_cast<A>(y[k * stride]);
      if (mode == kPadMaximum ? (v > best || !(v == v)) : (v < best || !(v == v))) best = v;
      if (!(best == best)) break;  // NumPy's max/min propagate nan
    }
    fill = static_cast<T>(best);
  }
  for (int64_t k = 0; k < len; ++k) {
    if (k >= before && k < before + n) continue;
    if (mode == kPadConstant || mode == kPadMaximum || mode == kPadMinimum) {
      y[k * stride] = fill;
    } else {
      y[k * stride] = y[(before + NpPadSource(mode, k - before, n)) * stride];
    }
  }
}

// The adjoint of NpPadLine for the index modes and constant: pads' gradients
// are added to their sources (constant: dropped), then zeroed.
template <typename T>
WEFT_HD inline void NpPadLineBackward(T* g, int64_t stride, int64_t len, int64_t before, int64_t n, int mode) {
  using A = AccT<T>;
  for (int64_t k = 0; k < len; ++k) {
    if (k >= before && k < before + n) continue;
    if (mode != kPadConstant) {
      T& src = g[(before + NpPadSource(mode, k - before, n)) * stride];
      src = static_cast<T>(static_cast<A>(src) + static_cast<A>(g[k * stride]));
    }
    g[k * stride] = static_cast<T>(A(0));
  }
}

}  // namespace tensor
}  // namespace weft
