// What the spatial family's kernels share between their CPU loops and their GPU
// twins (Note [One spatial rule]): the accumulation type, the write-mode store
// and bilinear reads of one (H, W) plane. Everything here is WEFT_HD, so the
// .cc kernels and the .cu kernels call the same functions.
//
// Note [One spatial rule]
// Every op of core/op/spatial/ writes its value at one output index (forward)
// or one input plane (backward) as a WEFT_HD function in <name>_rules.h. The
// CPU kernel (<name>_cpu.cc) runs it over the indices with ParallelFor, the GPU
// kernel (<name>.cu) with Launch. Gradients that scatter (an input element
// read by many outputs) are written per input plane: one index owns one
// (n, c) plane of the input gradient and loops over the outputs that read it,
// so no index writes another's elements and no atomics are needed (Note [GPU
// kernel style], core/op/common/gpu_kernel.h). Float16/bfloat16 compute in
// float, as the NN kernels do; the GPU kernels take float32/float64.
#pragma once
#include <cstdint>

#include "core/op/common/hd.h"
#include "core/opdef/op_def.h"

namespace weft {
namespace spatial {

template <typename T>
struct AccOf {
  using type = float;
};
template <>
struct AccOf<double> {
  using type = double;
};
template <typename T>
using Acc = typename AccOf<T>::type;

// *p (req)= v; callers filter kNull.
template <typename T, typename A>
WEFT_HD inline void Put(T* p, OpReq req, A v) {
  if (req == OpReq::kAddTo) {
    *p = static_cast<T>(static_cast<A>(*p) + v);
  } else {
    *p = static_cast<T>(v);
  }
}

// *p += v in the compute type.
template <typename T, typename A>
WEFT_HD inline void AddTo(T* p, A v) {
  *p = static_cast<T>(static_cast<A>(*p) + v);
}

// Zeroes a plane of n elements unless req accumulates (the first step of a
// per-plane scatter).
template <typename T>
WEFT_HD inline void ClearPlane(T* p, int64_t n, OpReq req) {
  if (req == OpReq::kAddTo) return;
  for (int64_t i = 0; i < n; ++i) p[i] = static_cast<T>(0.0f);
}

template <typename A>
WEFT_HD inline A MaxA(A a, A b) {
  return a > b ? a : b;
}
template <typename A>
WEFT_HD inline A MinA(A a, A b) {
  return a < b ? a : b;
}
// Data-driven coordinates (roi boxes, grids) may be NaN, Inf or huge: a
// conversion out of int64's range is undefined, so these saturate (NaN -> 0)
// and the callers' clipping then treats the value as off the map.
constexpr double kInt64Limit = 9.2e18;  // below 2**63, exactly representable
WEFT_HD inline bool OutOfInt64(double v, int64_t* sat) {
  if (!(v == v)) {
    *sat = 0;
    return true;
  }
  if (v >= kInt64Limit || v <= -kInt64Limit) {
    *sat = v > 0 ? static_cast<int64_t>(kInt64Limit) : -static_cast<int64_t>(kInt64Limit);
    return true;
  }
  return false;
}
WEFT_HD inline int64_t FloorI(double v) {
  int64_t sat;
  if (OutOfInt64(v, &sat)) return sat;
  const int64_t i = static_cast<int64_t>(v);
  return (static_cast<double>(i) > v) ? i - 1 : i;
}
// An adaptive sampling grid's size (ceil(roi extent / bins)), at most the
// map's extent: a huge or infinite roi from data (or spatial_scale) would
// otherwise loop ~2**63 times, and more samples than map rows add nothing.
WEFT_HD inline int64_t AdaptiveSamples(double v, int64_t extent);
// Truncation toward zero, saturating like FloorI.
WEFT_HD inline int64_t TruncI(double v) {
  int64_t sat;
  return OutOfInt64(v, &sat) ? sat : static_cast<int64_t>(v);
}
// C's round(): halves away from zero.
WEFT_HD inline int64_t RoundHalfAway(double v);
// a + b clamped to int64 (edges built from saturated coordinates).
WEFT_HD inline int64_t SatAddI(int64_t a, int64_t b) {
  if (b > 0 && a > INT64_MAX - b) return INT64_MAX;
  if (b < 0 && a < INT64_MIN - b) return INT64_MIN;
  return a + b;
}
// v clipped to [0, hi].
WEFT_HD inline int64_t ClipI(int64_t v, int64_t hi) { return v < 0 ? 0 : (v > hi ? hi : v); }
WEFT_HD inline int64_t CeilI(double v) {
  int64_t sat;
  if (OutOfInt64(v, &sat)) return sat;
  const int64_t i = static_cast<int64_t>(v);
  return (static_cast<double>(i) < v) ? i + 1 : i;
}

WEFT_HD inline int64_t AdaptiveSamples(double v, int64_t extent) {
  return ClipI(CeilI(v), extent > 1 ? extent : 1);
}

WEFT_HD inline int64_t RoundHalfAway(double v) { return v >= 0 ? FloorI(v + 0.5) : -FloorI(-v + 0.5); }

}  // namespace spatial
}  // namespace weft
