// The value rules of GridGenerator, BilinearSampler and SpatialTransformer
// (MXNet 1.x) and their backward ops, shared by sampler_cpu.cc and sampler.cu
// (Note [One spatial rule], spatial_hd.h).
//
// A grid holds normalised source coordinates in [-1, 1]: channel 0 is x,
// channel 1 is y. Sampling maps x to x_real = (x + 1) * (W - 1) / 2 (y
// likewise) and mixes the four pixels around it with the bilinear weights;
// a pixel outside the map reads 0. GridGenerator's target grid point (h, w)
// of an (H, W) target is (x, y) = (-1 + 2 w / (W - 1), -1 + 2 h / (H - 1));
// 'affine' maps (x, y, 1) through the 2 x 3 matrix of each batch row, 'warp'
// adds the flow (in pixels) and normalises: (w + flow_x) / ((W - 1) / 2) - 1.
// SpatialTransformer is the affine grid of `loc` sampled from data.
#pragma once
#include <cstdint>

#include "core/base/shape.h"
#include "core/op/spatial/spatial_hd.h"
#include "core/opdef/params.h"

namespace weft {
namespace spatial {

// The four taps of a real position, MXNet's BilinearSampler rule: top-left
// (floor), weights wy = 1 - (y - y0), wx = 1 - (x - x0).
template <typename A>
struct SampleTaps {
  int64_t x0 = 0, y0 = 0;
  A wx = 0, wy = 0;
};

template <typename A>
WEFT_HD inline SampleTaps<A> SampleAt(A gx, A gy, int64_t h, int64_t w) {
  SampleTaps<A> t;
  const A xr = (gx + static_cast<A>(1)) * static_cast<A>(w - 1) / static_cast<A>(2);
  const A yr = (gy + static_cast<A>(1)) * static_cast<A>(h - 1) / static_cast<A>(2);
  t.x0 = FloorI(static_cast<double>(xr));
  t.y0 = FloorI(static_cast<double>(yr));
  t.wx = static_cast<A>(1) - (xr - static_cast<A>(t.x0));
  t.wy = static_cast<A>(1) - (yr - static_cast<A>(t.y0));
  return t;
}

WEFT_HD inline bool Inside(int64_t y, int64_t x, int64_t h, int64_t w) { return y >= 0 && y < h && x >= 0 && x < w; }

template <typename T, typename A>
WEFT_HD inline A PixelOr0(const T* plane, int64_t y, int64_t x, int64_t h, int64_t w) {
  return Inside(y, x, h, w) ? static_cast<A>(plane[y * w + x]) : static_cast<A>(0);
}

template <typename T, typename A>
WEFT_HD inline A SampleValue(const T* plane, const SampleTaps<A>& t, int64_t h, int64_t w) {
  const A one = static_cast<A>(1);
  return PixelOr0<T, A>(plane, t.y0, t.x0, h, w) * t.wy * t.wx +
         PixelOr0<T, A>(plane, t.y0, t.x0 + 1, h, w) * t.wy * (one - t.wx) +
         PixelOr0<T, A>(plane, t.y0 + 1, t.x0, h, w) * (one - t.wy) * t.wx +
         PixelOr0<T, A>(plane, t.y0 + 1, t.x0 + 1, h, w) * (one - t.wy) * (one - t.wx);
}

// d value / d x_real and d value / d y_real.
template <typename T, typename A>
WEFT_HD inline void SampleSlopes(const T* plane, const SampleTaps<A>& t, int64_t h, int64_t w, A* dx, A* dy) {
  const A tl = PixelOr0<T, A>(plane, t.y0, t.x0, h, w), tr = PixelOr0<T, A>(plane, t.y0, t.x0 + 1, h, w);
  const A bl = PixelOr0<T, A>(plane, t.y0 + 1, t.x0, h, w), br = PixelOr0<T, A>(plane, t.y0 + 1, t.x0 + 1, h, w);
  *dy = -(tr - br + (tl - tr - bl + br) * t.wx);
  *dx = -(bl - br + (tl - tr - bl + br) * t.wy);
}

// Adds g times the tap weights to the in-map pixels of plane.
template <typename T, typename A>
WEFT_HD inline void ScatterSample(T* plane, const SampleTaps<A>& t, int64_t h, int64_t w, A g) {
  const A one = static_cast<A>(1);
  if (Inside(t.y0, t.x0, h, w)) AddTo(plane + t.y0 * w + t.x0, g * t.wy * t.wx);
  if (Inside(t.y0, t.x0 + 1, h, w)) AddTo(plane + t.y0 * w + t.x0 + 1, g * t.wy * (one - t.wx));
  if (Inside(t.y0 + 1, t.x0, h, w)) AddTo(plane + (t.y0 + 1) * w + t.x0, g * (one - t.wy) * t.wx);
  if (Inside(t.y0 + 1, t.x0 + 1, h, w)) AddTo(plane + (t.y0 + 1) * w + t.x0 + 1, g * (one - t.wy) * (one - t.wx));
}

// Target coordinate m (0: x, 1: y, 2: 1) of flat target index hw of (th, tw).
template <typename A>
WEFT_HD inline A TargetCoord(int64_t m, int64_t hw, int64_t th, int64_t tw) {
  if (m == 0) return static_cast<A>(-1) + static_cast<A>(hw % tw) * static_cast<A>(2) / static_cast<A>(tw - 1);
  if (m == 1) return static_cast<A>(-1) + static_cast<A>(hw / tw) * static_cast<A>(2) / static_cast<A>(th - 1);
  return static_cast<A>(1);
}

// Grid coordinate k (0: x, 1: y) of the affine map theta (6 values) at hw.
template <typename T, typename A>
WEFT_HD inline A AffineCoord(const T* theta, int64_t k, int64_t hw, int64_t th, int64_t tw) {
  return static_cast<A>(theta[3 * k]) * TargetCoord<A>(0, hw, th, tw) +
         static_cast<A>(theta[3 * k + 1]) * TargetCoord<A>(1, hw, th, tw) + static_cast<A>(theta[3 * k + 2]);
}

// ---- GridGenerator ----

struct GridGeom {
  bool affine = true;
  int64_t n = 0, h = 0, w = 0;  // output (n, 2, h, w)
};

// The geometry of an output of shape `out` (host code of both kernels).
inline GridGeom GridGeomOf(const Params& p, const Shape& out) {
  GridGeom g;
  g.affine = p.GetString("transform_type") == "affine";
  g.n = out[0];
  g.h = out[2];
  g.w = out[3];
  return g;
}

template <typename T, typename A>
WEFT_HD inline void GridForwardAt(const GridGeom& g, const T* data, OpReq req, T* out, int64_t e) {
  const int64_t hw = e % (g.h * g.w), k = (e / (g.h * g.w)) % 2, n = e / (2 * g.h * g.w);
  A v;
  if (g.affine) {
    v = AffineCoord<T, A>(data + 6 * n, k, hw, g.h, g.w);
  } else {
    const A pos = static_cast<A>(k == 0 ? hw % g.w : hw / g.w);
    const A half = static_cast<A>((k == 0 ? g.w : g.h) - 1) / static_cast<A>(2);
    v = (static_cast<A>(data[e]) + pos) / half - static_cast<A>(1);
  }
  Put(out + e, req, v);
}

// grid_dst: (3, h * w) rows x, y, 1 (affine) or (2, h, w) rows w, h (warp).
template <typename T, typename A>
WEFT_HD inline void GridDstAt(const GridGeom& g, T* dst, int64_t e) {
  const int64_t hw = e % (g.h * g.w), m = e / (g.h * g.w);
  const A v = g.affine ? TargetCoord<A>(m, hw, g.h, g.w) : static_cast<A>(m == 0 ? hw % g.w : hw / g.w);
  dst[e] = static_cast<T>(v);
}

// gdata[e] (req)=: affine (n, 6): sum over hw of gout[n, k, hw] * target_m(hw)
// for e = n * 6 + 3 k + m; warp: gout[e] / ((W - 1) / 2) (or (H - 1) / 2).
template <typename T, typename A>
WEFT_HD inline void GridBackwardAt(const GridGeom& g, const T* gout, OpReq req, T* gdata, int64_t e) {
  A v = static_cast<A>(0);
  if (g.affine) {
    const int64_t n = e / 6, k = (e % 6) / 3, m = e % 3;
    const T* src = gout + (n * 2 + k) * g.h * g.w;
    for (int64_t hw = 0; hw < g.h * g.w; ++hw) v += static_cast<A>(src[hw]) * TargetCoord<A>(m, hw, g.h, g.w);
  } else {
    const int64_t k = (e / (g.h * g.w)) % 2;
    v = static_cast<A>(gout[e]) / (static_cast<A>((k == 0 ? g.w : g.h) - 1) / static_cast<A>(2));
  }
  Put(gdata + e, req, v);
}

// ---- BilinearSampler and SpatialTransformer ----

// data (n, c, ih, iw) sampled at a grid of (oh, ow) points.
struct SamplerGeom {
  int64_t n = 0, c = 0, ih = 0, iw = 0, oh = 0, ow = 0;
  bool from_loc = false;  // SpatialTransformer: the grid is the affine map of loc
};

// Grid coordinate k of batch n at flat output point hw: read from grid (n, 2,
// oh, ow) or computed from loc (n, 6).
template <typename T, typename A>
WEFT_HD inline A GridCoord(const SamplerGeom& g, const T* grid, int64_t n, int64_t k, int64_t hw) {
  if (g.from_loc) return AffineCoord<T, A>(grid + 6 * n, k, hw, g.oh, g.ow);
  return static_cast<A>(grid[(n * 2 + k) * g.oh * g.ow + hw]);
}

template <typename T, typename A>
WEFT_HD inline void SamplerForwardAt(const SamplerGeom& g, const T* data, const T* grid, OpReq req, T* out,
                                     int64_t e) {
  const int64_t hw = e % (g.oh * g.ow), nc = e / (g.oh * g.ow), n = nc / g.c;
  const SampleTaps<A> t = SampleAt(GridCoord<T, A>(g, grid, n, 0, hw), GridCoord<T, A>(g, grid, n, 1, hw), g.ih, g.iw);
  Put(out + e, req, SampleValue<T, A>(data + nc * g.ih * g.iw, t, g.ih, g.iw));
}

// gdata plane p = (n, c) (req)= out_grad scattered through every output point's taps.
template <typename T, typename A>
WEFT_HD inline void SamplerBackwardDataPlane(const SamplerGeom& g, const T* gout, const T* grid, OpReq req, T* gdata,
                                             int64_t p) {
  const int64_t n = p / g.c;
  T* d = gdata + p * g.ih * g.iw;
  ClearPlane(d, g.ih * g.iw, req);
  const T* src = gout + p * g.oh * g.ow;
  for (int64_t hw = 0; hw < g.oh * g.ow; ++hw) {
    const SampleTaps<A> t =
        SampleAt(GridCoord<T, A>(g, grid, n, 0, hw), GridCoord<T, A>(g, grid, n, 1, hw), g.ih, g.iw);
    ScatterSample(d, t, g.ih, g.iw, static_cast<A>(src[hw]));
  }
}

// d loss / d grid coordinate k (0: x, 1: y) at output point (n, hw), summed over channels.
template <typename T, typename A>
WEFT_HD inline A GridSlope(const SamplerGeom& g, const T* gout, const T* data, const T* grid, int64_t n, int64_t k,
                           int64_t hw) {
  const SampleTaps<A> t = SampleAt(GridCoord<T, A>(g, grid, n, 0, hw), GridCoord<T, A>(g, grid, n, 1, hw), g.ih, g.iw);
  A acc = static_cast<A>(0);
  for (int64_t c = 0; c < g.c; ++c) {
    A dx, dy;
    SampleSlopes<T, A>(data + (n * g.c + c) * g.ih * g.iw, t, g.ih, g.iw, &dx, &dy);
    acc += static_cast<A>(gout[(n * g.c + c) * g.oh * g.ow + hw]) * (k == 0 ? dx : dy);
  }
  return acc * static_cast<A>((k == 0 ? g.iw : g.ih) - 1) / static_cast<A>(2);
}

// BilinearSampler: ggrid[e] (req)= GridSlope, e = (n, k, hw) of (n, 2, oh, ow).
template <typename T, typename A>
WEFT_HD inline void SamplerBackwardGridAt(const SamplerGeom& g, const T* gout, const T* data, const T* grid, OpReq req,
                                          T* ggrid, int64_t e) {
  const int64_t hw = e % (g.oh * g.ow), k = (e / (g.oh * g.ow)) % 2, n = e / (2 * g.oh * g.ow);
  Put(ggrid + e, req, GridSlope<T, A>(g, gout, data, grid, n, k, hw));
}

// SpatialTransformer: gloc[e] (req)= sum over hw of GridSlope(k) * target_m(hw), e = n * 6 + 3 k + m.
template <typename T, typename A>
WEFT_HD inline void TransformerBackwardLocAt(const SamplerGeom& g, const T* gout, const T* data, const T* loc,
                                             OpReq req, T* gloc, int64_t e) {
  const int64_t n = e / 6, k = (e % 6) / 3, m = e % 3;
  A acc = static_cast<A>(0);
  for (int64_t hw = 0; hw < g.oh * g.ow; ++hw)
    acc += GridSlope<T, A>(g, gout, data, loc, n, k, hw) * TargetCoord<A>(m, hw, g.oh, g.ow);
  Put(gloc + e, req, acc);
}

// The hidden outputs: BilinearSampler's tmp (n, oh, ow, 2) (the grid with its
// coordinate last) and SpatialTransformer's grid_src (n, 2, oh * ow).
template <typename T, typename A>
WEFT_HD inline void SamplerTmpAt(const SamplerGeom& g, const T* grid, T* tmp, int64_t e) {
  const int64_t k = e % 2, hw = (e / 2) % (g.oh * g.ow), n = e / (2 * g.oh * g.ow);
  tmp[e] = static_cast<T>(GridCoord<T, A>(g, grid, n, k, hw));
}
template <typename T, typename A>
WEFT_HD inline void GridSrcAt(const SamplerGeom& g, const T* loc, T* src, int64_t e) {
  const int64_t hw = e % (g.oh * g.ow), k = (e / (g.oh * g.ow)) % 2, n = e / (2 * g.oh * g.ow);
  src[e] = static_cast<T>(GridCoord<T, A>(g, loc, n, k, hw));
}

inline SamplerGeom SamplerGeomOf(const Shape& data, const Shape& out, bool from_loc) {
  SamplerGeom g;
  g.n = data[0];
  g.c = data[1];
  g.ih = data[2];
  g.iw = data[3];
  g.oh = out[2];
  g.ow = out[3];
  g.from_loc = from_loc;
  return g;
}

}  // namespace spatial
}  // namespace weft
