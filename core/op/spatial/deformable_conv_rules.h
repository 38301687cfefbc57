// The sampling rules of _contrib_DeformableConvolution and
// _contrib_ModulatedDeformableConvolution (deformable convolution v1 and v2,
// as MXNet has them) and their backward, shared by deformable_conv_cpu.cc and
// deformable_conv.cu (Note [One spatial rule], spatial_hd.h). The products
// with the weight are GEMMs (nn_cpu::Gemm, gpu::Gemm) around these rules.
//
// Note [Deformable im2col]
// col[(c, i, j), p] for output point p = (oh, ow) reads channel c of the image
// at y = oh * stride_h - pad_h + i * dilate_h + dy, x likewise + dx, where
// (dy, dx) are offset channels 2 (i kw + j) and 2 (i kw + j) + 1 of c's
// deformable group (channels split into num_deformable_group equal groups,
// each with 2 kh kw offset channels), times mask channel i kw + j of that
// group in the modulated op. The read is bilinear; a point with y <= -1,
// y >= H, x <= -1 or x >= W reads 0 and corner pixels outside the map read 0.
// The data gradient scatters d col through the same weights (one index per
// (image, channel) plane); the offset and mask gradients gather over the
// channels of their deformable group.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/base/shape.h"
#include "core/op/spatial/spatial_hd.h"
#include "core/opdef/params.h"

namespace weft {
namespace spatial {

struct DeformGeom {
  int64_t batch = 0, c = 0, h = 0, w = 0;  // data
  int64_t f = 0, kh = 0, kw = 0;           // weight (f, c / groups, kh, kw)
  int64_t sh = 1, sw = 1, ph = 0, pw = 0, dh = 1, dw = 1;
  int64_t oh = 0, ow = 0;
  int64_t groups = 1, dgroups = 1;
  bool modulated = false;
  WEFT_HD int64_t P() const { return oh * ow; }
  WEFT_HD int64_t K() const { return c * kh * kw; }  // col rows
};

// The bilinear read at (y, x); 0 outside (-1, H) x (-1, W).
template <typename T, typename A>
WEFT_HD inline A DcnRead(const T* plane, int64_t h, int64_t w, A y, A x) {
  if (!(y > static_cast<A>(-1) && x > static_cast<A>(-1) && y < static_cast<A>(h) && x < static_cast<A>(w)))
    return static_cast<A>(0);
  const int64_t y0 = FloorI(static_cast<double>(y)), x0 = FloorI(static_cast<double>(x)), y1 = y0 + 1, x1 = x0 + 1;
  const A ly = y - static_cast<A>(y0), lx = x - static_cast<A>(x0), hy = static_cast<A>(1) - ly,
          hx = static_cast<A>(1) - lx;
  const A v1 = (y0 >= 0 && x0 >= 0) ? static_cast<A>(plane[y0 * w + x0]) : static_cast<A>(0);
  const A v2 = (y0 >= 0 && x1 <= w - 1) ? static_cast<A>(plane[y0 * w + x1]) : static_cast<A>(0);
  const A v3 = (y1 <= h - 1 && x0 >= 0) ? static_cast<A>(plane[y1 * w + x0]) : static_cast<A>(0);
  const A v4 = (y1 <= h - 1 && x1 <= w - 1) ? static_cast<A>(plane[y1 * w + x1]) : static_cast<A>(0);
  return hy * hx * v1 + hy * lx * v2 + ly * hx * v3 + ly * lx * v4;
}

// d DcnRead / d y (dir 0) or d x (dir 1).
template <typename T, typename A>
WEFT_HD inline A DcnSlope(const T* plane, int64_t h, int64_t w, A y, A x, int dir) {
  if (!(y > static_cast<A>(-1) && x > static_cast<A>(-1) && y < static_cast<A>(h) && x < static_cast<A>(w)))
    return static_cast<A>(0);
  const int64_t y0 = FloorI(static_cast<double>(y)), x0 = FloorI(static_cast<double>(x)), y1 = y0 + 1, x1 = x0 + 1;
  const A ly = y - static_cast<A>(y0), lx = x - static_cast<A>(x0), hy = static_cast<A>(1) - ly,
          hx = static_cast<A>(1) - lx;
  const A v1 = (y0 >= 0 && x0 >= 0) ? static_cast<A>(plane[y0 * w + x0]) : static_cast<A>(0);
  const A v2 = (y0 >= 0 && x1 <= w - 1) ? static_cast<A>(plane[y0 * w + x1]) : static_cast<A>(0);
  const A v3 = (y1 <= h - 1 && x0 >= 0) ? static_cast<A>(plane[y1 * w + x0]) : static_cast<A>(0);
  const A v4 = (y1 <= h - 1 && x1 <= w - 1) ? static_cast<A>(plane[y1 * w + x1]) : static_cast<A>(0);
  if (dir == 0) return hx * (v3 - v1) + lx * (v4 - v2);
  return hy * (v2 - v1) + ly * (v4 - v3);
}

// Adds g times the bilinear weights of (y, x) to the in-map corners.
template <typename T, typename A>
WEFT_HD inline void DcnScatter(T* plane, int64_t h, int64_t w, A y, A x, A g) {
  if (!(y > static_cast<A>(-1) && x > static_cast<A>(-1) && y < static_cast<A>(h) && x < static_cast<A>(w))) return;
  const int64_t y0 = FloorI(static_cast<double>(y)), x0 = FloorI(static_cast<double>(x)), y1 = y0 + 1, x1 = x0 + 1;
  const A ly = y - static_cast<A>(y0), lx = x - static_cast<A>(x0), hy = static_cast<A>(1) - ly,
          hx = static_cast<A>(1) - lx;
  if (y0 >= 0 && x0 >= 0) AddTo(plane + y0 * w + x0, g * hy * hx);
  if (y0 >= 0 && x1 <= w - 1) AddTo(plane + y0 * w + x1, g * hy * lx);
  if (y1 <= h - 1 && x0 >= 0) AddTo(plane + y1 * w + x0, g * ly * hx);
  if (y1 <= h - 1 && x1 <= w - 1) AddTo(plane + y1 * w + x1, g * ly * lx);
}

// The sampling point of kernel tap (i, j) at output point p for deformable
// group dg of one image (offset (2 dg kh kw + ..., P), mask (dg kh kw + ..., P)).
template <typename T, typename A>
struct DcnPoint {
  A y = 0, x = 0, m = 1;
};

template <typename T, typename A>
WEFT_HD inline DcnPoint<T, A> DcnPointOf(const DeformGeom& g, const T* offset, const T* mask, int64_t dg, int64_t i,
                                        int64_t j, int64_t p) {
  const int64_t P = g.P(), tap = i * g.kw + j;
  const T* off = offset + (dg * 2 * g.kh * g.kw + 2 * tap) * P + p;
  DcnPoint<T, A> q;
  q.y = static_cast<A>((p / g.ow) * g.sh - g.ph + i * g.dh) + static_cast<A>(off[0]);
  q.x = static_cast<A>((p % g.ow) * g.sw - g.pw + j * g.dw) + static_cast<A>(off[P]);
  q.m = g.modulated ? static_cast<A>(mask[(dg * g.kh * g.kw + tap) * P + p]) : static_cast<A>(1);
  return q;
}

// col[e], e = ((c kh + i) kw + j) P + p, for one image.
template <typename T, typename A>
WEFT_HD inline void DcnIm2ColAt(const DeformGeom& g, const T* data, const T* offset, const T* mask, T* col, int64_t e) {
  const int64_t P = g.P(), p = e % P, row = e / P, j = row % g.kw, i = (row / g.kw) % g.kh, c = row / (g.kw * g.kh);
  const int64_t dg = c / (g.c / g.dgroups);
  const DcnPoint<T, A> q = DcnPointOf<T, A>(g, offset, mask, dg, i, j, p);
  col[e] = static_cast<T>(q.m * DcnRead<T, A>(data + c * g.h * g.w, g.h, g.w, q.y, q.x));
}

// gdata plane c of one image (req)= dcol's rows of channel c scattered back.
template <typename T, typename A>
WEFT_HD inline void DcnCol2ImPlane(const DeformGeom& g, const T* dcol, const T* offset, const T* mask, OpReq req,
                                   T* gdata, int64_t c) {
  T* d = gdata + c * g.h * g.w;
  ClearPlane(d, g.h * g.w, req);
  const int64_t P = g.P(), dg = c / (g.c / g.dgroups);
  for (int64_t i = 0; i < g.kh; ++i)
    for (int64_t j = 0; j < g.kw; ++j) {
      const T* src = dcol + ((c * g.kh + i) * g.kw + j) * P;
      for (int64_t p = 0; p < P; ++p) {
        const DcnPoint<T, A> q = DcnPointOf<T, A>(g, offset, mask, dg, i, j, p);
        DcnScatter<T, A>(d, g.h, g.w, q.y, q.x, q.m * static_cast<A>(src[p]));
      }
    }
}

// goffset[e] (req)= sum over the channels of e's group of dcol * mask * slope,
// e = (dg 2 kh kw + 2 tap + dir) P + p, for one image.
template <typename T, typename A>
WEFT_HD inline void DcnOffsetGradAt(const DeformGeom& g, const T* dcol, const T* data, const T* offset, const T* mask,
                                    OpReq req, T* goffset, int64_t e) {
  const int64_t P = g.P(), p = e % P, ch = e / P, dir = ch % 2, tap = (ch / 2) % (g.kh * g.kw),
                dg = ch / (2 * g.kh * g.kw);
  const int64_t i = tap / g.kw, j = tap % g.kw, cpg = g.c / g.dgroups;
  const DcnPoint<T, A> q = DcnPointOf<T, A>(g, offset, mask, dg, i, j, p);
  A acc = static_cast<A>(0);
  for (int64_t c = dg * cpg; c < (dg + 1) * cpg; ++c)
    acc += static_cast<A>(dcol[((c * g.kh + i) * g.kw + j) * P + p]) *
           DcnSlope<T, A>(data + c * g.h * g.w, g.h, g.w, q.y, q.x, static_cast<int>(dir));
  Put(goffset + e, req, acc * q.m);
}

// gmask[e] (req)= sum over the channels of e's group of dcol * the bilinear
// read, e = (dg kh kw + tap) P + p, for one image.
template <typename T, typename A>
WEFT_HD inline void DcnMaskGradAt(const DeformGeom& g, const T* dcol, const T* data, const T* offset, const T* mask,
                                  OpReq req, T* gmask, int64_t e) {
  const int64_t P = g.P(), p = e % P, tap = (e / P) % (g.kh * g.kw), dg = e / (P * g.kh * g.kw);
  const int64_t i = tap / g.kw, j = tap % g.kw, cpg = g.c / g.dgroups;
  const DcnPoint<T, A> q = DcnPointOf<T, A>(g, offset, mask, dg, i, j, p);
  A acc = static_cast<A>(0);
  for (int64_t c = dg * cpg; c < (dg + 1) * cpg; ++c)
    acc += static_cast<A>(dcol[((c * g.kh + i) * g.kw + j) * P + p]) *
           DcnRead<T, A>(data + c * g.h * g.w, g.h, g.w, q.y, q.x);
  Put(gmask + e, req, acc);
}

// out[n] (f, P) (req)= tmp (f, P) + bias[f].
template <typename T, typename A>
WEFT_HD inline void DcnBiasStoreAt(const DeformGeom& g, const T* tmp, const T* bias, OpReq req, T* out, int64_t e) {
  const A b = bias ? static_cast<A>(bias[e / g.P()]) : static_cast<A>(0);
  Put(out + e, req, static_cast<A>(tmp[e]) + b);
}

// gbias[f] (req)= the sum of out_grad over images and points.
template <typename T, typename A>
WEFT_HD inline void DcnBiasGradAt(const DeformGeom& g, const T* gout, OpReq req, T* gbias, int64_t f) {
  A acc = static_cast<A>(0);
  for (int64_t n = 0; n < g.batch; ++n)
    for (int64_t p = 0; p < g.P(); ++p) acc += static_cast<A>(gout[(n * g.f + f) * g.P() + p]);
  Put(gbias + f, req, acc);
}

// The geometry of the deformable convolutions (deformable_conv.cc) from their
// parameters and input shapes, used by shape inference and by both kernels.
// Input slots: data, offset, [mask], weight, [bias].
struct DeformSlots {
  int weight = 2, bias = 3, mask = -1;
};
inline DeformSlots DeformSlotsOf(bool modulated) {
  DeformSlots s;
  if (modulated) {
    s.mask = 2;
    s.weight = 3;
    s.bias = 4;
  }
  return s;
}

// Checks the parameters and data (N, C, H, W); throws naming op. The output
// size follows Convolution's rule.
DeformGeom DeformGeometry(const Params& p, const std::string& op, const Shape& data, bool modulated);

}  // namespace spatial
}  // namespace weft
