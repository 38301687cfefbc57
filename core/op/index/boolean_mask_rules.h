// What the CPU (boolean_mask.cc) and GPU (boolean_mask.cu) kernels of
// _contrib_boolean_mask share: data viewed as (outer, n, inner) around the
// masked axis, rows of `inner` elements copied by bytes.
#pragma once
#include <cstdint>

#include "core/base/shape.h"

namespace weft {

struct MaskGeom {
  int64_t outer = 1, n = 0, inner = 1;
};

// axis already normalised to [0, s.ndim()).
inline MaskGeom MaskGeomOf(const Shape& s, int axis) {
  MaskGeom g;
  for (int d = 0; d < axis; ++d) g.outer *= s[d];
  g.n = s[axis];
  for (int d = axis + 1; d < s.ndim(); ++d) g.inner *= s[d];
  return g;
}

}  // namespace weft
