// The image operators' kernels, written once over an executor so the CPU
// build (image_cpu.cc: ParallelFor) and the GPU build (image.cu: cuda::Launch)
// run the same code. An Exec provides
//   For(n, f)    -- runs f(i) for every i in [0, n), in any order, at once;
//   Floats(n)    -- n floats of scratch memory on the op's device.
// Random augmentations draw their few parameters (a factor, a flip, an order)
// on the host from the device's generator (OpContext::rng, an engine var), so
// weft.random.seed(n) reproduces them and CPU and GPU draw the same values.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "core/base/error.h"
#include "core/op/image/image_params.h"
#include "core/op/image/image_rules.h"
#include "core/opdef/op_def.h"
#include "core/op/random_state.h"
#include "core/opdef/tensor_view.h"

namespace weft {
namespace image {

enum class ImageOp : int {
  kToTensor, kNormalize, kNormalizeBackward, kFlipLeftRight, kFlipTopBottom, kRandomFlipLeftRight,
  kRandomFlipTopBottom, kRandomBrightness, kRandomContrast, kRandomSaturation, kRandomHue, kRandomColorJitter,
  kAdjustLighting, kRandomLighting, kResize, kCrop, kCropBackward
};

// The pixel dtypes of the image ops: uint8 images and float32/float64 ones.
#define WEFT_IMAGE_SWITCH(dt, op, T, ...)                                                          \
  switch (dt) {                                                                                   \
    case ::weft::DType::kFloat32: { using T = float; __VA_ARGS__ break; }                          \
    case ::weft::DType::kFloat64: { using T = double; __VA_ARGS__ break; }                         \
    case ::weft::DType::kUint8: { using T = uint8_t; __VA_ARGS__ break; }                          \
    default:                                                                                      \
      WEFT_THROW(kDType) << (op) << ": input 'data' has dtype " << ::weft::DTypeName(dt)          \
                         << "; uint8, float32 or float64 is expected";                           \
  }

template <typename T>
WEFT_HD inline void Store(T* y, int64_t i, OpReq req, T v) {
  if (req == OpReq::kAddTo) {
    y[i] = static_cast<T>(y[i] + v);
  } else {
    y[i] = v;
  }
}

// ---- per-pixel passes (each index is one pixel, so they may run in place) ----

template <typename T, class Exec>
void ScalePass(Exec& ex, const T* x, T* y, ImageDims d, float alpha) {
  ex.For(d.size(), [=] WEFT_HD(int64_t i) { y[i] = Saturate<T>(static_cast<float>(x[i]) * alpha); });
}

// x * alpha + (1 - alpha) * the image's mean luma (mean of the channel for gray images).
template <typename T, class Exec>
void ContrastPass(Exec& ex, const T* x, T* y, ImageDims d, float alpha) {
  float* mean = ex.Floats(d.n);
  ex.For(d.n, [=] WEFT_HD(int64_t n) {
    const T* img = x + n * d.pixels() * d.c;
    float sum = 0.f;
    for (int64_t q = 0; q < d.pixels(); ++q) {
      const T* px = img + q * d.c;
      sum += d.c >= 3 ? Gray(static_cast<float>(px[0]), static_cast<float>(px[1]), static_cast<float>(px[2]))
                      : static_cast<float>(px[0]);
    }
    mean[n] = d.pixels() > 0 ? sum / static_cast<float>(d.pixels()) : 0.f;
  });
  ex.For(d.size(), [=] WEFT_HD(int64_t i) {
    const float beta = (1.f - alpha) * mean[i / (d.pixels() * d.c)];
    y[i] = Saturate<T>(static_cast<float>(x[i]) * alpha + beta);
  });
}

template <typename T, class Exec>
void SaturationPass(Exec& ex, const T* x, T* y, ImageDims d, float alpha) {
  ex.For(d.n * d.pixels(), [=] WEFT_HD(int64_t q) {
    const T* px = x + q * 3;
    const float r = static_cast<float>(px[0]), g = static_cast<float>(px[1]), b = static_cast<float>(px[2]);
    const float gray = (1.f - alpha) * Gray(r, g, b);
    y[q * 3] = Saturate<T>(gray + r * alpha);
    y[q * 3 + 1] = Saturate<T>(gray + g * alpha);
    y[q * 3 + 2] = Saturate<T>(gray + b * alpha);
  });
}

// Rotates the hue by alpha * 360 degrees (in HLS space, as MXNet).
template <typename T, class Exec>
void HuePass(Exec& ex, const T* x, T* y, ImageDims d, float alpha) {
  ex.For(d.n * d.pixels(), [=] WEFT_HD(int64_t q) {
    float h, l, s, r, g, b;
    RgbToHls(static_cast<float>(x[q * 3]), static_cast<float>(x[q * 3 + 1]), static_cast<float>(x[q * 3 + 2]), &h,
             &l, &s);
    HlsToRgb(h + alpha * 360.f, l, s, &r, &g, &b);
    y[q * 3] = Saturate<T>(r);
    y[q * 3 + 1] = Saturate<T>(g);
    y[q * 3 + 2] = Saturate<T>(b);
  });
}

template <typename T, class Exec>
void OffsetPass(Exec& ex, const T* x, T* y, ImageDims d, Channels off) {
  ex.For(d.size(), [=] WEFT_HD(int64_t i) { y[i] = Saturate<T>(static_cast<float>(x[i]) + off.v[i % d.c]); });
}

template <typename T, class Exec>
void CopyPass(Exec& ex, const T* x, T* y, int64_t n) {
  if (x == y) return;
  ex.For(n, [=] WEFT_HD(int64_t i) { y[i] = x[i]; });
}

// Mirrors rows (vertical) or columns. Each index swaps one mirrored pair, so
// the pass may run in place.
template <typename T, class Exec>
void FlipPass(Exec& ex, const T* x, T* y, ImageDims d, bool vertical) {
  const int64_t len = vertical ? d.h : d.w;
  const int64_t half = (len + 1) / 2;
  const int64_t inner = vertical ? d.w * d.c : d.c;       // elements per step along the axis
  const int64_t outer = vertical ? d.n : d.n * d.h;        // independent lines
  ex.For(outer * half * inner, [=] WEFT_HD(int64_t e) {
    const int64_t k = e % inner, j = (e / inner) % half, o = e / (inner * half);
    const int64_t a = (o * len + j) * inner + k, b = (o * len + (len - 1 - j)) * inner + k;
    const T va = x[a], vb = x[b];
    y[a] = vb;
    y[b] = va;
  });
}

// ---- the ops ----

struct JitterStep {
  int kind;  // 0 brightness, 1 contrast, 2 saturation, 3 hue
  float alpha;
};

// random_color_jitter's plan, drawn as MXNet draws it: a random order of the
// four adjustments, each (when its amount is > 0) with its own factor.
inline std::vector<JitterStep> DrawJitter(std::mt19937_64& gen, const Params& p) {
  int order[4] = {0, 1, 2, 3};
  std::shuffle(order, order + 4, gen);
  const float amount[4] = {static_cast<float>(p.GetFloat("brightness")), static_cast<float>(p.GetFloat("contrast")),
                           static_cast<float>(p.GetFloat("saturation")), static_cast<float>(p.GetFloat("hue"))};
  static const char* const kNames[4] = {"brightness", "contrast", "saturation", "hue"};
  for (int k = 0; k < 4; ++k)  // U(-inf, inf) is undefined; a NaN hue indexed past the HLS sextants
    WEFT_CHECK(std::isfinite(amount[k]), kInvalidArgument)
        << p.op()->name << ": parameter '" << kNames[k] << "' must be finite, got " << amount[k];
  std::vector<JitterStep> steps;
  for (int k : order) {
    if (amount[k] <= 0.f) continue;
    const float a = std::uniform_real_distribution<float>(-amount[k], amount[k])(gen);
    steps.push_back({k, k == 3 ? a : 1.f + a});
  }
  return steps;
}

inline std::mt19937_64& Generator(const OpContext& ctx, const std::string& op) {
  WEFT_CHECK(ctx.rng != nullptr, kInternal) << op << ": called without a random generator";
  return ctx.rng->engine();
}

inline float DrawFactor(const OpContext& ctx, const Params& p) {
  const float lo = static_cast<float>(p.GetFloat("min_factor")), hi = static_cast<float>(p.GetFloat("max_factor"));
  WEFT_CHECK(std::isfinite(lo) && std::isfinite(hi), kInvalidArgument)
      << p.op()->name << ": parameters 'min_factor' and 'max_factor' must be finite, got " << lo << " and " << hi;
  return std::uniform_real_distribution<float>(lo, hi)(Generator(ctx, p.op()->name));
}

template <typename T, class Exec>
void ColorOp(Exec& ex, ImageOp kind, const OpContext& ctx, const Params& p, const TensorView& in,
             const TensorView& out) {
  const std::string& op = p.op()->name;
  const ImageDims d = HwcDims(in.shape, op);
  const T* x = in.ptr<T>();
  T* y = out.ptr<T>();
  switch (kind) {
    case ImageOp::kRandomBrightness: ScalePass<T>(ex, x, y, d, DrawFactor(ctx, p)); return;
    case ImageOp::kRandomContrast: ContrastPass<T>(ex, x, y, d, DrawFactor(ctx, p)); return;
    case ImageOp::kRandomSaturation: {
      const float a = DrawFactor(ctx, p);
      if (IsRgb(d)) SaturationPass<T>(ex, x, y, d, a); else CopyPass<T>(ex, x, y, d.size());
      return;
    }
    case ImageOp::kRandomHue: {
      const float a = DrawFactor(ctx, p);
      if (IsRgb(d)) HuePass<T>(ex, x, y, d, a); else CopyPass<T>(ex, x, y, d.size());
      return;
    }
    case ImageOp::kRandomColorJitter: {
      const std::vector<JitterStep> steps = DrawJitter(Generator(ctx, op), p);
      CopyPass<T>(ex, x, y, d.size());
      for (const JitterStep& s : steps) {
        if (s.kind == 0) ScalePass<T>(ex, y, y, d, s.alpha);
        if (s.kind == 1) ContrastPass<T>(ex, y, y, d, s.alpha);
        if (s.kind == 2 && IsRgb(d)) SaturationPass<T>(ex, y, y, d, s.alpha);
        if (s.kind == 3 && IsRgb(d)) HuePass<T>(ex, y, y, d, s.alpha);
      }
      return;
    }
    case ImageOp::kAdjustLighting:
    case ImageOp::kRandomLighting: {
      float alpha[3];
      if (kind == ImageOp::kAdjustLighting) {
        const std::vector<double>& a = p.GetFloatTuple("alpha");
        WEFT_CHECK(a.size() == 3, kInvalidArgument)
            << op << ": parameter 'alpha' must have 3 entries (R, G, B), got " << a.size();
        for (int k = 0; k < 3; ++k) alpha[k] = static_cast<float>(a[static_cast<size_t>(k)]);
      } else {
        std::normal_distribution<float> dist(0.f, static_cast<float>(p.GetFloat("alpha_std")));
        for (float& a : alpha) a = dist(Generator(ctx, op));
      }
      if (IsRgb(d)) OffsetPass<T>(ex, x, y, d, LightingOffset(alpha)); else CopyPass<T>(ex, x, y, d.size());
      return;
    }
    case ImageOp::kFlipLeftRight:
    case ImageOp::kFlipTopBottom:
      FlipPass<T>(ex, x, y, d, kind == ImageOp::kFlipTopBottom);
      return;
    case ImageOp::kRandomFlipLeftRight:
    case ImageOp::kRandomFlipTopBottom: {
      // As MXNet: with probability 1/2 the image is kept, else flipped.
      const bool keep = std::bernoulli_distribution()(Generator(ctx, op));
      if (keep) CopyPass<T>(ex, x, y, d.size()); else FlipPass<T>(ex, x, y, d, kind == ImageOp::kRandomFlipTopBottom);
      return;
    }
    default: WEFT_THROW(kInternal) << op << ": not a colour or flip op";
  }
}

template <typename T, class Exec>
void ResizeOp(Exec& ex, const Params& p, const TensorView& in, const TensorView& out) {
  const std::string& op = p.op()->name;
  const ImageDims d = HwcDims(in.shape, op);
  int64_t oh = 0, ow = 0;
  ResizeTarget(p, d, op, &oh, &ow);
  // An image of no rows or columns has no pixel to sample from (the taps read before it).
  WEFT_CHECK((d.h > 0 && d.w > 0) || d.n * oh * ow * d.c == 0, kShape)
      << op << ": cannot resize an image of " << d.h << " x " << d.w << " pixels to " << oh << " x " << ow;
  const bool nearest = p.GetInt("interp") == 0;
  const T* x = in.ptr<T>();
  T* y = out.ptr<T>();
  const int64_t c = d.c, h = d.h, w = d.w;
  ex.For(d.n * oh * ow * c, [=] WEFT_HD(int64_t e) {
    const int64_t ch = e % c, ox = (e / c) % ow, oy = (e / (c * ow)) % oh, n = e / (c * ow * oh);
    const T* img = x + n * h * w * c;
    if (nearest) {
      y[e] = img[(NearestTap(oy, h, oh) * w + NearestTap(ox, w, ow)) * c + ch];
      return;
    }
    const Tap ty = LinearTap(oy, h, oh), tx = LinearTap(ox, w, ow);
    auto at = [&](int64_t yy, int64_t xx) { return static_cast<float>(img[(yy * w + xx) * c + ch]); };
    const float top = at(ty.i0, tx.i0) * (1.f - tx.f) + at(ty.i0, tx.i1) * tx.f;
    const float bot = at(ty.i1, tx.i0) * (1.f - tx.f) + at(ty.i1, tx.i1) * tx.f;
    y[e] = RoundSaturate<T>(top * (1.f - ty.f) + bot * ty.f);
  });
}

// crop (forward: gather the box) and its gradient (scatter into zeros).
template <typename T, class Exec>
void CropOp(Exec& ex, bool backward, const Params& p, const TensorView& in, OpReq req, const TensorView& out) {
  const std::string& op = p.op()->name;
  const ImageDims big = HwcDims(backward ? out.shape : in.shape, op);
  const Box b = CropBox(p, big, op);
  const T* x = in.ptr<T>();
  T* y = out.ptr<T>();
  const int64_t c = big.c, w = big.w, h = big.h;
  if (!backward) {
    ex.For(big.n * b.h * b.w * c, [=] WEFT_HD(int64_t e) {
      const int64_t ch = e % c, cx = (e / c) % b.w, cy = (e / (c * b.w)) % b.h, n = e / (c * b.w * b.h);
      Store<T>(y, e, req, x[((n * h + cy + b.y) * w + cx + b.x) * c + ch]);
    });
    return;
  }
  ex.For(big.size(), [=] WEFT_HD(int64_t e) {
    const int64_t ch = e % c, ix = (e / c) % w, iy = (e / (c * w)) % h, n = e / (c * w * h);
    const bool inside = ix >= b.x && ix < b.x + b.w && iy >= b.y && iy < b.y + b.h;
    Store<T>(y, e, req, inside ? x[((n * b.h + iy - b.y) * b.w + ix - b.x) * c + ch] : T(0));
  });
}

// Runs image op `kind` on exec (the entry of both kernel files).
template <class Exec>
void RunImageOp(Exec& ex, ImageOp kind, const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull || out[0].Size() == 0) return;
  const std::string& op = p.op()->name;
  const DType dt = in[0].dtype;
  switch (kind) {
    case ImageOp::kToTensor: {
      const ImageDims d = HwcDims(in[0].shape, op);
      float* y = out[0].ptr<float>();
      const OpReq r = req[0];
      WEFT_IMAGE_SWITCH(dt, op, T, {
        const T* x = in[0].ptr<T>();
        ex.For(d.size(), [=] WEFT_HD(int64_t e) {  // e indexes the (N,) C, H, W output
          const int64_t q = e % d.pixels(), ch = (e / d.pixels()) % d.c, n = e / (d.pixels() * d.c);
          Store<float>(y, e, r, static_cast<float>(x[(n * d.pixels() + q) * d.c + ch]) / 255.f);
        });
      });
      return;
    }
    case ImageOp::kNormalize:
    case ImageOp::kNormalizeBackward: {
      const ImageDims d = ChwDims(in[0].shape, op);
      const Channels mean = PerChannel(p, "mean", d.c, op), sd = PerChannel(p, "std", d.c, op);
      const bool fwd = kind == ImageOp::kNormalize;
      const OpReq r = req[0];
      WEFT_CHECK(dt == DType::kFloat32 || dt == DType::kFloat64, kDType)
          << op << ": input has dtype " << DTypeName(dt) << "; float32 or float64 is expected";
      WEFT_IMAGE_SWITCH(dt, op, T, {
        const T* x = in[0].ptr<T>();
        T* y = out[0].ptr<T>();
        ex.For(d.size(), [=] WEFT_HD(int64_t e) {
          const int64_t ch = (e / d.pixels()) % d.c;
          const T m = static_cast<T>(mean.v[ch]), s = static_cast<T>(sd.v[ch]);
          Store<T>(y, e, r, fwd ? static_cast<T>((x[e] - m) / s) : static_cast<T>(x[e] / s));
        });
      });
      return;
    }
    case ImageOp::kResize: WEFT_IMAGE_SWITCH(dt, op, T, { ResizeOp<T>(ex, p, in[0], out[0]); }); return;
    case ImageOp::kCrop:
    case ImageOp::kCropBackward:
      WEFT_IMAGE_SWITCH(dt, op, T, { CropOp<T>(ex, kind == ImageOp::kCropBackward, p, in[0], req[0], out[0]); });
      return;
    default: WEFT_IMAGE_SWITCH(dt, op, T, { ColorOp<T>(ex, kind, ctx, p, in[0], out[0]); }); return;
  }
}

}  // namespace image
}  // namespace weft
