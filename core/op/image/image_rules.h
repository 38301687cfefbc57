// The per-pixel rules of the image operators (weft.nd.image, MXNet's
// src/operator/image), written once for the CPU kernels and their GPU twins
// (image_kernels.h runs them through either). Images are HWC, batches NHWC,
// as MXNet's image ops take them; to_tensor/normalize work on CHW/NCHW.
#pragma once
#include <cmath>
#include <cstdint>

#include "core/op/common/hd.h"

namespace weft {
namespace image {

// At most this many channels (MXNet's image ops take 1 or 3; RGBA fits too).
constexpr int kMaxChannels = 4;

// The extent of an image or a batch of images: n images of h x w pixels with c
// channels (n = 1 for an unbatched image).
struct ImageDims {
  int64_t n = 1, h = 0, w = 0, c = 0;
  WEFT_HD int64_t pixels() const { return h * w; }
  WEFT_HD int64_t size() const { return n * h * w * c; }
};

// Per-channel constants captured by value into a kernel.
struct Channels {
  float v[kMaxChannels] = {};
};

// MXNet's saturate_cast: integers are clamped to [0, 255] and truncated (the
// image ops write uint8 pixels); floating types are stored as computed.
template <typename T>
WEFT_HD inline T Saturate(float v) {
  return static_cast<T>(v);
}
template <>
WEFT_HD inline uint8_t Saturate<uint8_t>(float v) {
  return static_cast<uint8_t>(v < 0.f ? 0.f : (v > 255.f ? 255.f : v));
}

// Rounded to nearest for resampled integer pixels (OpenCV rounds its resize).
template <typename T>
WEFT_HD inline T RoundSaturate(float v) {
  return static_cast<T>(v);
}
template <>
WEFT_HD inline uint8_t RoundSaturate<uint8_t>(float v) {
  return Saturate<uint8_t>(v + 0.5f);
}

// Luma weights (ITU-R BT.601) of the contrast and saturation ops.
WEFT_HD inline float Gray(float r, float g, float b) { return 0.299f * r + 0.587f * g + 0.114f * b; }

// RGB in [0, 255] to hue (degrees), lightness and saturation in [0, 1].
WEFT_HD inline void RgbToHls(float r, float g, float b, float* h, float* l, float* s) {
  r /= 255.f;
  g /= 255.f;
  b /= 255.f;
  const float vmax = fmaxf(r, fmaxf(g, b)), vmin = fminf(r, fminf(g, b));
  float diff = vmax - vmin;
  *l = (vmax + vmin) * 0.5f;
  *h = 0.f;
  *s = 0.f;
  if (diff > 1.1920929e-07f) {  // FLT_EPSILON
    *s = *l < 0.5f ? diff / (vmax + vmin) : diff / (2.0f - vmax - vmin);
    diff = 60.f / diff;
    if (vmax == r) {
      *h = (g - b) * diff;
    } else if (vmax == g) {
      *h = (b - r) * diff + 120.f;
    } else {
      *h = (r - g) * diff + 240.f;
    }
    if (*h < 0.f) *h += 360.f;
  }
}

// The inverse of RgbToHls (hue taken modulo 360).
WEFT_HD inline void HlsToRgb(float h, float l, float s, float* r, float* g, float* b) {
  float rr = l, gg = l, bb = l;
  if (s != 0.f) {
    const float p2 = l <= 0.5f ? l * (1 + s) : l + s - l * s;
    const float p1 = 2 * l - p2;
    h /= 60.f;
    h -= 6.f * floorf(h / 6.f);
    int sector = static_cast<int>(h);
    if (sector > 5) sector = 5;
    const float f = h - static_cast<float>(sector);
    const float tab[4] = {p2, p1, p1 + (p2 - p1) * (1 - f), p1 + (p2 - p1) * f};
    // Which of tab each of (b, g, r) takes in the six hue sectors.
    const int sectors[6][3] = {{1, 3, 0}, {1, 0, 2}, {3, 0, 1}, {0, 2, 1}, {0, 1, 3}, {2, 1, 0}};
    bb = tab[sectors[sector][0]];
    gg = tab[sectors[sector][1]];
    rr = tab[sectors[sector][2]];
  }
  *r = rr * 255.f;
  *g = gg * 255.f;
  *b = bb * 255.f;
}

// AlexNet's PCA lighting noise (Krizhevsky et al. 2012) as MXNet applies it:
// the per-channel offset eigvec * (alpha * eigval) added to every pixel.
inline Channels LightingOffset(const float alpha[3]) {
  const float eigval[3] = {55.46f, 4.794f, 1.148f};
  const float eigvec[3][3] = {{-0.5675f, 0.7192f, 0.4009f}, {-0.5808f, -0.0045f, -0.8140f},
                              {-0.5836f, -0.6948f, 0.4203f}};
  Channels off;
  for (int c = 0; c < 3; ++c) {
    off.v[c] = 0.f;
    for (int k = 0; k < 3; ++k) off.v[c] += eigvec[c][k] * eigval[k] * alpha[k];
  }
  return off;
}

// Source coordinate and weight of output column/row o for a resize of n_in
// to n_out (OpenCV's INTER_LINEAR: half-pixel centres, clamped at the edges).
struct Tap {
  int64_t i0, i1;
  float f;  // weight of i1
};
WEFT_HD inline Tap LinearTap(int64_t o, int64_t n_in, int64_t n_out) {
  const float scale = static_cast<float>(n_in) / static_cast<float>(n_out);
  float s = (static_cast<float>(o) + 0.5f) * scale - 0.5f;
  Tap t;
  if (s <= 0.f) {
    t.i0 = t.i1 = 0;
    t.f = 0.f;
    return t;
  }
  t.i0 = static_cast<int64_t>(floorf(s));
  t.f = s - static_cast<float>(t.i0);
  if (t.i0 >= n_in - 1) {
    t.i0 = t.i1 = n_in - 1;
    t.f = 0.f;
  } else {
    t.i1 = t.i0 + 1;
  }
  return t;
}
// OpenCV's INTER_NEAREST: floor(o * scale), clamped.
WEFT_HD inline int64_t NearestTap(int64_t o, int64_t n_in, int64_t n_out) {
  const int64_t i = static_cast<int64_t>(floorf(static_cast<float>(o) * static_cast<float>(n_in) /
                                                static_cast<float>(n_out)));
  return i < n_in - 1 ? i : n_in - 1;
}

}  // namespace image
}  // namespace weft
