// Box geometry of the detection family (core/op/detect/): areas, overlaps and
// the corner/center encodings of MXNet 1.9.1's contrib box ops
// (bounding_box-inl.h), one WEFT_HD rule each, used by the CPU kernels
// (detect_cpu.cc) and the GPU kernels (detect.cu) through the drivers of
// box_drivers.h, multibox_drivers.h and proposal_drivers.h (as Note [One
// optimizer rule] in core/op/optim/optim_rules.h); and the box loads and the
// stable score sort those drivers share.
#pragma once
#include <cstdint>

#include "core/op/common/hd.h"

namespace weft {
namespace detect {

enum BoxFormat : int { kCorner = 0, kCenter = 1 };

// Area of box b[0..3] in format f; 0 for a box with a negative side.
template <typename A>
WEFT_HD inline A BoxArea(const A* b, int f) {
  const A w = f == kCorner ? b[2] - b[0] : b[2];
  const A h = f == kCorner ? b[3] - b[1] : b[3];
  return (w < A(0) || h < A(0)) ? A(0) : w * h;
}

// Overlap of a and b along axis (0: x, 1: y), at least 0.
template <typename A>
WEFT_HD inline A Overlap1D(const A* a, const A* b, int axis, int f) {
  A lo_a, hi_a, lo_b, hi_b;
  if (f == kCorner) {
    lo_a = a[axis];
    hi_a = a[axis + 2];
    lo_b = b[axis];
    hi_b = b[axis + 2];
  } else {
    lo_a = a[axis] - a[axis + 2] / A(2);
    hi_a = a[axis] + a[axis + 2] / A(2);
    lo_b = b[axis] - b[axis + 2] / A(2);
    hi_b = b[axis] + b[axis + 2] / A(2);
  }
  const A lo = lo_a > lo_b ? lo_a : lo_b;
  const A hi = hi_a < hi_b ? hi_a : hi_b;
  return hi > lo ? hi - lo : A(0);
}

// Intersection over union; 0 where the boxes do not intersect.
template <typename A>
WEFT_HD inline A BoxIoU(const A* a, const A* b, int f) {
  const A inter = Overlap1D(a, b, 0, f) * Overlap1D(a, b, 1, f);
  if (!(inter > A(0))) return A(0);
  return inter / (BoxArea(a, f) + BoxArea(b, f) - inter);
}

// In-place conversions of one box, skipped (as MXNet) when its first
// coordinate is negative (the -1 rows of suppressed boxes).
template <typename A>
WEFT_HD inline void CornerToCenter(A* b) {
  if (b[0] < A(0)) return;
  const A l = b[0], t = b[1], r = b[2], d = b[3];
  b[0] = (l + r) / A(2);
  b[1] = (t + d) / A(2);
  b[2] = r - l;
  b[3] = d - t;
}
template <typename A>
WEFT_HD inline void CenterToCorner(A* b) {
  if (b[0] < A(0)) return;
  const A x = b[0], y = b[1], w = b[2] / A(2), h = b[3] / A(2);
  b[0] = x - w;
  b[1] = y - h;
  b[2] = x + w;
  b[3] = y + h;
}

// Box b[0..3] of p, converted to the compute type A.
template <typename T, typename A>
WEFT_HD inline void Load4(const T* p, A* b) {
  for (int j = 0; j < 4; ++j) b[j] = static_cast<A>(p[j]);
}

// Bottom-up merge sort of idx[0, k) by descending score rows[idx * stride +
// off], ties in input order (std::stable_sort's order); tmp holds k entries.
template <typename T, typename A>
WEFT_HD inline void SortByScoreDesc(int32_t* idx, int32_t* tmp, int64_t k, const T* rows, int64_t stride,
                                    int64_t off) {
  for (int64_t width = 1; width < k; width *= 2) {
    for (int64_t lo = 0; lo < k; lo += 2 * width) {
      const int64_t mid = lo + width < k ? lo + width : k;
      const int64_t hi = lo + 2 * width < k ? lo + 2 * width : k;
      int64_t x = lo, y = mid, z = lo;
      while (x < mid && y < hi) {
        const A sx = static_cast<A>(rows[idx[x] * stride + off]);
        const A sy = static_cast<A>(rows[idx[y] * stride + off]);
        tmp[z++] = sy > sx ? idx[y++] : idx[x++];
      }
      while (x < mid) tmp[z++] = idx[x++];
      while (y < hi) tmp[z++] = idx[y++];
    }
    for (int64_t j = 0; j < k; ++j) idx[j] = tmp[j];
  }
}

}  // namespace detect
}  // namespace weft
