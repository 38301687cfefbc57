// Pad walks the output row by row (all dims but the last); each dim has a map
// from output index to source index (-1: the constant), so one map lookup per
// element covers every mode.
#include "core/op/shape/pad_cpu.h"

#include <vector>

#include "core/op/common/nnx_cpu.h"

namespace weft {
namespace nnx_cpu {
namespace {

std::vector<std::vector<int64_t>> SourceMaps(const Shape& in, const Shape& out, const std::vector<int64_t>& before,
                                             PadMode mode) {
  std::vector<std::vector<int64_t>> maps(static_cast<size_t>(in.ndim()));
  for (int d = 0; d < in.ndim(); ++d) {
    const int64_t n = in[d];
    std::vector<int64_t>& m = maps[static_cast<size_t>(d)];
    m.resize(static_cast<size_t>(out[d]));
    for (int64_t o = 0; o < out[d]; ++o) {
      int64_t i = o - before[static_cast<size_t>(d)];
      if (i < 0 || i >= n) {
        if (mode == PadMode::kConstant || n == 0) {
          i = -1;
        } else if (mode == PadMode::kEdge) {
          i = i < 0 ? 0 : n - 1;
        } else if (n == 1) {
          i = 0;
        } else {
          while (i < 0 || i >= n) i = i < 0 ? -i : 2 * (n - 1) - i;
        }
      }
      m[static_cast<size_t>(o)] = i;
    }
  }
  return maps;
}

// Calls fn(out_row_offset, in_row_offset or -1) for every row of out (the
// last dim is the row); strides are row-major.
template <typename F>
void ForEachRow(const Shape& in, const Shape& out, const std::vector<std::vector<int64_t>>& maps, F fn) {
  const int nd = out.ndim();
  const int64_t rows = out.ProdRange(0, nd - 1), width = out[nd - 1];
  std::vector<int64_t> in_stride(static_cast<size_t>(nd), 1);
  for (int d = nd - 2; d >= 0; --d) in_stride[static_cast<size_t>(d)] = in_stride[static_cast<size_t>(d) + 1] * in[d + 1];
  std::vector<int64_t> idx(static_cast<size_t>(nd), 0);
  for (int64_t r = 0; r < rows; ++r) {
    int64_t src = 0;
    for (int d = 0; d + 1 < nd && src >= 0; ++d) {
      const int64_t s = maps[static_cast<size_t>(d)][static_cast<size_t>(idx[static_cast<size_t>(d)])];
      src = s < 0 ? -1 : src + s * in_stride[static_cast<size_t>(d)];
    }
    fn(r * width, src);
    for (int d = nd - 2; d >= 0; --d) {  // next row
      if (++idx[static_cast<size_t>(d)] < out[d]) break;
      idx[static_cast<size_t>(d)] = 0;
    }
  }
}

}  // namespace

void PadForward(const TensorView& x, const std::vector<int64_t>& before, PadMode mode, double value, OpReq req,
                const TensorView& y) {
  if (req == OpReq::kNull || y.Size() == 0) return;
  const auto maps = SourceMaps(x.shape, y.shape, before, mode);
  const std::vector<int64_t>& last = maps.back();
  WEFT_NNX_FLOAT_SWITCH(x.dtype, "Pad", T, {
    using A = Acc<T>;
    const T* xp = x.ptr<T>();
    T* yp = y.ptr<T>();
    const A c = static_cast<A>(value);
    const int64_t width = y.shape[y.ndim() - 1];
    ForEachRow(x.shape, y.shape, maps, [&](int64_t out_off, int64_t src) {
      for (int64_t j = 0; j < width; ++j) {
        const int64_t s = last[static_cast<size_t>(j)];
        Store(req, yp + out_off + j, (src < 0 || s < 0) ? c : static_cast<A>(xp[src + s]));
      }
    });
  })
}

void PadBackward(const TensorView& gy, const std::vector<int64_t>& before, PadMode mode, OpReq req,
                 const TensorView& gx) {
  if (req == OpReq::kNull || gx.Size() == 0) return;
  const auto maps = SourceMaps(gx.shape, gy.shape, before, mode);
  const std::vector<int64_t>& last = maps.back();
  std::vector<double> acc(static_cast<size_t>(gx.Size()), 0.0);
  WEFT_NNX_FLOAT_SWITCH(gy.dtype, "_backward_Pad", T, {
    using A = Acc<T>;
    const T* gp = gy.ptr<T>();
    const int64_t width = gy.shape[gy.ndim() - 1];
    ForEachRow(gx.shape, gy.shape, maps, [&](int64_t out_off, int64_t src) {
      if (src < 0) return;
      for (int64_t j = 0; j < width; ++j) {
        const int64_t s = last[static_cast<size_t>(j)];
        if (s >= 0) acc[static_cast<size_t>(src + s)] += static_cast<double>(static_cast<A>(gp[out_off + j]));
      }
    });
    T* xp = gx.ptr<T>();
    for (size_t i = 0; i < acc.size(); ++i) Store(req, xp + i, static_cast<A>(acc[i]));
  })
}

}  // namespace nnx_cpu
}  // namespace weft
