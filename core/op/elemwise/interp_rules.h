// The rules of _npi_interp (np.interp), written once for the CPU kernel
// (interp.cc) and the GPU kernel (interp.cu).
//
// Note [Interp as NumPy's arr_interp]
// Values are computed in double whatever the storage type, as NumPy does (it
// converts to float64). For each x: left below xp[0], right above xp[n-1],
// fp[n-1] at xp[n-1]; else j, the last index with xp[j] <= x, gives fp[j] when
// xp[j] == x and otherwise slope * (x - xp[j]) + fp[j], retried from the
// right end (and then fp[j]) when that is nan, NumPy's branches (a nan x gives
// nan; NumPy's search may land on a flat segment and give its value). With
// a period, NumPy first maps xp and x into [0, period) (Python's modulo),
// sorts xp (and fp with it) and wraps one point around each end; the table
// is built here serially in scratch memory (2 * (n + 2) doubles plus the sort
// buffers), then every x is looked up as above. xp must be increasing
// (unchecked, as in NumPy).
#pragma once
#include <cmath>
#include <cstdint>

#include "core/op/common/hd.h"

namespace weft {
namespace tensor {

// NumPy's floor modulo (npy_divmod): the sign of b, exact.
WEFT_HD inline double InterpMod(double a, double b) {
  double m = fmod(a, b);
  if (m != 0.0) {
    if ((b < 0) != (m < 0)) m += b;
  } else {
    m = copysign(0.0, b);
  }
  return m;
}

// f(x) over the increasing table (dx, dy) of n >= 1 points.
WEFT_HD inline double InterpAt(const double* dx, const double* dy, int64_t n, double x, double left, double right) {
  if (n == 1) return x < dx[0] ? left : (x > dx[0] ? right : dy[0]);
  if (x > dx[n - 1]) return right;
  if (x < dx[0]) return left;
  if (x == dx[n - 1]) return dy[n - 1];
  if (!(x == x)) return x;  // nan in, nan out
  int64_t lo = 0, hi = n - 1;  // dx[lo] <= x < dx[hi]
  while (hi - lo > 1) {
    const int64_t mid = lo + (hi - lo) / 2;
    if (dx[mid] <= x) lo = mid; else hi = mid;
  }
  const int64_t j = lo;
  if (dx[j] == x) return dy[j];
  const double slope = (dy[j + 1] - dy[j]) / (dx[j + 1] - dx[j]);
  double r = slope * (x - dx[j]) + dy[j];
  if (!(r == r)) {
    r = slope * (x - dx[j + 1]) + dy[j + 1];
    if (!(r == r) && dy[j] == dy[j + 1]) r = dy[j];
  }
  return r;
}

// The table without a period: xp and fp as doubles (n entries each).
template <typename T>
WEFT_HD inline void InterpPlainTable(const T* xp, const T* fp, int64_t n, double* dx, double* dy) {
  for (int64_t i = 0; i < n; ++i) {
    dx[i] = static_cast<double>(xp[i]);
    dy[i] = static_cast<double>(fp[i]);
  }
}

// The periodic table: dx, dy get n + 2 entries (order, tmp: n scratch).
template <typename T>
WEFT_HD inline void InterpPeriodicTable(const T* xp, const T* fp, int64_t n, double period, double* dx, double* dy,
                                        int64_t* order, int64_t* tmp) {
  for (int64_t i = 0; i < n; ++i) {
    dx[i + 1] = InterpMod(static_cast<double>(xp[i]), period);
    order[i] = i;
  }
  for (int64_t width = 1; width < n; width *= 2) {  // stable merge sort of order by dx[i + 1]
    for (int64_t lo = 0; lo < n; lo += 2 * width) {
      const int64_t mid = lo + width < n ? lo + width : n, hi = lo + 2 * width < n ? lo + 2 * width : n;
      int64_t i = lo, j = mid, k = lo;
      while (i < mid && j < hi) tmp[k++] = dx[order[j] + 1] < dx[order[i] + 1] ? order[j++] : order[i++];
      while (i < mid) tmp[k++] = order[i++];
      while (j < hi) tmp[k++] = order[j++];
    }
    for (int64_t i = 0; i < n; ++i) order[i] = tmp[i];
  }
  for (int64_t i = 0; i < n; ++i) tmp[i] = order[i];
  // dx[1..n] sorted: read the keys again through the order (dx is overwritten in place)
  for (int64_t i = 0; i < n; ++i) dy[i + 1] = InterpMod(static_cast<double>(xp[tmp[i]]), period);
  for (int64_t i = 0; i < n; ++i) dx[i + 1] = dy[i + 1];
  for (int64_t i = 0; i < n; ++i) dy[i + 1] = static_cast<double>(fp[tmp[i]]);
  dx[0] = dx[n] - period;
  dy[0] = dy[n];
  dx[n + 1] = dx[1] + period;
  dy[n + 1] = dy[1];
}

}  // namespace tensor
}  // namespace weft
