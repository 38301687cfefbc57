// One sample of the C++ ImageRecordIter: decode, MXNet's default augmenter,
// normalise into the batch (image_augment.h).
//
// Note [Scaled JPEG decode]
// ~~~~~~~~~~~~~~~~~~~~~~~~~
// With random_resized_crop (and no resize), the crop is drawn from the JPEG's
// header size before decoding; when the crop is larger than data_shape, the
// JPEG is decoded at the smallest M/8 scale (libjpeg-turbo's DCT-domain
// scaling) at which the crop is still at least data_shape, and the crop is
// taken from that smaller image. The output is then a downscale of the same
// region (to within one decoded pixel at the crop's edges), box-filtered in
// the DCT domain before the bilinear step, i.e. with less aliasing than
// decoding in full and resizing bilinearly as MXNet does, and it skips most of
// the IDCT and colour-conversion work. WEFT_JPEG_DCT_SCALING=0 turns it off
// (full decode, then the crop and resize MXNet does).
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "core/base/error.h"
#include "core/io/image_augment.h"

namespace weft {
namespace io {
namespace {

struct Rect {
  int y0, x0, h, w;
};

// MXNet's random-resized-crop draw: ten tries of an area fraction and a
// log-uniform aspect ratio, then the centred square.
Rect DrawResizedCrop(int h, int w, const AugmentParam& p, SampleRng* rng) {
  const double lo = p.has_min_aspect_ratio ? p.min_aspect_ratio : 1 - p.max_aspect_ratio;
  const double hi = p.has_min_aspect_ratio ? p.max_aspect_ratio : 1 + p.max_aspect_ratio;
  for (int attempt = 0; attempt < 10; ++attempt) {
    const double area = rng->Uniform(p.min_random_area, p.max_random_area) * h * w;
    const double ratio = std::exp(rng->Uniform(std::log(lo), std::log(hi)));
    const int cw = static_cast<int>(std::lround(std::sqrt(area * ratio)));
    const int ch = static_cast<int>(std::lround(std::sqrt(area / ratio)));
    if (cw > 0 && cw <= w && ch > 0 && ch <= h) {
      const int y0 = static_cast<int>(rng->RandInt(0, h - ch));
      const int x0 = static_cast<int>(rng->RandInt(0, w - cw));
      return {y0, x0, ch, cw};
    }
  }
  const int side = std::min(h, w);
  return {(h - side) / 2, (w - side) / 2, side, side};
}

bool DctScalingEnabled() {
  static const bool on = [] {
    const char* v = std::getenv("WEFT_JPEG_DCT_SCALING");
    return !(v && std::strcmp(v, "0") == 0);
  }();
  return on;
}

// The smallest scale_num (of 8) at which a crop of h x w keeps at least out_h x out_w pixels.
int ScaleFor(const Rect& crop, int out_h, int out_w) {
  for (int s = 1; s < 8; ++s)
    if (crop.h * s / 8 >= out_h && crop.w * s / 8 >= out_w) return s;
  return 8;
}

// Brightness, contrast, saturation, PCA lighting on an RGB image, in this
// order, as weft's Python augmenter and MXNet's default augmenter apply them.
void ColourJitter(const AugmentParam& p, SampleRng* rng, Image* img) {
  const size_t n = static_cast<size_t>(img->height) * img->width;
  std::vector<float> f(img->pixels.begin(), img->pixels.end());
  static const float coef[3] = {0.299f, 0.587f, 0.114f};
  if (p.brightness > 0) {
    const auto alpha = static_cast<float>(1.0 + rng->Uniform(-p.brightness, p.brightness));
    for (float& v : f) v *= alpha;
  }
  if (p.contrast > 0) {
    const auto alpha = static_cast<float>(1.0 + rng->Uniform(-p.contrast, p.contrast));
    double grey = 0;
    for (size_t i = 0; i < n; ++i) grey += f[3 * i] * coef[0] + f[3 * i + 1] * coef[1] + f[3 * i + 2] * coef[2];
    const auto shift = static_cast<float>((1.0 - alpha) * grey / static_cast<double>(n));
    for (float& v : f) v = v * alpha + shift;
  }
  if (p.saturation > 0) {
    const auto alpha = static_cast<float>(1.0 + rng->Uniform(-p.saturation, p.saturation));
    for (size_t i = 0; i < n; ++i) {
      float* px = &f[3 * i];
      const float g = (1.0f - alpha) * (px[0] * coef[0] + px[1] * coef[1] + px[2] * coef[2]);
      for (int c = 0; c < 3; ++c) px[c] = px[c] * alpha + g;
    }
  }
  if (p.pca_noise > 0) {
    static const double eigval[3] = {55.46, 4.794, 1.148};
    static const double eigvec[3][3] = {
        {-0.5675, 0.7192, 0.4009}, {-0.5808, -0.0045, -0.8140}, {-0.5836, -0.6948, 0.4203}};
    double alpha[3];
    for (double& a : alpha) a = rng->Normal(0, p.pca_noise);
    float rgb[3];
    for (int c = 0; c < 3; ++c)
      rgb[c] = static_cast<float>(eigvec[c][0] * alpha[0] * eigval[0] + eigvec[c][1] * alpha[1] * eigval[1] +
                                  eigvec[c][2] * alpha[2] * eigval[2]);
    for (size_t i = 0; i < n; ++i)
      for (int c = 0; c < 3; ++c) f[3 * i + c] += rgb[c];
  }
  for (size_t i = 0; i < f.size(); ++i)
    img->pixels[i] = static_cast<uint8_t>(std::min(255.0f, std::max(0.0f, std::nearbyint(f[i]))));
}

// HWC view -> CHW output, mirrored or not, normalised to float32 or kept uint8.
void WriteCHW(const ImageView& v, bool mirror, const AugmentParam& p, void* out) {
  const int h = v.height, w = v.width, c = v.channels;
  const size_t plane = static_cast<size_t>(h) * w;
  if (p.normalize) {
    float mul[3], add[3];
    for (int k = 0; k < c; ++k) {
      mul[k] = p.scale / p.std[k];
      add[k] = -p.mean[k] * mul[k];
    }
    auto* o = static_cast<float*>(out);
    for (int y = 0; y < h; ++y) {
      const uint8_t* row = v.data + y * v.row_stride;
      for (int k = 0; k < c; ++k) {
        float* dst = o + k * plane + static_cast<size_t>(y) * w;
        for (int x = 0; x < w; ++x) {
          const int sx = mirror ? w - 1 - x : x;
          dst[x] = row[sx * c + k] * mul[k] + add[k];
        }
      }
    }
    return;
  }
  auto* o = static_cast<uint8_t*>(out);
  for (int y = 0; y < h; ++y) {
    const uint8_t* row = v.data + y * v.row_stride;
    for (int k = 0; k < c; ++k) {
      uint8_t* dst = o + k * plane + static_cast<size_t>(y) * w;
      for (int x = 0; x < w; ++x) dst[x] = row[(mirror ? w - 1 - x : x) * c + k];
    }
  }
}

}  // namespace

void DecodeAugmentInto(const uint8_t* payload, size_t size, const AugmentParam& p, SampleRng* rng,
                       const std::string& where, void* out) {
  const int out_h = p.height, out_w = p.width, c = p.channels;
  Image decoded, resized, cropped;
  ImageView view{};
  bool have_rect = false;
  Rect rect{};
  if (p.random_resized_crop && p.resize <= 0 && DctScalingEnabled() &&
      DetectFormat(payload, size) == ImageFormat::kJPEG) {
    // Note [Scaled JPEG decode]: the crop comes from the header's size.
    int h = 0, w = 0;
    PeekImageSize(payload, size, p.max_pixels, where, &h, &w);
    rect = DrawResizedCrop(h, w, p, rng);
    const int s = ScaleFor(rect, out_h, out_w);
    DecodeImage(payload, size, c, p.max_pixels, where, &decoded, s);
    if (s != 8) {
      const int y0 = std::min(rect.y0 * s / 8, decoded.height - 1);
      const int x0 = std::min(rect.x0 * s / 8, decoded.width - 1);
      const int y1 = std::min(ScaledSize(rect.y0 + rect.h, s), decoded.height);
      const int x1 = std::min(ScaledSize(rect.x0 + rect.w, s), decoded.width);
      rect = {y0, x0, std::max(1, y1 - y0), std::max(1, x1 - x0)};
    }
    have_rect = true;
  } else {
    DecodeImage(payload, size, c, p.max_pixels, where, &decoded);
  }
  view = ImageView::Of(decoded);
  if (p.resize > 0) {
    const int h = view.height, w = view.width;
    const int nh = h > w ? static_cast<int>(static_cast<int64_t>(h) * p.resize / w) : p.resize;
    const int nw = h > w ? p.resize : static_cast<int>(static_cast<int64_t>(w) * p.resize / h);
    WEFT_CHECK(nh > 0 && nw > 0, kIO) << where << ": the image is " << h << "x" << w << ", too thin to resize";
    Resize(view, nh, nw, p.inter_method, &resized);
    view = ImageView::Of(resized);
  }
  if (p.random_resized_crop) {
    if (!have_rect) rect = DrawResizedCrop(view.height, view.width, p, rng);
    Resize(view.Crop(rect.y0, rect.x0, rect.h, rect.w), out_h, out_w, p.inter_method, &cropped);
    view = ImageView::Of(cropped);
  } else {
    WEFT_CHECK(view.height >= out_h && view.width >= out_w, kIO)
        << where << ": the image is " << view.height << "x" << view.width << " (h x w), smaller than data_shape ("
        << c << ", " << out_h << ", " << out_w << "); set resize";
    int y0 = (view.height - out_h) / 2, x0 = (view.width - out_w) / 2;
    if (p.rand_crop) {
      y0 = static_cast<int>(rng->RandInt(0, view.height - out_h));
      x0 = static_cast<int>(rng->RandInt(0, view.width - out_w));
    }
    view = view.Crop(y0, x0, out_h, out_w);
  }
  const bool mirror = p.rand_mirror && rng->RandInt(0, 1) == 1;
  if (c == 3 && (p.brightness > 0 || p.contrast > 0 || p.saturation > 0 || p.pca_noise > 0)) {
    if (view.data != cropped.pixels.data()) {  // a view into a larger image: copy it out first
      Image copy;
      copy.Allocate(view.height, view.width, c);
      for (int y = 0; y < view.height; ++y)
        std::memcpy(copy.pixels.data() + static_cast<size_t>(y) * view.width * c, view.data + y * view.row_stride,
                    static_cast<size_t>(view.width) * c);
      cropped = std::move(copy);
    }
    ColourJitter(p, rng, &cropped);
    view = ImageView::Of(cropped);
  }
  WriteCHW(view, mirror, p, out);
}

}  // namespace io
}  // namespace weft
