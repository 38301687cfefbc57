#include "core/op/seq/sequence_cpu.h"

#include <algorithm>
#include <vector>

#include "core/op/common/nnx_cpu.h"
#include "core/op/op_util.h"

namespace weft {
namespace nnx_cpu {
namespace {

struct SeqLayout {
  int64_t steps, batch, rest;
  int axis;
  int64_t Offset(int64_t t, int64_t b) const {
    return (axis == 0 ? t * batch + b : b * steps + t) * rest;
  }
};

SeqLayout LayoutOf(const Shape& s, int axis) {
  SeqLayout l;
  l.axis = axis;
  l.steps = s[axis];
  l.batch = s[1 - axis];
  l.rest = s.ProdRange(2, s.ndim());
  return l;
}

int64_t LengthOf(const std::vector<double>& lengths, int64_t b, int64_t steps) {
  if (lengths.empty()) return steps;
  const double v = lengths[static_cast<size_t>(b)];
  if (!(v > 0)) return 0;
  return v >= static_cast<double>(steps) ? steps : static_cast<int64_t>(v);
}

}  // namespace

void SequenceMaskCPU(const TensorView& x, const std::vector<double>& lengths, int axis, double value, OpReq req,
                     const TensorView& y) {
  if (req == OpReq::kNull || y.Size() == 0) return;
  const SeqLayout l = LayoutOf(x.shape, axis);
  WEFT_NNX_FLOAT_SWITCH(x.dtype, "SequenceMask", T, {
    using A = Acc<T>;
    const T* xp = x.ptr<T>();
    T* yp = y.ptr<T>();
    const A v = static_cast<A>(value);
    ParallelFor(l.batch, l.steps * l.rest, [&](int64_t b0, int64_t b1) {
      for (int64_t b = b0; b < b1; ++b) {
        const int64_t len = LengthOf(lengths, b, l.steps);
        for (int64_t t = 0; t < l.steps; ++t) {
          const int64_t off = l.Offset(t, b);
          for (int64_t r = 0; r < l.rest; ++r) Store(req, yp + off + r, t < len ? static_cast<A>(xp[off + r]) : v);
        }
      }
    });
  })
}

void SequenceLastForward(const TensorView& x, const std::vector<double>& lengths, int axis, OpReq req,
                         const TensorView& y) {
  if (req == OpReq::kNull || y.Size() == 0) return;
  const SeqLayout l = LayoutOf(x.shape, axis);
  WEFT_NNX_FLOAT_SWITCH(x.dtype, "SequenceLast", T, {
    using A = Acc<T>;
    const T* xp = x.ptr<T>();
    T* yp = y.ptr<T>();
    for (int64_t b = 0; b < l.batch; ++b) {
      const int64_t t = std::max<int64_t>(LengthOf(lengths, b, l.steps) - 1, 0);
      const int64_t off = l.Offset(t, b);
      for (int64_t r = 0; r < l.rest; ++r) Store(req, yp + b * l.rest + r, static_cast<A>(xp[off + r]));
    }
  })
}

void SequenceLastBackward(const TensorView& gy, const std::vector<double>& lengths, int axis, OpReq req,
                          const TensorView& gx) {
  if (req == OpReq::kNull || gx.Size() == 0) return;
  const SeqLayout l = LayoutOf(gx.shape, axis);
  WEFT_NNX_FLOAT_SWITCH(gx.dtype, "_backward_SequenceLast", T, {
    using A = Acc<T>;
    const T* gp = gy.ptr<T>();
    T* xp = gx.ptr<T>();
    for (int64_t b = 0; b < l.batch; ++b) {
      const int64_t last = std::max<int64_t>(LengthOf(lengths, b, l.steps) - 1, 0);
      for (int64_t t = 0; t < l.steps; ++t) {
        const int64_t off = l.Offset(t, b);
        for (int64_t r = 0; r < l.rest; ++r)
          Store(req, xp + off + r, t == last ? static_cast<A>(gp[b * l.rest + r]) : A(0));
      }
    }
  })
}

}  // namespace nnx_cpu
}  // namespace weft
