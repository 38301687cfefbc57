// Pooling's CPU entry points (at the end) and the portable path: direct loops over each (image, channel) plane,
// planes split across threads. 1-D and 2-D run as 3-D (see PoolGeom).
// Window rules follow MXNet 1.x's pool.h: max ignores the padding, the
// average divides by the window clipped to the padded input (or to the input
// when count_include_pad is False), sum and Lp never divide.
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "core/base/error.h"
#include "core/op/common/dnnl_nn.h"  // IWYU pragma: keep (WEFT_TRY_DNNL calls dnnl_cpu:: in a oneDNN build)
#include "core/op/common/nn_path.h"
#include "core/op/spatial/pooling_cpu.h"
#include "core/op/op_util.h"

namespace weft {
namespace nn_cpu {
namespace {

// Window p of one axis: the part inside the input [lo, hi) and the divisor
// factor of average pooling (extent clipped to the padded input, or to the input).
struct Span {
  int64_t lo, hi, count;
};

// Note [Pooling loop order]
// Each output row (od, oh) is computed a kernel column kw at a time over all
// its outputs ow, so the innermost loop runs along the row (vectorisable at
// stride 1). Visiting the valid rows (id, ih) in order and kw ascending scans
// each window in row-major order, which keeps MXNet's rule for max pooling's
// gradient: the first input equal to the maximum receives it.
struct Plan {
  std::vector<Span> axis[3];
  std::vector<int64_t> wlo, whi;  // per kw: outputs whose window holds column kw inside the input
  explicit Plan(const PoolGeom& g) {
    for (int a = 0; a < 3; ++a) {
      for (int64_t o = 0; o < g.out[a]; ++o) {
        const int64_t s = o * g.stride[a] - g.pad[a], e = s + g.kernel[a];
        Span sp{std::max<int64_t>(s, 0), std::min(e, g.in[a]), 0};
        sp.count = g.count_include_pad ? std::min(e, g.in[a] + g.pad[a]) - s : sp.hi - sp.lo;
        axis[a].push_back(sp);
      }
    }
    for (int64_t kw = 0; kw < g.kernel[2]; ++kw) {
      const int64_t off = kw - g.pad[2], st = g.stride[2];
      int64_t lo = off >= 0 ? 0 : (-off + st - 1) / st;
      int64_t hi = g.in[2] - off > 0 ? std::min(g.out[2], (g.in[2] - off + st - 1) / st) : 0;
      wlo.push_back(std::min(lo, hi));
      whi.push_back(hi);
    }
  }
};

template <typename T>
T PowP(T v, int p) { return p == 1 ? v : p == 2 ? v * v : v * v * v; }
template <typename T>
T RootP(T v, int p) { return p == 1 ? v : p == 2 ? std::sqrt(v) : std::cbrt(v); }

// The output from a window's accumulated max, sum or sum of powers.
template <typename T>
T Finish(const PoolGeom& g, int64_t size, T acc) {
  if (g.type == PoolType::kAvg) return size > 0 ? acc / static_cast<T>(size) : std::numeric_limits<T>::quiet_NaN();
  if (g.type == PoolType::kLp) return RootP(acc, g.p_value);
  return acc;
}

// Windows wider than the output row (global pooling and the like): one window
// at a time, the inner loop along its input row.
template <typename T>
void ForwardPlaneWide(const PoolGeom& g, const Plan& pl, const T* x, OpReq req, T* y) {
  const int64_t H = g.in[1], W = g.in[2];
  T* out = y;
  for (const Span& d : pl.axis[0])
    for (const Span& h : pl.axis[1])
      for (const Span& w : pl.axis[2]) {
        T acc = g.type == PoolType::kMax ? std::numeric_limits<T>::lowest() : T(0);
        for (int64_t id = d.lo; id < d.hi; ++id)
          for (int64_t ih = h.lo; ih < h.hi; ++ih) {
            const T* row = x + (id * H + ih) * W;
            if (g.type == PoolType::kMax) {
              for (int64_t iw = w.lo; iw < w.hi; ++iw) acc = row[iw] > acc ? row[iw] : acc;
            } else if (g.type == PoolType::kLp) {
              for (int64_t iw = w.lo; iw < w.hi; ++iw) acc += PowP(row[iw], g.p_value);
            } else {
              for (int64_t iw = w.lo; iw < w.hi; ++iw) acc += row[iw];
            }
          }
        StoreReq(req, out++, Finish(g, d.count * h.count * w.count, acc));
      }
}

template <typename T>
void BackwardPlaneWide(const PoolGeom& g, const Plan& pl, const T* dy, const T* x, const T* y, T* dx) {
  const int64_t H = g.in[1], W = g.in[2];
  int64_t o = 0;
  for (const Span& d : pl.axis[0])
    for (const Span& h : pl.axis[1])
      for (const Span& w : pl.axis[2]) {
        const T grad = dy[o], out = y[o];
        ++o;
        if (g.type == PoolType::kMax) {
          int64_t first = -1;
          for (int64_t id = d.lo; id < d.hi && first < 0; ++id)
            for (int64_t ih = h.lo; ih < h.hi && first < 0; ++ih)
              for (int64_t iw = w.lo; iw < w.hi; ++iw)
                if (x[(id * H + ih) * W + iw] == out) {
                  first = (id * H + ih) * W + iw;
                  break;
                }
          if (first >= 0) dx[first] += grad;
          continue;
        }
        const int64_t size = g.type == PoolType::kAvg ? d.count * h.count * w.count : 1;
        const T scale = size > 0 ? grad / static_cast<T>(size) : T(0);
        for (int64_t id = d.lo; id < d.hi; ++id)
          for (int64_t ih = h.lo; ih < h.hi; ++ih) {
            const T* xr = x + (id * H + ih) * W;
            T* dr = dx + (id * H + ih) * W;
            if (g.type == PoolType::kLp) {
              for (int64_t iw = w.lo; iw < w.hi; ++iw)
                dr[iw] += grad * (g.p_value == 1 ? T(1) : out == T(0) ? T(0) : PowP(xr[iw] / out, g.p_value - 1));
            } else {
              for (int64_t iw = w.lo; iw < w.hi; ++iw) dr[iw] += scale;
            }
          }
      }
}

template <typename T>
void ForwardPlane(const PoolGeom& g, const Plan& pl, const T* x, OpReq req, T* y, T* acc) {
  const int64_t H = g.in[1], W = g.in[2], OW = g.out[2], st = g.stride[2];
  const bool is_max = g.type == PoolType::kMax, is_lp = g.type == PoolType::kLp;
  for (int64_t od = 0; od < g.out[0]; ++od) {
    const Span& d = pl.axis[0][od];
    for (int64_t oh = 0; oh < g.out[1]; ++oh) {
      const Span& h = pl.axis[1][oh];
      std::fill(acc, acc + OW, is_max ? std::numeric_limits<T>::lowest() : T(0));
      for (int64_t id = d.lo; id < d.hi; ++id)
        for (int64_t ih = h.lo; ih < h.hi; ++ih) {
          const T* row = x + (id * H + ih) * W;
          for (int64_t kw = 0; kw < g.kernel[2]; ++kw) {
            const T* r = row + (kw - g.pad[2]);  // indexed only at ow >= wlo[kw]: inside the row
            const int64_t lo = pl.wlo[kw], hi = pl.whi[kw];
            if (is_max) {
              for (int64_t ow = lo; ow < hi; ++ow) acc[ow] = r[ow * st] > acc[ow] ? r[ow * st] : acc[ow];
            } else if (is_lp) {
              for (int64_t ow = lo; ow < hi; ++ow) acc[ow] += PowP(r[ow * st], g.p_value);
            } else if (st == 1) {
              for (int64_t ow = lo; ow < hi; ++ow) acc[ow] += r[ow];
            } else {
              for (int64_t ow = lo; ow < hi; ++ow) acc[ow] += r[ow * st];
            }
          }
        }
      T* yrow = y + (od * g.out[1] + oh) * OW;
      for (int64_t ow = 0; ow < OW; ++ow) StoreReq(req, yrow + ow, Finish(g, d.count * h.count * pl.axis[2][ow].count, acc[ow]));
    }
  }
}

// One kernel column of max pooling's gradient over an output row: records,
// for each output still without one, this column's input index if that input
// equals the maximum. Bit masks, not branches: the matches are
// unpredictable.
template <typename T>
void MaxArgRow(const T* __restrict xr, const T* __restrict yr, int64_t lo, int64_t hi, int64_t st, int64_t base,
               int64_t* __restrict first) {
  for (int64_t ow = lo; ow < hi; ++ow) {
    // All-ones when this column holds the maximum and the output has no index yet.
    const int64_t take = -static_cast<int64_t>(xr[ow * st] == yr[ow]) & (first[ow] >> 63);
    first[ow] = (take & (base + ow * st)) | (~take & first[ow]);
  }
}

// dx already holds zeros or the values to add to; scale and first are row buffers.
template <typename T>
void BackwardPlane(const PoolGeom& g, const Plan& pl, const T* dy, const T* x, const T* y, T* dx, T* scale,
                   int64_t* first) {
  const int64_t H = g.in[1], W = g.in[2], OW = g.out[2], st = g.stride[2];
  for (int64_t od = 0; od < g.out[0]; ++od) {
    const Span& d = pl.axis[0][od];
    for (int64_t oh = 0; oh < g.out[1]; ++oh) {
      const Span& h = pl.axis[1][oh];
      const int64_t o0 = (od * g.out[1] + oh) * OW;
      const T* dyr = dy + o0;
      const T* yr = y + o0;
      if (g.type == PoolType::kMax) {
        std::fill(first, first + OW, int64_t(-1));
      } else if (g.type != PoolType::kLp) {
        for (int64_t ow = 0; ow < OW; ++ow) {
          const int64_t size = g.type == PoolType::kAvg ? d.count * h.count * pl.axis[2][ow].count : 1;
          scale[ow] = size > 0 ? dyr[ow] / static_cast<T>(size) : T(0);
        }
      }
      for (int64_t id = d.lo; id < d.hi; ++id)
        for (int64_t ih = h.lo; ih < h.hi; ++ih) {
          const int64_t base = (id * H + ih) * W;
          for (int64_t kw = 0; kw < g.kernel[2]; ++kw) {
            const T* xr = x + (base + kw - g.pad[2]);  // indexed only at ow >= wlo[kw]: inside the row
            T* dr = dx + (base + kw - g.pad[2]);
            const int64_t lo = pl.wlo[kw], hi = pl.whi[kw];
            if (g.type == PoolType::kMax) {
              MaxArgRow(xr, yr, lo, hi, st, base + kw - g.pad[2], first);
            } else if (g.type == PoolType::kLp) {
              for (int64_t ow = lo; ow < hi; ++ow) {
                const T out = yr[ow];
                const T f = g.p_value == 1 ? T(1) : out == T(0) ? T(0) : PowP(xr[ow * st] / out, g.p_value - 1);
                dr[ow * st] += dyr[ow] * f;
              }
            } else {
              for (int64_t ow = lo; ow < hi; ++ow) dr[ow * st] += scale[ow];
            }
          }
        }
      if (g.type == PoolType::kMax)
        for (int64_t ow = 0; ow < OW; ++ow)
          if (first[ow] >= 0) dx[first[ow]] += dyr[ow];
    }
  }
}

template <typename T>
void ForwardT(const PoolGeom& g, const T* x, OpReq req, T* y) {
  const int64_t in = g.InSize(), out = g.OutSize();
  const int64_t cost = std::max<int64_t>(in, out * g.kernel[0] * g.kernel[1] * g.kernel[2]);
  const Plan pl(g);
  const bool wide = g.kernel[2] >= g.out[2];  // see ForwardPlaneWide
  ParallelFor(g.batch * g.channels, cost, [&](int64_t b, int64_t e) {
    std::vector<T> acc(static_cast<size_t>(g.out[2]));
    for (int64_t p = b; p < e; ++p) {
      if (wide) ForwardPlaneWide(g, pl, x + p * in, req, y + p * out);
      else ForwardPlane(g, pl, x + p * in, req, y + p * out, acc.data());
    }
  });
}

template <typename T>
void BackwardT(const PoolGeom& g, const T* dy, const T* x, const T* y, OpReq req, T* dx) {
  const int64_t in = g.InSize(), out = g.OutSize();
  const int64_t cost = std::max<int64_t>(in, out * g.kernel[0] * g.kernel[1] * g.kernel[2]);
  const Plan pl(g);
  const bool wide = g.kernel[2] >= g.out[2];  // see ForwardPlaneWide
  ParallelFor(g.batch * g.channels, cost, [&](int64_t b, int64_t e) {
    if (req != OpReq::kAddTo) std::fill(dx + b * in, dx + e * in, T(0));
    std::vector<T> scale(static_cast<size_t>(g.out[2]));
    std::vector<int64_t> first(static_cast<size_t>(g.out[2]));
    for (int64_t p = b; p < e; ++p) {
      if (wide) BackwardPlaneWide(g, pl, dy + p * out, x + p * in, y + p * out, dx + p * in);
      else BackwardPlane(g, pl, dy + p * out, x + p * in, y + p * out, dx + p * in, scale.data(), first.data());
    }
  });
}

void CheckFloat(DType t) {
  WEFT_CHECK(t == DType::kFloat32 || t == DType::kFloat64, kDType)
      << "Pooling: only float32 and float64 are supported, got " << DTypeName(t);
}

}  // namespace

namespace portable {

void PoolForward(const PoolGeom& g, const TensorView& x, OpReq req, const TensorView& y) {
  if (req == OpReq::kNull) return;
  CheckFloat(x.dtype);
  if (x.dtype == DType::kFloat64) ForwardT(g, x.ptr<double>(), req, y.ptr<double>());
  else ForwardT(g, x.ptr<float>(), req, y.ptr<float>());
}

void PoolBackward(const PoolGeom& g, const TensorView& dy, const TensorView& x, const TensorView& y, OpReq req,
                  const TensorView& dx) {
  if (req == OpReq::kNull) return;
  CheckFloat(dy.dtype);
  if (dy.dtype == DType::kFloat64)
    BackwardT(g, dy.ptr<double>(), x.ptr<double>(), y.ptr<double>(), req, dx.ptr<double>());
  else
    BackwardT(g, dy.ptr<float>(), x.ptr<float>(), y.ptr<float>(), req, dx.ptr<float>());
}

}  // namespace portable

// The entry points (pooling_cpu.h): the zero-size guards, then oneDNN's path or
// the portable one above (Note [NN kernel paths] in core/op/common/nn_path.cc).

void PoolForward(const PoolGeom& g, const TensorView& x, OpReq req, const TensorView& y) {
  if (req == OpReq::kNull || ZeroSized(y)) return;
  if (ZeroSized(x)) return ZeroUnlessAdd(y, req);
  WEFT_TRY_DNNL(UseDnnl(), PoolForward(g, x, req, y));
  portable::PoolForward(g, x, req, y);
}

void PoolBackward(const PoolGeom& g, const TensorView& dy, const TensorView& x, const TensorView& y, OpReq req,
                  const TensorView& dx) {
  if (req == OpReq::kNull || ZeroSized(dx)) return;
  if (ZeroSized(dy)) return ZeroUnlessAdd(dx, req);
  WEFT_TRY_DNNL(g.type == PoolType::kMax ? UseDnnlAll() : UseDnnl(), PoolBackward(g, dy, x, y, req, dx));
  portable::PoolBackward(g, dy, x, y, req, dx);
}

}  // namespace nn_cpu
}  // namespace weft
