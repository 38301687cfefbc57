// The value rule of _contrib_AdaptiveAvgPooling2D and its backward, shared by
// adaptive_avg_pool_cpu.cc and adaptive_avg_pool.cu (Note [One spatial rule],
// spatial_hd.h). Output bin o of OS bins over an axis of size S averages the
// input range [floor(o * S / OS), ceil((o + 1) * S / OS)), MXNet's START_IND /
// END_IND; bins may overlap when S is not a multiple of OS.
#pragma once
#include <cstdint>

#include "core/op/spatial/spatial_hd.h"

namespace weft {
namespace spatial {

struct AdaptiveGeom {
  int64_t planes = 0, ih = 0, iw = 0, oh = 0, ow = 0;
};

WEFT_HD inline int64_t BinStart(int64_t o, int64_t out, int64_t in) { return (o * in) / out; }
WEFT_HD inline int64_t BinEnd(int64_t o, int64_t out, int64_t in) { return ((o + 1) * in + out - 1) / out; }

template <typename T, typename A>
WEFT_HD inline void AdaptiveForwardAt(const AdaptiveGeom& g, const T* in, OpReq req, T* out, int64_t e) {
  const int64_t x = e % g.ow, y = (e / g.ow) % g.oh, plane = e / (g.ow * g.oh);
  const int64_t h0 = BinStart(y, g.oh, g.ih), h1 = BinEnd(y, g.oh, g.ih);
  const int64_t w0 = BinStart(x, g.ow, g.iw), w1 = BinEnd(x, g.ow, g.iw);
  const T* s = in + plane * g.ih * g.iw;
  A sum = static_cast<A>(0);
  for (int64_t h = h0; h < h1; ++h)
    for (int64_t w = w0; w < w1; ++w) sum += static_cast<A>(s[h * g.iw + w]);
  Put(out + e, req, sum / static_cast<A>((h1 - h0) * (w1 - w0)));
}

// gin plane p (req)= each output bin's gradient spread evenly over its bin.
template <typename T, typename A>
WEFT_HD inline void AdaptiveBackwardPlane(const AdaptiveGeom& g, const T* gout, OpReq req, T* gin, int64_t p) {
  T* d = gin + p * g.ih * g.iw;
  const T* s = gout + p * g.oh * g.ow;
  ClearPlane(d, g.ih * g.iw, req);
  for (int64_t y = 0; y < g.oh; ++y) {
    const int64_t h0 = BinStart(y, g.oh, g.ih), h1 = BinEnd(y, g.oh, g.ih);
    for (int64_t x = 0; x < g.ow; ++x) {
      const int64_t w0 = BinStart(x, g.ow, g.iw), w1 = BinEnd(x, g.ow, g.iw);
      const A v = static_cast<A>(s[y * g.ow + x]) / static_cast<A>((h1 - h0) * (w1 - w0));
      for (int64_t h = h0; h < h1; ++h)
        for (int64_t w = w0; w < w1; ++w) AddTo(d + h * g.iw + w, v);
    }
  }
}

inline AdaptiveGeom AdaptiveGeomOf(const Shape& in, const Shape& out) {
  AdaptiveGeom g;
  g.planes = in[0] * in[1];
  g.ih = in[2];
  g.iw = in[3];
  g.oh = out[2];
  g.ow = out[3];
  return g;
}

}  // namespace spatial
}  // namespace weft
