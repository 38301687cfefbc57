// The value rule of _contrib_RROIAlign (rotated RoIAlign, as MXNet has it),
// shared by rroi_align_cpu.cc and rroi_align.cu (Note [One spatial rule],
// spatial_hd.h). A roi row is (batch_index, center_x, center_y, width,
// height, angle in degrees); the sampling grid of ROIAlign is laid out in the
// roi's frame (origin at its centre) and rotated into the map by
// x = xx cos + yy sin + cx, y = yy cos - xx sin + cy; each sample is read by
// ROIAlign's bilinear rule (roi_align_rules.h). Width and height are at least 1.
#pragma once
#include <cmath>
#include <cstdint>

#include "core/op/spatial/roi_align_rules.h"

namespace weft {
namespace spatial {

struct RRoiGeom {
  int64_t batch = 0, c = 0, h = 0, w = 0, ph = 0, pw = 0;
  double scale = 1;
  int64_t sample_ratio = -1;
};

template <typename T, typename A>
WEFT_HD inline void RRoiAlignForwardAt(const RRoiGeom& g, const T* data, const T* rois, OpReq req, T* out, int64_t e) {
  const int64_t j = e % g.pw, i = (e / g.pw) % g.ph, c = (e / (g.pw * g.ph)) % g.c, r = e / (g.pw * g.ph * g.c);
  const T* b = rois + r * 6;
  const int64_t n = TruncI(static_cast<double>(b[0]));
  A acc = static_cast<A>(0);
  if (n >= 0 && n < g.batch) {
    const A s = static_cast<A>(g.scale);
    const A cx = static_cast<A>(b[1]) * s, cy = static_cast<A>(b[2]) * s;
    const A rw = MaxA(static_cast<A>(b[3]) * s, static_cast<A>(1)), rh = MaxA(static_cast<A>(b[4]) * s, static_cast<A>(1));
    const double theta = static_cast<double>(b[5]) * 3.14159265358979323846 / 180.0;
    const A ct = static_cast<A>(cos(theta)), st = static_cast<A>(sin(theta));
    const A bh = rh / static_cast<A>(g.ph), bw = rw / static_cast<A>(g.pw);
    const int64_t gh = g.sample_ratio > 0 ? g.sample_ratio : AdaptiveSamples(static_cast<double>(rh / static_cast<A>(g.ph)), g.h);
    const int64_t gw = g.sample_ratio > 0 ? g.sample_ratio : AdaptiveSamples(static_cast<double>(rw / static_cast<A>(g.pw)), g.w);
    const T* plane = data + (n * g.c + c) * g.h * g.w;
    for (int64_t iy = 0; iy < gh; ++iy) {
      const A yy = -rh / static_cast<A>(2) + static_cast<A>(i) * bh +
                   (static_cast<A>(iy) + static_cast<A>(0.5)) * bh / static_cast<A>(gh);
      for (int64_t ix = 0; ix < gw; ++ix) {
        const A xx = -rw / static_cast<A>(2) + static_cast<A>(j) * bw +
                     (static_cast<A>(ix) + static_cast<A>(0.5)) * bw / static_cast<A>(gw);
        const Taps4<A> t = RoiTaps(yy * ct - xx * st + cy, xx * ct + yy * st + cx, g.h, g.w);
        for (int k = 0; k < 4; ++k) acc += t.wt[k] * static_cast<A>(plane[t.pos[k]]);
      }
    }
    acc /= static_cast<A>(gh * gw > 0 ? gh * gw : 1);
  }
  Put(out + e, req, acc);
}

inline RRoiGeom RRoiGeomOf(const Params& p, const Shape& data, const Shape& out) {
  RRoiGeom g;
  g.batch = data[0];
  g.c = data[1];
  g.h = data[2];
  g.w = data[3];
  g.ph = out[2];
  g.pw = out[3];
  g.scale = p.GetFloat("spatial_scale");
  g.sample_ratio = p.GetInt("sampling_ratio");
  return g;
}

}  // namespace spatial
}  // namespace weft
