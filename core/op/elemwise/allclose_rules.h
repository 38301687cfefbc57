// The closeness rule of _contrib_allclose, shared by its CPU and GPU kernels:
// |a - b| <= atol + rtol |b| (NumPy's allclose), NaNs equal to each other
// when equal_nan, infinities equal only to themselves.
#pragma once
#include <cmath>

#include "core/op/common/hd.h"

namespace weft {
namespace tensor {

struct CloseRule {
  double rtol = 1e-5, atol = 1e-8;
  bool equal_nan = true;
  WEFT_HD bool Close(double a, double b) const {
    if (a != a || b != b) return equal_nan && a != a && b != b;
    if (a == b) return true;  // equal infinities too
    const double d = a > b ? a - b : b - a;
    const double ab = b < 0 ? -b : b;
    if (d == INFINITY || ab == INFINITY) return false;  // one infinity, or two opposite ones
    return d <= atol + rtol * ab;
  }
};

}  // namespace tensor
}  // namespace weft
