// The value rule of _contrib_PSROIPooling (R-FCN's position-sensitive roi
// average pooling, as MXNet has it) and its backward, shared by
// psroi_pooling_cpu.cc and psroi_pooling.cu (Note [One spatial rule],
// spatial_hd.h).
//
// A roi (batch, x1, y1, x2, y2) is rounded, then scaled: it starts at
// round(x1) * spatial_scale and ends at (round(x2) + 1) * spatial_scale, and is
// at least 0.1 wide and high. Bin (i, j) of the pooled_size x pooled_size grid
// covers [floor(start + i * bin), ceil(start + (i + 1) * bin)) clipped to the
// map and averages input channel (c * group_size + gi) * group_size + gj, with
// gi = floor(i * group_size / pooled_size) (gj likewise); an empty bin gives 0.
#pragma once
#include <cstdint>

#include "core/opdef/params.h"
#include "core/op/spatial/spatial_hd.h"

namespace weft {
namespace spatial {

struct PSRoiGeom {
  int64_t batch = 0, c = 0, h = 0, w = 0, rois = 0;
  int64_t out_c = 0, pooled = 1, group = 1;
  double scale = 1;
};

struct PSBin {
  int64_t n = -1;  // batch index, -1 when out of range
  int64_t h0 = 0, h1 = 0, w0 = 0, w1 = 0, cin = 0;
};

template <typename T>
WEFT_HD inline PSBin PSRoiBin(const PSRoiGeom& g, const T* rois, int64_t r, int64_t c, int64_t i, int64_t j) {
  const T* b = rois + r * 5;
  PSBin bin;
  const int64_t n = TruncI(static_cast<double>(b[0]));  // NaN or huge from data: saturated, then off the batch
  bin.n = (n >= 0 && n < g.batch) ? n : -1;
  const double x0 = static_cast<double>(RoundHalfAway(static_cast<double>(b[1]))) * g.scale;
  const double y0 = static_cast<double>(RoundHalfAway(static_cast<double>(b[2]))) * g.scale;
  const double x1 = static_cast<double>(RoundHalfAway(static_cast<double>(b[3])) + 1) * g.scale;
  const double y1 = static_cast<double>(RoundHalfAway(static_cast<double>(b[4])) + 1) * g.scale;
  const double rw = x1 - x0 > 0.1 ? x1 - x0 : 0.1, rh = y1 - y0 > 0.1 ? y1 - y0 : 0.1;
  const double bh = rh / static_cast<double>(g.pooled), bw = rw / static_cast<double>(g.pooled);
  bin.h0 = ClipI(FloorI(static_cast<double>(i) * bh + y0), g.h);
  bin.h1 = ClipI(CeilI(static_cast<double>(i + 1) * bh + y0), g.h);
  bin.w0 = ClipI(FloorI(static_cast<double>(j) * bw + x0), g.w);
  bin.w1 = ClipI(CeilI(static_cast<double>(j + 1) * bw + x0), g.w);
  int64_t gi = (i * g.group) / g.pooled, gj = (j * g.group) / g.pooled;
  gi = gi < g.group - 1 ? gi : g.group - 1;
  gj = gj < g.group - 1 ? gj : g.group - 1;
  bin.cin = (c * g.group + gi) * g.group + gj;
  return bin;
}

template <typename T, typename A>
WEFT_HD inline void PSRoiForwardAt(const PSRoiGeom& g, const T* data, const T* rois, OpReq req, T* out, int64_t e) {
  const int64_t j = e % g.pooled, i = (e / g.pooled) % g.pooled, c = (e / (g.pooled * g.pooled)) % g.out_c,
                r = e / (g.pooled * g.pooled * g.out_c);
  const PSBin b = PSRoiBin(g, rois, r, c, i, j);
  A v = static_cast<A>(0);
  const int64_t area = (b.h1 - b.h0) * (b.w1 - b.w0);
  if (b.n >= 0 && b.h1 > b.h0 && b.w1 > b.w0) {
    const T* plane = data + (b.n * g.c + b.cin) * g.h * g.w;
    for (int64_t y = b.h0; y < b.h1; ++y)
      for (int64_t x = b.w0; x < b.w1; ++x) v += static_cast<A>(plane[y * g.w + x]);
    v /= static_cast<A>(area);
  }
  Put(out + e, req, v);
}

// gdata plane p = (n, cin) (req)= out_grad / area of every bin that reads it.
template <typename T, typename A>
WEFT_HD inline void PSRoiBackwardPlane(const PSRoiGeom& g, const T* gout, const T* rois, OpReq req, T* gdata,
                                       int64_t p) {
  const int64_t n = p / g.c, cin = p % g.c, gg = g.group * g.group;
  T* d = gdata + p * g.h * g.w;
  ClearPlane(d, g.h * g.w, req);
  const int64_t c = cin / gg;
  if (c >= g.out_c) return;
  for (int64_t r = 0; r < g.rois; ++r)
    for (int64_t i = 0; i < g.pooled; ++i)
      for (int64_t j = 0; j < g.pooled; ++j) {
        const PSBin b = PSRoiBin(g, rois, r, c, i, j);
        if (b.n != n || b.cin != cin || b.h1 <= b.h0 || b.w1 <= b.w0) continue;
        const A v = static_cast<A>(gout[((r * g.out_c + c) * g.pooled + i) * g.pooled + j]) /
                    static_cast<A>((b.h1 - b.h0) * (b.w1 - b.w0));
        for (int64_t y = b.h0; y < b.h1; ++y)
          for (int64_t x = b.w0; x < b.w1; ++x) AddTo(d + y * g.w + x, v);
      }
}

inline int64_t PSGroupSize(const Params& p) {
  return p.GetInt("group_size") == 0 ? p.GetInt("pooled_size") : p.GetInt("group_size");
}

inline PSRoiGeom PSRoiGeomOf(const Params& p, const Shape& data, const Shape& rois) {
  PSRoiGeom g;
  g.batch = data[0];
  g.c = data[1];
  g.h = data[2];
  g.w = data[3];
  g.rois = rois[0];
  g.out_c = p.GetInt("output_dim");
  g.pooled = p.GetInt("pooled_size");
  g.group = PSGroupSize(p);
  g.scale = p.GetFloat("spatial_scale");
  return g;
}

}  // namespace spatial
}  // namespace weft
