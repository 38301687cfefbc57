// The value rule of Correlation (FlowNet's correlation layer, as MXNet has it)
// and its backward, shared by correlation_cpu.cc and correlation.cu (Note [One
// spatial rule], spatial_hd.h).
//
// Both inputs are zero-padded by pad_size. Output point (i, j) puts patch 1
// at (y1, x1) = (i, j) * stride1 + max_displacement of the padded maps; output
// channel t compares it with patch 2 displaced by ((t % G) - R, (t / G) - R) *
// stride2 (G = 2 R + 1, R = max_displacement / stride2), both patches
// kernel_size x kernel_size from their corner, summed over channels: the
// product (is_multiply) or the absolute difference, divided by kernel_size^2 *
// channels.
#pragma once
#include <cstdint>
#include <string>

#include "core/base/error.h"
#include "core/base/shape.h"
#include "core/opdef/params.h"
#include "core/op/spatial/spatial_hd.h"
#include "core/base/checked_math.h"

namespace weft {
namespace spatial {

struct CorrGeom {
  int64_t n = 0, c = 0, h = 0, w = 0;
  int64_t ks = 1, maxd = 1, s1 = 1, s2 = 1, pad = 0;
  int64_t radius = 0, grid = 1, oh = 0, ow = 0;
  bool multiply = true;
  WEFT_HD int64_t OC() const { return grid * grid; }
};

// Padded read of channel c at padded (y, x).
template <typename T, typename A>
WEFT_HD inline A PadRead(const CorrGeom& g, const T* d, int64_t n, int64_t c, int64_t y, int64_t x) {
  y -= g.pad;
  x -= g.pad;
  if (y < 0 || y >= g.h || x < 0 || x >= g.w) return static_cast<A>(0);
  return static_cast<A>(d[((n * g.c + c) * g.h + y) * g.w + x]);
}

template <typename T, typename A>
WEFT_HD inline void CorrForwardAt(const CorrGeom& g, const T* d1, const T* d2, OpReq req, T* out, int64_t e) {
  const int64_t j = e % g.ow, i = (e / g.ow) % g.oh, t = (e / (g.ow * g.oh)) % g.OC(), n = e / (g.ow * g.oh * g.OC());
  const int64_t x1 = j * g.s1 + g.maxd, y1 = i * g.s1 + g.maxd;
  const int64_t x2 = x1 + (t % g.grid - g.radius) * g.s2, y2 = y1 + (t / g.grid - g.radius) * g.s2;
  A acc = static_cast<A>(0);
  for (int64_t c = 0; c < g.c; ++c)
    for (int64_t h = 0; h < g.ks; ++h)
      for (int64_t w = 0; w < g.ks; ++w) {
        const A a = PadRead<T, A>(g, d1, n, c, y1 + h, x1 + w), b = PadRead<T, A>(g, d2, n, c, y2 + h, x2 + w);
        acc += g.multiply ? a * b : (a > b ? a - b : b - a);
      }
  Put(out + e, req, acc / static_cast<A>(g.ks * g.ks * g.c));
}

// The hidden tmp outputs: the padded input in (N, H + 2 pad, W + 2 pad, C).
template <typename T, typename A>
WEFT_HD inline void CorrPaddedAt(const CorrGeom& g, const T* d, T* tmp, int64_t e) {
  const int64_t pw = g.w + 2 * g.pad, ph = g.h + 2 * g.pad;
  const int64_t c = e % g.c, x = (e / g.c) % pw, y = (e / (g.c * pw)) % ph, n = e / (g.c * pw * ph);
  tmp[e] = static_cast<T>(PadRead<T, A>(g, d, n, c, y, x));
}

// Gradient of data1 (which = 0) or data2 (which = 1) at element e (n, c, y, x):
// the sum over the output points and channels whose patches cover it.
template <typename T, typename A>
WEFT_HD inline void CorrBackwardAt(const CorrGeom& g, const T* gout, const T* d1, const T* d2, int which, OpReq req,
                                   T* gin, int64_t e) {
  const int64_t x = e % g.w, y = (e / g.w) % g.h, c = (e / (g.w * g.h)) % g.c, n = e / (g.w * g.h * g.c);
  const int64_t yp = y + g.pad, xp = x + g.pad;
  const A self = static_cast<A>(which == 0 ? d1[e] : d2[e]);
  A acc = static_cast<A>(0);
  for (int64_t t = 0; t < g.OC(); ++t) {
    // Displacement of patch 2 for channel t; patch 1 sits at (y1, x1), patch 2 at (y1 + dy, x1 + dx).
    const int64_t dx = (t % g.grid - g.radius) * g.s2, dy = (t / g.grid - g.radius) * g.s2;
    const int64_t sy = which == 0 ? 0 : dy, sx = which == 0 ? 0 : dx;
    for (int64_t h = 0; h < g.ks; ++h) {
      const int64_t ry = yp - sy - h - g.maxd;  // = i * s1
      if (ry < 0 || ry % g.s1 != 0 || ry / g.s1 >= g.oh) continue;
      const int64_t i = ry / g.s1;
      for (int64_t w = 0; w < g.ks; ++w) {
        const int64_t rx = xp - sx - w - g.maxd;
        if (rx < 0 || rx % g.s1 != 0 || rx / g.s1 >= g.ow) continue;
        const int64_t j = rx / g.s1;
        const int64_t x1 = j * g.s1 + g.maxd, y1 = i * g.s1 + g.maxd;
        const A other = which == 0 ? PadRead<T, A>(g, d2, n, c, y1 + dy + h, x1 + dx + w)
                                   : PadRead<T, A>(g, d1, n, c, y1 + h, x1 + w);
        const A go = static_cast<A>(gout[((n * g.OC() + t) * g.oh + i) * g.ow + j]);
        if (g.multiply) {
          acc += go * other;
        } else {
          // d |a - b| / d a = 1 when a >= b, else -1 (MXNet's sign rule); d / d b is its negative.
          const A a = which == 0 ? self : other, b = which == 0 ? other : self;
          const A s = a >= b ? static_cast<A>(1) : static_cast<A>(-1);
          acc += go * (which == 0 ? s : -s);
        }
      }
    }
  }
  Put(gin + e, req, acc / static_cast<A>(g.ks * g.ks * g.c));
}

// Checks the parameters against data (N, C, H, W); throws naming op.
inline CorrGeom CorrGeomOf(const Params& p, const std::string& op, const Shape& d) {
  CorrGeom g;
  g.n = d[0];
  g.c = d[1];
  g.h = d[2];
  g.w = d[3];
  g.ks = p.GetInt("kernel_size");
  g.maxd = p.GetInt("max_displacement");
  g.s1 = p.GetInt("stride1");
  g.s2 = p.GetInt("stride2");
  g.pad = p.GetInt("pad_size");
  g.multiply = p.GetBool("is_multiply");
  WEFT_CHECK(g.ks > 0 && g.ks % 2 == 1, kInvalidArgument)
      << op << ": parameter 'kernel_size' must be a positive odd number, got " << g.ks;
  WEFT_CHECK(g.maxd >= 0 && g.s1 > 0 && g.s2 > 0 && g.pad >= 0, kInvalidArgument)
      << op << ": parameters 'max_displacement' and 'pad_size' must be >= 0 and 'stride1', 'stride2' > 0, got "
      << g.maxd << ", " << g.pad << ", " << g.s1 << ", " << g.s2;
  const char* what = "Correlation: padded size";
  const int64_t border = CheckedAdd(g.maxd, (g.ks - 1) / 2, what);
  const int64_t pad2 = CheckedMul(2, g.pad, what), border2 = CheckedMul(2, border, what);
  const int64_t ph = CheckedAdd(g.h, pad2, what) - border2, pw = CheckedAdd(g.w, pad2, what) - border2;
  WEFT_CHECK(ph >= 1 && pw >= 1, kShape)
      << op << ": data of shape " << d.ToString() << " padded by " << g.pad << " is too small for max_displacement "
      << g.maxd << " and kernel_size " << g.ks;
  g.oh = (ph + g.s1 - 1) / g.s1;
  g.ow = (pw + g.s1 - 1) / g.s1;
  g.radius = g.maxd / g.s2;
  g.grid = 2 * g.radius + 1;
  return g;
}

}  // namespace spatial
}  // namespace weft
