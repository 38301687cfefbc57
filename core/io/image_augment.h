// MXNet's default image augmenter (DefaultImageAugmenter, the part weft
// implements: resize of the short side, centre / random crop or
// random-resized-crop, mirror, brightness / contrast / saturation / PCA
// lighting) followed by the iterator's normalisation, for one sample.
#pragma once
#include <cstdint>
#include <string>

#include "core/io/image_decode.h"
#include "core/io/sample_rng.h"

namespace weft {
namespace io {

struct AugmentParam {
  int channels = 3, height = 0, width = 0;  // data_shape
  int resize = -1;                          // short side, before cropping; <= 0: none
  bool rand_crop = false, random_resized_crop = false, rand_mirror = false;
  double min_random_area = 1.0, max_random_area = 1.0;
  bool has_min_aspect_ratio = false;  // MXNet's min_aspect_ratio=None
  double min_aspect_ratio = 0.0, max_aspect_ratio = 0.0;
  double brightness = 0, contrast = 0, saturation = 0, pca_noise = 0;
  int inter_method = 1;  // 0 nearest, 1 bilinear (OpenCV's INTER_NEAREST / INTER_LINEAR)
  // Output: float32 (pixel - mean[c]) / std[c] * scale, or the uint8 pixels.
  bool normalize = true;
  float mean[3] = {0, 0, 0}, std[3] = {1, 1, 1}, scale = 1.0f;
  int64_t max_pixels = 0;  // the decoders' budget (Note [Image pixel budget]); set by the parameter parser
};

// Decodes the record's image payload, augments it and writes it as CHW into
// out (float* or uint8_t* per param.normalize, height * width * channels
// elements). `where` ("<file> record <n>") prefixes every error.
void DecodeAugmentInto(const uint8_t* payload, size_t size, const AugmentParam& param, SampleRng* rng,
                       const std::string& where, void* out);

// A view of part of an image (no copy).
struct ImageView {
  const uint8_t* data;
  int height, width, channels;
  int64_t row_stride;  // bytes
  static ImageView Of(const Image& img) {
    return {img.pixels.data(), img.height, img.width, img.channels, int64_t{img.width} * img.channels};
  }
  ImageView Crop(int y0, int x0, int h, int w) const {
    return {data + y0 * row_stride + int64_t{x0} * channels, h, w, channels, row_stride};
  }
};

// OpenCV-compatible resize (pixel centres at +0.5, edges clamped): interp 0
// nearest, else bilinear. Not bit-exact with cv::resize's fixed-point
// arithmetic: within 1 grey level.
void Resize(const ImageView& src, int out_h, int out_w, int interp, Image* out);

}  // namespace io
}  // namespace weft
