// The value rule of _contrib_BilinearResize2D and its backward, shared by the
// CPU kernels (bilinear_resize_cpu.cc) and the GPU kernels (bilinear_resize.cu);
// Note [One spatial rule] in spatial_hd.h.
//
// MXNet's mapping (area_pixel_compute_scale / _source_index): with
// align_corners the scale is (in - 1) / (out - 1) (0 when out is 1) and the
// source of output index d is scale * d; without, the scale is in / out and the
// source is max(scale * (d + 0.5) - 0.5, 0). The source's floor i0 and i0 + 1
// (i0 itself at the last row) are mixed with weights 1 - l and l, l = source - i0.
#pragma once
#include <cstdint>

#include "core/op/spatial/spatial_hd.h"

namespace weft {
namespace spatial {

struct ResizeGeom {
  int64_t planes = 0;  // N * C
  int64_t ih = 0, iw = 0, oh = 0, ow = 0;
  bool align = true;
};

template <typename A>
WEFT_HD inline A ResizeScale(int64_t in, int64_t out, bool align) {
  if (align) return out > 1 ? static_cast<A>(in - 1) / static_cast<A>(out - 1) : static_cast<A>(0);
  return static_cast<A>(in) / static_cast<A>(out);
}

template <typename A>
struct Tap {
  int64_t i0 = 0, step = 0;
  A l1 = 0;
};

template <typename A>
WEFT_HD inline Tap<A> ResizeTap(A scale, int64_t d, int64_t in, bool align) {
  A r = align ? scale * static_cast<A>(d) : scale * (static_cast<A>(d) + static_cast<A>(0.5)) - static_cast<A>(0.5);
  if (r < static_cast<A>(0)) r = static_cast<A>(0);
  Tap<A> t;
  t.i0 = static_cast<int64_t>(r);
  if (t.i0 > in - 1) t.i0 = in - 1;
  t.step = t.i0 < in - 1 ? 1 : 0;
  t.l1 = r - static_cast<A>(t.i0);
  return t;
}

// out[e] (req)= the bilinear value at output element e of (planes, oh, ow).
template <typename T, typename A>
WEFT_HD inline void ResizeForwardAt(const ResizeGeom& g, const T* in, OpReq req, T* out, int64_t e) {
  const int64_t x = e % g.ow, y = (e / g.ow) % g.oh, plane = e / (g.ow * g.oh);
  const Tap<A> ty = ResizeTap<A>(ResizeScale<A>(g.ih, g.oh, g.align), y, g.ih, g.align);
  const Tap<A> tx = ResizeTap<A>(ResizeScale<A>(g.iw, g.ow, g.align), x, g.iw, g.align);
  const T* s = in + plane * g.ih * g.iw;
  const T* r0 = s + ty.i0 * g.iw;
  const T* r1 = r0 + ty.step * g.iw;
  const A one = static_cast<A>(1);
  const A v = (one - ty.l1) * ((one - tx.l1) * static_cast<A>(r0[tx.i0]) + tx.l1 * static_cast<A>(r0[tx.i0 + tx.step])) +
              ty.l1 * ((one - tx.l1) * static_cast<A>(r1[tx.i0]) + tx.l1 * static_cast<A>(r1[tx.i0 + tx.step]));
  Put(out + e, req, v);
}

// gin plane p (req)= the scatter of gout's plane p through the same weights.
template <typename T, typename A>
WEFT_HD inline void ResizeBackwardPlane(const ResizeGeom& g, const T* gout, OpReq req, T* gin, int64_t p) {
  T* d = gin + p * g.ih * g.iw;
  const T* s = gout + p * g.oh * g.ow;
  ClearPlane(d, g.ih * g.iw, req);
  const A sh = ResizeScale<A>(g.ih, g.oh, g.align), sw = ResizeScale<A>(g.iw, g.ow, g.align);
  const A one = static_cast<A>(1);
  for (int64_t y = 0; y < g.oh; ++y) {
    const Tap<A> ty = ResizeTap<A>(sh, y, g.ih, g.align);
    T* r0 = d + ty.i0 * g.iw;
    T* r1 = r0 + ty.step * g.iw;
    for (int64_t x = 0; x < g.ow; ++x) {
      const Tap<A> tx = ResizeTap<A>(sw, x, g.iw, g.align);
      const A v = static_cast<A>(s[y * g.ow + x]);
      AddTo(r0 + tx.i0, (one - ty.l1) * (one - tx.l1) * v);
      AddTo(r0 + tx.i0 + tx.step, (one - ty.l1) * tx.l1 * v);
      AddTo(r1 + tx.i0, ty.l1 * (one - tx.l1) * v);
      AddTo(r1 + tx.i0 + tx.step, ty.l1 * tx.l1 * v);
    }
  }
}

// The geometry of data (N, C, H, W) resized to out (N, C, OH, OW) (host side).
inline ResizeGeom ResizeGeomOf(const Shape& in, const Shape& out, bool align) {
  ResizeGeom g;
  g.planes = in[0] * in[1];
  g.ih = in[2];
  g.iw = in[3];
  g.oh = out[2];
  g.ow = out[3];
  g.align = align;
  return g;
}

}  // namespace spatial
}  // namespace weft
