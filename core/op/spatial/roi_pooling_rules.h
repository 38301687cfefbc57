// The value rule of ROIPooling (Fast R-CNN's max pooling over roi bins, as
// MXNet has it) and its backward, shared by roi_pooling_cpu.cc and
// roi_pooling.cu (Note [One spatial rule], spatial_hd.h).
//
// A roi row (batch_index, x1, y1, x2, y2) is scaled by spatial_scale and
// rounded; it spans max(x2 - x1 + 1, 1) columns (rows likewise). Bin (i, j)
// covers rows [floor(i * bh), ceil((i + 1) * bh)) from y1, clipped to the
// map, bh = roi height / ph. Its output is the bin's maximum and max_idx the
// flat index h * W + w of the first maximum; an empty bin (or a roi whose batch
// index is outside [0, N)) gives 0 and max_idx -1. The backward recomputes
// the argmax from data rather than reading max_idx back (max_idx is stored in
// the data's dtype, which cannot hold every index in float16/bfloat16).
#pragma once
#include <cstdint>

#include "core/opdef/params.h"
#include "core/op/spatial/spatial_hd.h"

namespace weft {
namespace spatial {

struct RoiPoolGeom {
  int64_t batch = 0, c = 0, h = 0, w = 0, rois = 0, ph = 0, pw = 0;
  double scale = 1;
};

struct RoiBin {
  int64_t n = -1;  // batch index, -1 when out of range or the bin is empty
  int64_t h0 = 0, h1 = 0, w0 = 0, w1 = 0;
};

template <typename T>
WEFT_HD inline RoiBin RoiPoolBin(const RoiPoolGeom& g, const T* rois, int64_t r, int64_t i, int64_t j) {
  const T* b = rois + r * 5;
  RoiBin bin;
  const int64_t n = TruncI(static_cast<double>(b[0]));
  const int64_t x1 = RoundHalfAway(static_cast<double>(b[1]) * g.scale);
  const int64_t y1 = RoundHalfAway(static_cast<double>(b[2]) * g.scale);
  const int64_t x2 = RoundHalfAway(static_cast<double>(b[3]) * g.scale);
  const int64_t y2 = RoundHalfAway(static_cast<double>(b[4]) * g.scale);
  // Corners from data or an infinite spatial_scale saturate to +-9.2e18, whose int64
  // difference overflows: the extents are taken in double (exact below 2**53) and the bin
  // edges added with saturation, then clipped.
  const double rh = MaxA(static_cast<double>(y2) - static_cast<double>(y1) + 1.0, 1.0);
  const double rw = MaxA(static_cast<double>(x2) - static_cast<double>(x1) + 1.0, 1.0);
  const double bh = rh / static_cast<double>(g.ph);
  const double bw = rw / static_cast<double>(g.pw);
  bin.h0 = ClipI(SatAddI(FloorI(static_cast<double>(i) * bh), y1), g.h);
  bin.h1 = ClipI(SatAddI(CeilI(static_cast<double>(i + 1) * bh), y1), g.h);
  bin.w0 = ClipI(SatAddI(FloorI(static_cast<double>(j) * bw), x1), g.w);
  bin.w1 = ClipI(SatAddI(CeilI(static_cast<double>(j + 1) * bw), x1), g.w);
  const bool empty = bin.h1 <= bin.h0 || bin.w1 <= bin.w0;
  bin.n = (n >= 0 && n < g.batch && !empty) ? n : -1;
  return bin;
}

// The flat index (h * W + w) of the first maximum of plane over the bin; -1 if empty.
template <typename T, typename A>
WEFT_HD inline int64_t RoiPoolArgmax(const RoiPoolGeom& g, const RoiBin& bin, const T* plane) {
  if (bin.n < 0) return -1;
  int64_t best = bin.h0 * g.w + bin.w0;
  A v = static_cast<A>(plane[best]);
  for (int64_t h = bin.h0; h < bin.h1; ++h)
    for (int64_t w = bin.w0; w < bin.w1; ++w) {
      const A x = static_cast<A>(plane[h * g.w + w]);
      if (x > v) {
        v = x;
        best = h * g.w + w;
      }
    }
  return best;
}

template <typename T, typename A>
WEFT_HD inline void RoiPoolForwardAt(const RoiPoolGeom& g, const T* data, const T* rois, OpReq req, T* out,
                                     OpReq req_idx, T* max_idx, int64_t e) {
  // Divided step by step: pw * ph * c may not fit when the data has no pixels.
  const int64_t j = e % g.pw, i = (e / g.pw) % g.ph, c = (e / g.pw / g.ph) % g.c, r = e / g.pw / g.ph / g.c;
  const RoiBin bin = RoiPoolBin(g, rois, r, i, j);
  // Only a roi of a real batch item has a plane (then the offset is inside data).
  const T* plane = bin.n < 0 ? data : data + (bin.n * g.c + c) * g.h * g.w;
  const int64_t k = RoiPoolArgmax<T, A>(g, bin, plane);
  if (req != OpReq::kNull) Put(out + e, req, k < 0 ? static_cast<A>(0) : static_cast<A>(plane[k]));
  if (req_idx != OpReq::kNull) max_idx[e] = static_cast<T>(static_cast<A>(k));
}

// gdata plane p = (n, c) (req)= out_grad of every bin of channel c of a roi of
// batch n, at the bin's argmax.
template <typename T, typename A>
WEFT_HD inline void RoiPoolBackwardPlane(const RoiPoolGeom& g, const T* gout, const T* data, const T* rois, OpReq req,
                                         T* gdata, int64_t p) {
  const int64_t n = p / g.c, c = p % g.c;
  T* d = gdata + p * g.h * g.w;
  const T* plane = data + p * g.h * g.w;
  ClearPlane(d, g.h * g.w, req);
  for (int64_t r = 0; r < g.rois; ++r)
    for (int64_t i = 0; i < g.ph; ++i)
      for (int64_t j = 0; j < g.pw; ++j) {
        const RoiBin bin = RoiPoolBin(g, rois, r, i, j);
        if (bin.n != n) continue;
        const int64_t k = RoiPoolArgmax<T, A>(g, bin, plane);
        AddTo(d + k, static_cast<A>(gout[((r * g.c + c) * g.ph + i) * g.pw + j]));
      }
}

inline RoiPoolGeom RoiPoolGeomOf(const Params& p, const Shape& data, const Shape& rois, const Shape& out) {
  RoiPoolGeom g;
  g.batch = data[0];
  g.c = data[1];
  g.h = data[2];
  g.w = data[3];
  g.rois = rois[0];
  g.ph = out[2];
  g.pw = out[3];
  g.scale = p.GetFloat("spatial_scale");
  return g;
}

}  // namespace spatial
}  // namespace weft
