// The value rule of _contrib_DeformablePSROIPooling (deformable R-FCN's
// position-sensitive roi pooling, as MXNet has it) and its backward, shared by
// deformable_psroi_cpu.cc and deformable_psroi.cu (Note [One spatial rule],
// spatial_hd.h).
//
// A roi (batch, x1, y1, x2, y2) is rounded and scaled with a -0.5 shift
// (start round(x1) * scale - 0.5, end (round(x2) + 1) * scale - 0.5, at least
// 0.1). Bin (i, j) of the pooled_size grid is shifted by trans (num_rois,
// 2 * num_classes, part_size, part_size) at part (floor(i / pooled * part),
// ...) of the class of its output channel, times trans_std and the roi size,
// and averages sample_per_part^2 samples of input channel (c * group + gi) *
// group + gj; a sample outside [-0.5, size - 0.5] is skipped, the others are
// clamped to the map and read bilinearly (floor/ceil corners). The output is
// the mean over the samples taken (0 when none); top_count their number.
// The gradient of trans is the derivative of the mean (0 for a clamped
// coordinate, where the value does not move).
#pragma once
#include <cstdint>

#include "core/opdef/params.h"
#include "core/op/spatial/spatial_hd.h"

namespace weft {
namespace spatial {

struct DPSGeom {
  int64_t batch = 0, c = 0, h = 0, w = 0, rois = 0;
  int64_t out_c = 0, pooled = 1, group = 1, part = 1, samples = 1, classes = 1;
  double scale = 1, trans_std = 0;
  bool no_trans = false;
};

template <typename A>
struct DPSBin {
  int64_t n = -1, cin = 0, tx = -1, ty = -1;  // trans element indices (-1: no_trans)
  A x0 = 0, y0 = 0, sub_w = 0, sub_h = 0, rw = 0, rh = 0;
};

template <typename T, typename A>
WEFT_HD inline DPSBin<A> DPSBinOf(const DPSGeom& g, const T* rois, const T* trans, int64_t r, int64_t c, int64_t i,
                                  int64_t j) {
  const T* b = rois + r * 5;
  DPSBin<A> bin;
  const int64_t n = TruncI(static_cast<double>(b[0]));  // NaN or huge from data: saturated, then off the batch
  bin.n = (n >= 0 && n < g.batch) ? n : -1;
  const A s = static_cast<A>(g.scale), half = static_cast<A>(0.5);
  const A xs = static_cast<A>(RoundHalfAway(static_cast<double>(b[1]))) * s - half;
  const A ys = static_cast<A>(RoundHalfAway(static_cast<double>(b[2]))) * s - half;
  const A xe = static_cast<A>(RoundHalfAway(static_cast<double>(b[3])) + 1) * s - half;
  const A ye = static_cast<A>(RoundHalfAway(static_cast<double>(b[4])) + 1) * s - half;
  bin.rw = MaxA(xe - xs, static_cast<A>(0.1));
  bin.rh = MaxA(ye - ys, static_cast<A>(0.1));
  const A bw = bin.rw / static_cast<A>(g.pooled), bh = bin.rh / static_cast<A>(g.pooled);
  bin.sub_w = bw / static_cast<A>(g.samples);
  bin.sub_h = bh / static_cast<A>(g.samples);
  A dx = 0, dy = 0;
  if (!g.no_trans) {
    const int64_t ph = (i * g.part) / g.pooled, pw = (j * g.part) / g.pooled;
    const int64_t cls = c / (g.out_c / g.classes);
    bin.tx = (((r * g.classes + cls) * 2) * g.part + ph) * g.part + pw;
    bin.ty = (((r * g.classes + cls) * 2 + 1) * g.part + ph) * g.part + pw;
    dx = static_cast<A>(trans[bin.tx]) * static_cast<A>(g.trans_std);
    dy = static_cast<A>(trans[bin.ty]) * static_cast<A>(g.trans_std);
  }
  bin.x0 = static_cast<A>(j) * bw + xs + dx * bin.rw;
  bin.y0 = static_cast<A>(i) * bh + ys + dy * bin.rh;
  int64_t gi = (i * g.group) / g.pooled, gj = (j * g.group) / g.pooled;
  gi = gi < g.group - 1 ? gi : g.group - 1;
  gj = gj < g.group - 1 ? gj : g.group - 1;
  bin.cin = (c * g.group + gi) * g.group + gj;
  return bin;
}

// One sample: false when skipped; else the clamped position and whether each
// coordinate was clamped.
template <typename A>
WEFT_HD inline bool DPSSample(const DPSGeom& g, const DPSBin<A>& b, int64_t ih, int64_t iw, A* x, A* y, bool* cx,
                              bool* cy) {
  A xx = b.x0 + static_cast<A>(iw) * b.sub_w, yy = b.y0 + static_cast<A>(ih) * b.sub_h;
  const A half = static_cast<A>(0.5);
  if (xx < -half || xx > static_cast<A>(g.w) - half || yy < -half || yy > static_cast<A>(g.h) - half) return false;
  *cx = xx < static_cast<A>(0) || xx > static_cast<A>(g.w - 1);
  *cy = yy < static_cast<A>(0) || yy > static_cast<A>(g.h - 1);
  *x = MinA(MaxA(xx, static_cast<A>(0)), static_cast<A>(g.w - 1));
  *y = MinA(MaxA(yy, static_cast<A>(0)), static_cast<A>(g.h - 1));
  return true;
}

// Corners of a clamped point (floor/ceil) and its fractions.
template <typename A>
struct DPSCorners {
  int64_t x1 = 0, x2 = 0, y1 = 0, y2 = 0;
  A dx = 0, dy = 0;
};
template <typename A>
WEFT_HD inline DPSCorners<A> DPSCornersOf(A x, A y) {
  DPSCorners<A> k;
  k.x1 = FloorI(static_cast<double>(x));
  k.x2 = CeilI(static_cast<double>(x));
  k.y1 = FloorI(static_cast<double>(y));
  k.y2 = CeilI(static_cast<double>(y));
  k.dx = x - static_cast<A>(k.x1);
  k.dy = y - static_cast<A>(k.y1);
  return k;
}

template <typename T, typename A>
WEFT_HD inline A DPSRead(const T* p, int64_t w, const DPSCorners<A>& k) {
  const A one = static_cast<A>(1);
  return (one - k.dx) * (one - k.dy) * static_cast<A>(p[k.y1 * w + k.x1]) +
         (one - k.dx) * k.dy * static_cast<A>(p[k.y2 * w + k.x1]) +
         k.dx * (one - k.dy) * static_cast<A>(p[k.y1 * w + k.x2]) + k.dx * k.dy * static_cast<A>(p[k.y2 * w + k.x2]);
}

template <typename T, typename A>
WEFT_HD inline int64_t DPSCount(const DPSGeom& g, const DPSBin<A>& b) {
  int64_t count = 0;
  for (int64_t ih = 0; ih < g.samples; ++ih)
    for (int64_t iw = 0; iw < g.samples; ++iw) {
      A x, y;
      bool cx, cy;
      if (DPSSample(g, b, ih, iw, &x, &y, &cx, &cy)) ++count;
    }
  return count;
}

template <typename T, typename A>
WEFT_HD inline void DPSForwardAt(const DPSGeom& g, const T* data, const T* rois, const T* trans, OpReq req, T* out,
                                 OpReq req_count, T* top_count, int64_t e) {
  const int64_t j = e % g.pooled, i = (e / g.pooled) % g.pooled, c = (e / (g.pooled * g.pooled)) % g.out_c,
                r = e / (g.pooled * g.pooled * g.out_c);
  const DPSBin<A> b = DPSBinOf<T, A>(g, rois, trans, r, c, i, j);
  A sum = static_cast<A>(0);
  int64_t count = 0;
  if (b.n >= 0) {
    const T* plane = data + (b.n * g.c + b.cin) * g.h * g.w;
    for (int64_t ih = 0; ih < g.samples; ++ih)
      for (int64_t iw = 0; iw < g.samples; ++iw) {
        A x, y;
        bool cx, cy;
        if (!DPSSample(g, b, ih, iw, &x, &y, &cx, &cy)) continue;
        sum += DPSRead<T, A>(plane, g.w, DPSCornersOf(x, y));
        ++count;
      }
  }
  if (req != OpReq::kNull) Put(out + e, req, count == 0 ? static_cast<A>(0) : sum / static_cast<A>(count));
  if (req_count != OpReq::kNull) Put(top_count + e, req_count, static_cast<A>(count));
}

// gdata plane p = (n, cin) (req)= the scatter of out_grad / count of every
// sample of every bin that reads it.
template <typename T, typename A>
WEFT_HD inline void DPSBackwardDataPlane(const DPSGeom& g, const T* gout, const T* rois, const T* trans, OpReq req,
                                         T* gdata, int64_t p) {
  const int64_t n = p / g.c, cin = p % g.c, c = cin / (g.group * g.group);
  T* d = gdata + p * g.h * g.w;
  ClearPlane(d, g.h * g.w, req);
  if (c >= g.out_c) return;
  const A one = static_cast<A>(1);
  for (int64_t r = 0; r < g.rois; ++r)
    for (int64_t i = 0; i < g.pooled; ++i)
      for (int64_t j = 0; j < g.pooled; ++j) {
        const DPSBin<A> b = DPSBinOf<T, A>(g, rois, trans, r, c, i, j);
        if (b.n != n || b.cin != cin) continue;
        const int64_t count = DPSCount<T, A>(g, b);
        if (count == 0) continue;
        const A go = static_cast<A>(gout[((r * g.out_c + c) * g.pooled + i) * g.pooled + j]) / static_cast<A>(count);
        for (int64_t ih = 0; ih < g.samples; ++ih)
          for (int64_t iw = 0; iw < g.samples; ++iw) {
            A x, y;
            bool cx, cy;
            if (!DPSSample(g, b, ih, iw, &x, &y, &cx, &cy)) continue;
            const DPSCorners<A> k = DPSCornersOf(x, y);
            AddTo(d + k.y1 * g.w + k.x1, go * (one - k.dx) * (one - k.dy));
            AddTo(d + k.y2 * g.w + k.x1, go * (one - k.dx) * k.dy);
            AddTo(d + k.y1 * g.w + k.x2, go * k.dx * (one - k.dy));
            AddTo(d + k.y2 * g.w + k.x2, go * k.dx * k.dy);
          }
      }
}

// gtrans[e] (req)= d loss / d trans[e]: over the bins that read trans element
// e, out_grad / count times the slope of each unclamped sample along e's
// direction, times trans_std and the roi's size.
template <typename T, typename A>
WEFT_HD inline void DPSBackwardTransAt(const DPSGeom& g, const T* gout, const T* data, const T* rois, const T* trans,
                                       OpReq req, T* gtrans, int64_t e) {
  const int64_t pw = e % g.part, ph = (e / g.part) % g.part, dir = (e / (g.part * g.part)) % 2,
                cls = (e / (2 * g.part * g.part)) % g.classes, r = e / (2 * g.part * g.part * g.classes);
  const int64_t per_class = g.out_c / g.classes;
  const A one = static_cast<A>(1);
  A acc = static_cast<A>(0);
  for (int64_t c = cls * per_class; c < (cls + 1) * per_class; ++c)
    for (int64_t i = 0; i < g.pooled; ++i) {
      if ((i * g.part) / g.pooled != ph) continue;
      for (int64_t j = 0; j < g.pooled; ++j) {
        if ((j * g.part) / g.pooled != pw) continue;
        const DPSBin<A> b = DPSBinOf<T, A>(g, rois, trans, r, c, i, j);
        if (b.n < 0) continue;
        const int64_t count = DPSCount<T, A>(g, b);
        if (count == 0) continue;
        const T* plane = data + (b.n * g.c + b.cin) * g.h * g.w;
        const A go = static_cast<A>(gout[((r * g.out_c + c) * g.pooled + i) * g.pooled + j]) / static_cast<A>(count);
        for (int64_t ih = 0; ih < g.samples; ++ih)
          for (int64_t iw = 0; iw < g.samples; ++iw) {
            A x, y;
            bool cx, cy;
            if (!DPSSample(g, b, ih, iw, &x, &y, &cx, &cy)) continue;
            if (dir == 0 ? cx : cy) continue;
            const DPSCorners<A> k = DPSCornersOf(x, y);
            const A v11 = static_cast<A>(plane[k.y1 * g.w + k.x1]), v12 = static_cast<A>(plane[k.y2 * g.w + k.x1]);
            const A v21 = static_cast<A>(plane[k.y1 * g.w + k.x2]), v22 = static_cast<A>(plane[k.y2 * g.w + k.x2]);
            const A slope = dir == 0 ? (one - k.dy) * (v21 - v11) + k.dy * (v22 - v12)
                                     : (one - k.dx) * (v12 - v11) + k.dx * (v22 - v21);
            acc += go * slope * (dir == 0 ? b.rw : b.rh);
          }
      }
    }
  Put(gtrans + e, req, acc * static_cast<A>(g.trans_std));
}

inline DPSGeom DPSGeomOf(const Params& p, const Shape& data, const Shape& rois, const Shape* trans) {
  DPSGeom g;
  g.batch = data[0];
  g.c = data[1];
  g.h = data[2];
  g.w = data[3];
  g.rois = rois[0];
  g.out_c = p.GetInt("output_dim");
  g.pooled = p.GetInt("pooled_size");
  g.group = p.GetInt("group_size");
  g.part = p.GetInt("part_size") == 0 ? g.pooled : p.GetInt("part_size");
  g.samples = p.GetInt("sample_per_part");
  g.trans_std = p.GetFloat("trans_std");
  g.no_trans = p.GetBool("no_trans");
  g.classes = g.no_trans || trans == nullptr ? 1 : (*trans)[1] / 2;
  g.scale = p.GetFloat("spatial_scale");
  return g;
}

}  // namespace spatial
}  // namespace weft
