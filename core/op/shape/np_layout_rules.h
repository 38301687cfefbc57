// The per-element rules of _np_roll and _npi_tril (np_layout.cc), written once
// for the CPU loop (np_layout.cc) and the GPU kernel (np_layout.cu); and the
// plans both devices derive from the ops' parameters and shapes.
#pragma once
#include <cstdint>
#include <vector>

#include "core/base/shape.h"
#include "core/op/common/hd.h"
#include "core/op/shape/view_plan.h"
#include "core/opdef/params.h"

namespace weft {
namespace tensor {

constexpr int kNpLayoutMaxDims = 8;

// np.roll: out[c] = in[c - shift (mod n)] along each axis; shift[d] in [0, n).
// axis=None rolls the flattened array: one axis of the input's size.
struct RollGeom {
  int ndim = 0;
  int64_t shape[kNpLayoutMaxDims] = {}, shift[kNpLayoutMaxDims] = {};
};
RollGeom RollGeomOf(const Params& p, const Shape& in);

// The input position out[i] is copied from.
WEFT_HD inline int64_t RollSource(const RollGeom& g, int64_t i) {
  int64_t src = 0, stride = 1;
  for (int d = g.ndim - 1; d >= 0; --d) {
    const int64_t n = g.shape[d];
    const int64_t c = i % n;
    i /= n;
    int64_t s = c - g.shift[d];
    if (s < 0) s += n;
    src += s * stride;
    stride *= n;
  }
  return src;
}

// np.tril over the last two axes (rows, cols); a 1-D input of length n is the
// (n, n) matrix whose every row is that input (NumPy's broadcast).
struct TrilGeom {
  int64_t rows = 1, cols = 1, k = 0;
  bool vec = false;
};
TrilGeom TrilGeomOf(const Params& p, const Shape& in);
Shape TrilShape(const Params& p, const Shape& in);

// Whether out[i] keeps its value (column - row <= k), and where it comes from.
WEFT_HD inline bool TrilKeeps(const TrilGeom& g, int64_t i) {
  const int64_t c = i % g.cols, r = (i / g.cols) % g.rows;
  return c - r <= g.k;
}
WEFT_HD inline int64_t TrilSource(const TrilGeom& g, int64_t i) { return g.vec ? i % g.cols : i; }

// np.moveaxis: the input axis each output axis is, and its one strided copy.
std::vector<int> MoveAxisOrder(const Params& p, int ndim);
Shape MoveAxisShape(const Params& p, const Shape& in);
ViewPlan MoveAxisPlan(const Params& p, const Shape& in, const Shape& out);

// np.broadcast_to (NumPy's rule: the input's axes align with the target's
// last ones; an axis of size 1 repeats), np.diagflat (the flattened input on
// the k-th diagonal of a square zero matrix) and np.rot90 (k quarter turns in
// the plane of `axes`: flips and a swap of the two axes): one strided copy each.
Shape NpBroadcastToShape(const Params& p, const Shape& in);
ViewPlan NpBroadcastToPlan(const Params& p, const Shape& in, const Shape& out);
Shape DiagflatShape(const Params& p, const Shape& in);
ViewPlan DiagflatPlan(const Params& p, const Shape& in, const Shape& out);
Shape Rot90Shape(const Params& p, const Shape& in);
ViewPlan Rot90Plan(const Params& p, const Shape& in, const Shape& out);

// np.atleast_{1,2,3}d: the input with size-1 axes added as NumPy adds them
// (() -> (1,), (1, 1), (1, 1, 1); (n,) -> (1, n), (1, n, 1); (m, n) -> (m, n, 1)).
Shape AtLeastShape(int ndim, const Shape& in);

}  // namespace tensor
}  // namespace weft
