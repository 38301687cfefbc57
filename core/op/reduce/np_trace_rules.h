// _np_trace's geometry and its per-element rules, written once for the CPU
// kernels (np_trace.cc) and the GPU kernels (np_trace.cu).
//
// Note [Trace over a five-axis view]
// The input is viewed as (A, dp, B, dq, C) around its two axes p < q (axis1
// and axis2 in either order); the output, the input without those axes, is
// (A, B, C). Output element (a, b, c) sums the diagonal elements i1 = r0 + j
// along axis1 and i2 = c0 + j along axis2 for j < len, where r0 = max(0,
// -offset), c0 = max(0, offset) and len = max(0, min(d1 - r0, d2 - c0)) (an
// offset past either edge gives len 0: a sum of nothing, zeros, as NumPy).
// The backward runs over the input's elements: each takes the output
// gradient of its (a, b, c) when it lies on that diagonal, zero elsewhere, so
// no two threads write one element.
#pragma once
#include <cstdint>

#include "core/base/shape.h"
#include "core/op/common/hd.h"
#include "core/op/common/req_hd.h"
#include "core/opdef/params.h"

namespace weft {
namespace tensor {

struct TraceGeom {
  int64_t A = 1, dp = 1, B = 1, dq = 1, C = 1;
  bool axis1_first = true;  // axis1 is p (the earlier axis)
  int64_t r0 = 0, c0 = 0, len = 0;
};

// Validates the input's rank (>= 2) and the axes (distinct, in range,
// negative counted from the end), naming `op`; fills the view and *out.
TraceGeom TraceGeomOf(const char* op, const Params& p, const Shape& data, Shape* out);

// The flat input index of diagonal element j of output element o.
WEFT_HD inline int64_t TraceIndex(const TraceGeom& g, int64_t o, int64_t j) {
  const int64_t c = o % g.C, b = (o / g.C) % g.B, a = o / (g.C * g.B);
  const int64_t i1 = g.r0 + j, i2 = g.c0 + j;
  const int64_t ip = g.axis1_first ? i1 : i2, iq = g.axis1_first ? i2 : i1;
  return (((a * g.dp + ip) * g.B + b) * g.dq + iq) * g.C + c;
}

// The type a trace is summed in: int64 for the integers, the float types in
// themselves (float16/bfloat16 in float).
template <typename T> struct TraceAccOf { using type = float; };
template <> struct TraceAccOf<double> { using type = double; };
template <> struct TraceAccOf<uint8_t> { using type = int64_t; };
template <> struct TraceAccOf<int8_t> { using type = int64_t; };
template <> struct TraceAccOf<int32_t> { using type = int64_t; };
template <> struct TraceAccOf<int64_t> { using type = int64_t; };

template <typename T>
WEFT_HD inline void TraceOut(const TraceGeom& g, int64_t o, const T* x, OpReq req, T* y) {
  using A = typename TraceAccOf<T>::type;
  A s = A(0);
  for (int64_t j = 0; j < g.len; ++j) s += static_cast<A>(x[TraceIndex(g, o, j)]);
  nnm::Put<T, A>(y, o, req, s);
}

// Input element i's gradient: the output gradient of its (a, b, c) on the diagonal, else 0.
template <typename T>
WEFT_HD inline void TraceGradIn(const TraceGeom& g, int64_t i, const T* gy, OpReq req, T* gx) {
  using A = typename TraceAccOf<T>::type;
  const int64_t c = i % g.C, iq = (i / g.C) % g.dq, b = (i / (g.C * g.dq)) % g.B;
  const int64_t ip = (i / (g.C * g.dq * g.B)) % g.dp, a = i / (g.C * g.dq * g.B * g.dp);
  const int64_t i1 = g.axis1_first ? ip : iq, i2 = g.axis1_first ? iq : ip;
  const int64_t j = i1 - g.r0;
  const bool on = j >= 0 && j < g.len && i2 - g.c0 == j;
  nnm::Put<T, A>(gx, i, req, on ? static_cast<A>(gy[(a * g.B + b) * g.C + c]) : A(0));
}

}  // namespace tensor
}  // namespace weft
