// The value rule of _contrib_ROIAlign and its backward (Mask R-CNN's RoIAlign
// as MXNet has it), shared by roi_align_cpu.cc and roi_align.cu (Note [One
// spatial rule], spatial_hd.h).
//
// A roi row is (batch_index, x1, y1, x2, y2) (or 4 columns, batch 0), scaled
// by spatial_scale and shifted by -0.5 when `aligned`. Without `aligned` a roi
// is at least 1 x 1. Bin (i, j) of a (ph, pw) grid averages g_h x g_w samples
// (sample_ratio, or ceil(roi size / pooled size)) at the sample centres, each
// read by Caffe2's bilinear rule: a point more than one pixel outside the map
// reads 0, coordinates are clamped at 0 and at the last row/column.
// position_sensitive reads input channel (c * ph + i) * pw + j for output
// channel c (R-FCN's layout).
#pragma once
#include <cstdint>

#include "core/opdef/params.h"
#include "core/op/spatial/spatial_hd.h"

namespace weft {
namespace spatial {

struct RoiAlignGeom {
  int64_t batch = 0, in_c = 0, h = 0, w = 0;  // data (N, C_in, H, W)
  int64_t rois = 0, roi_cols = 5;             // rois (R, 4 or 5)
  int64_t out_c = 0, ph = 0, pw = 0;          // output (R, C_out, ph, pw)
  double scale = 1;
  int64_t sample_ratio = -1;
  bool position_sensitive = false, aligned = false;
};

// One roi's frame: start, bin size and sample grid.
template <typename A>
struct RoiFrame {
  int64_t batch = -1;  // -1: the roi's batch index is outside [0, N)
  A y0 = 0, x0 = 0, bin_h = 0, bin_w = 0;
  int64_t gh = 1, gw = 1;
};

template <typename T, typename A>
WEFT_HD inline RoiFrame<A> RoiFrameOf(const RoiAlignGeom& g, const T* rois, int64_t r) {
  const T* b = rois + r * g.roi_cols;
  RoiFrame<A> f;
  int64_t n = 0;
  if (g.roi_cols == 5) {
    n = TruncI(static_cast<double>(static_cast<A>(b[0])));  // NaN or huge from data: saturated, then off the batch
    ++b;
  }
  f.batch = (n >= 0 && n < g.batch) ? n : -1;
  const A s = static_cast<A>(g.scale), off = g.aligned ? static_cast<A>(0.5) : static_cast<A>(0);
  f.x0 = static_cast<A>(b[0]) * s - off;
  f.y0 = static_cast<A>(b[1]) * s - off;
  A rw = static_cast<A>(b[2]) * s - off - f.x0, rh = static_cast<A>(b[3]) * s - off - f.y0;
  if (!g.aligned) {
    rw = MaxA(rw, static_cast<A>(1));
    rh = MaxA(rh, static_cast<A>(1));
  }
  f.bin_h = rh / static_cast<A>(g.ph);
  f.bin_w = rw / static_cast<A>(g.pw);
  f.gh = g.sample_ratio > 0 ? g.sample_ratio : AdaptiveSamples(static_cast<double>(rh / static_cast<A>(g.ph)), g.h);
  f.gw = g.sample_ratio > 0 ? g.sample_ratio : AdaptiveSamples(static_cast<double>(rw / static_cast<A>(g.pw)), g.w);
  return f;
}

// Caffe2's bilinear taps of point (y, x) in an (h, w) map: 4 offsets and
// weights; all weights 0 when the point is out of the map.
template <typename A>
struct Taps4 {
  int64_t pos[4] = {0, 0, 0, 0};
  A wt[4] = {0, 0, 0, 0};
};

template <typename A>
WEFT_HD inline Taps4<A> RoiTaps(A y, A x, int64_t h, int64_t w) {
  Taps4<A> t;
  // Written so a NaN coordinate (from data) is off the map too: it has no int64 value.
  if (!(y >= static_cast<A>(-1) && y <= static_cast<A>(h) && x >= static_cast<A>(-1) && x <= static_cast<A>(w))) return t;
  if (y <= static_cast<A>(0)) y = static_cast<A>(0);
  if (x <= static_cast<A>(0)) x = static_cast<A>(0);
  int64_t y0 = static_cast<int64_t>(y), x0 = static_cast<int64_t>(x), y1 = y0 + 1, x1 = x0 + 1;
  if (y0 >= h - 1) {
    y0 = y1 = h - 1;
    y = static_cast<A>(y0);
  }
  if (x0 >= w - 1) {
    x0 = x1 = w - 1;
    x = static_cast<A>(x0);
  }
  const A ly = y - static_cast<A>(y0), lx = x - static_cast<A>(x0);
  const A hy = static_cast<A>(1) - ly, hx = static_cast<A>(1) - lx;
  t.pos[0] = y0 * w + x0;
  t.pos[1] = y0 * w + x1;
  t.pos[2] = y1 * w + x0;
  t.pos[3] = y1 * w + x1;
  t.wt[0] = hy * hx;
  t.wt[1] = hy * lx;
  t.wt[2] = ly * hx;
  t.wt[3] = ly * lx;
  return t;
}

template <typename A>
WEFT_HD inline A SampleY(const RoiFrame<A>& f, int64_t i, int64_t iy) {
  return f.y0 + static_cast<A>(i) * f.bin_h + (static_cast<A>(iy) + static_cast<A>(0.5)) * f.bin_h / static_cast<A>(f.gh);
}
template <typename A>
WEFT_HD inline A SampleX(const RoiFrame<A>& f, int64_t j, int64_t ix) {
  return f.x0 + static_cast<A>(j) * f.bin_w + (static_cast<A>(ix) + static_cast<A>(0.5)) * f.bin_w / static_cast<A>(f.gw);
}

WEFT_HD inline int64_t InChannel(const RoiAlignGeom& g, int64_t c, int64_t i, int64_t j) {
  return g.position_sensitive ? (c * g.ph + i) * g.pw + j : c;
}

template <typename T, typename A>
WEFT_HD inline void RoiAlignForwardAt(const RoiAlignGeom& g, const T* data, const T* rois, OpReq req, T* out,
                                      int64_t e) {
  const int64_t j = e % g.pw, i = (e / g.pw) % g.ph, c = (e / (g.pw * g.ph)) % g.out_c, r = e / (g.pw * g.ph * g.out_c);
  const RoiFrame<A> f = RoiFrameOf<T, A>(g, rois, r);
  A acc = static_cast<A>(0);
  if (f.batch >= 0) {
    const T* plane = data + (f.batch * g.in_c + InChannel(g, c, i, j)) * g.h * g.w;
    for (int64_t iy = 0; iy < f.gh; ++iy) {
      const A y = SampleY(f, i, iy);
      for (int64_t ix = 0; ix < f.gw; ++ix) {
        const Taps4<A> t = RoiTaps(y, SampleX(f, j, ix), g.h, g.w);
        for (int k = 0; k < 4; ++k) acc += t.wt[k] * static_cast<A>(plane[t.pos[k]]);
      }
    }
    const int64_t count = f.gh * f.gw > 0 ? f.gh * f.gw : 1;
    acc /= static_cast<A>(count);
  }
  Put(out + e, req, acc);
}

// gdata plane p = (n, c_in) (req)= the sum over the rois of batch n and the
// bins that read channel c_in of out_grad * weight / count.
template <typename T, typename A>
WEFT_HD inline void RoiAlignBackwardPlane(const RoiAlignGeom& g, const T* gout, const T* rois, OpReq req, T* gdata,
                                          int64_t p) {
  const int64_t n = p / g.in_c, cin = p % g.in_c;
  T* d = gdata + p * g.h * g.w;
  ClearPlane(d, g.h * g.w, req);
  const int64_t bins = g.ph * g.pw;
  for (int64_t r = 0; r < g.rois; ++r) {
    const RoiFrame<A> f = RoiFrameOf<T, A>(g, rois, r);
    if (f.batch != n) continue;
    const int64_t count = f.gh * f.gw > 0 ? f.gh * f.gw : 1;
    // The bins of roi r that read channel cin: one bin of output channel
    // cin / bins (position-sensitive), else every bin of channel cin.
    const int64_t c = g.position_sensitive ? cin / bins : cin;
    if (c >= g.out_c) continue;
    const int64_t first = g.position_sensitive ? cin % bins : 0, last = g.position_sensitive ? first + 1 : bins;
    for (int64_t b = first; b < last; ++b) {
      const int64_t i = b / g.pw, j = b % g.pw;
      const A go = static_cast<A>(gout[((r * g.out_c + c) * g.ph + i) * g.pw + j]) / static_cast<A>(count);
      for (int64_t iy = 0; iy < f.gh; ++iy) {
        const A y = SampleY(f, i, iy);
        for (int64_t ix = 0; ix < f.gw; ++ix) {
          const Taps4<A> t = RoiTaps(y, SampleX(f, j, ix), g.h, g.w);
          for (int k = 0; k < 4; ++k)
            if (t.wt[k] != static_cast<A>(0)) AddTo(d + t.pos[k], t.wt[k] * go);
        }
      }
    }
  }
}

// The geometry of data (N, C, H, W), rois (R, 4|5) and output (R, C_out, ph, pw).
inline RoiAlignGeom RoiAlignGeomOf(const Params& p, const Shape& data, const Shape& rois, const Shape& out) {
  RoiAlignGeom g;
  g.batch = data[0];
  g.in_c = data[1];
  g.h = data[2];
  g.w = data[3];
  g.rois = rois[0];
  g.roi_cols = rois[1];
  g.out_c = out[1];
  g.ph = out[2];
  g.pw = out[3];
  g.scale = p.GetFloat("spatial_scale");
  g.sample_ratio = p.GetInt("sample_ratio");
  g.position_sensitive = p.GetBool("position_sensitive");
  g.aligned = p.GetBool("aligned");
  return g;
}

}  // namespace spatial
}  // namespace weft
