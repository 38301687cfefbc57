// Shapes and parameters of the image operators, shared by their declarations
// (inference) and by the kernels (image_kernels.h), so both size an image the
// same way. Errors name the op, the argument and what was expected.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/base/shape.h"
#include "core/op/image/image_rules.h"
#include "core/opdef/params.h"

namespace weft {
namespace image {

// An image (H, W, C) or a batch (N, H, W, C), as the augmentation ops take it.
inline ImageDims HwcDims(const Shape& s, const std::string& op) {
  WEFT_CHECK(s.ndim() == 3 || s.ndim() == 4, kShape)
      << op << ": input 'data' must be an image (height, width, channels) or a batch (N, height, width, "
      << "channels), got shape " << s.ToString();
  ImageDims d;
  const int o = s.ndim() - 3;
  d.n = o ? s[0] : 1;
  d.h = s[o];
  d.w = s[o + 1];
  d.c = s[o + 2];
  WEFT_CHECK(d.c >= 1 && d.c <= kMaxChannels, kShape)
      << op << ": input 'data' must have 1 to " << kMaxChannels << " channels in its last axis, got shape "
      << s.ToString();
  return d;
}

// Ops that mix R, G and B (hue, saturation, lighting) need 3 channels; MXNet
// leaves a 1-channel image unchanged by them.
inline bool IsRgb(const ImageDims& d) { return d.c == 3; }

// A tensor (C, H, W) or a batch (N, C, H, W), as normalize takes it.
inline ImageDims ChwDims(const Shape& s, const std::string& op) {
  WEFT_CHECK(s.ndim() == 3 || s.ndim() == 4, kShape)
      << op << ": input 'data' must be a tensor (channels, height, width) or a batch (N, channels, height, "
      << "width), got shape " << s.ToString();
  ImageDims d;
  const int o = s.ndim() - 3;
  d.n = o ? s[0] : 1;
  d.c = s[o];
  d.h = s[o + 1];
  d.w = s[o + 2];
  WEFT_CHECK(d.c >= 1 && d.c <= kMaxChannels, kShape)
      << op << ": input 'data' must have 1 to " << kMaxChannels << " channels in axis " << o << ", got shape "
      << s.ToString();
  return d;
}

// normalize's mean/std: one value for every channel, or one per channel (a
// longer tuple, like MXNet's 4-entry default, gives its first c entries).
inline Channels PerChannel(const Params& p, const char* name, int64_t c, const std::string& op) {
  const std::vector<double>& v = p.GetFloatTuple(name);
  WEFT_CHECK(v.size() == 1 || static_cast<int64_t>(v.size()) >= c, kInvalidArgument)
      << op << ": parameter '" << name << "' must have 1 or " << c << " entries for " << c << " channels, got "
      << v.size();
  Channels r;
  for (int64_t i = 0; i < c; ++i) r.v[i] = static_cast<float>(v[v.size() == 1 ? 0 : static_cast<size_t>(i)]);
  return r;
}

// resize's output height and width (MXNet's GetHeightAndWidth): size is
// (width, height), or one edge: both edges, or with keep_ratio the short edge.
inline void ResizeTarget(const Params& p, const ImageDims& d, const std::string& op, int64_t* oh, int64_t* ow) {
  const std::vector<int64_t>& size = p.GetTuple("size");
  WEFT_CHECK(size.size() == 1 || size.size() == 2, kInvalidArgument)
      << op << ": parameter 'size' must be (size) or (width, height), got " << size.size() << " entries";
  for (int64_t s : size) {
    WEFT_CHECK(s > 0, kInvalidArgument) << op << ": parameter 'size' entries must be positive, got " << s;
  }
  if (size.size() == 2) {
    *ow = size[0];
    *oh = size[1];
  } else if (!p.GetBool("keep_ratio")) {
    *oh = *ow = size[0];
  } else {
    WEFT_CHECK(d.h > 0 && d.w > 0, kShape) << op << ": keep_ratio needs a non-empty image";
    if (d.h > d.w) {
      *ow = size[0];
      *oh = d.h * size[0] / d.w;
    } else {
      *oh = size[0];
      *ow = d.w * size[0] / d.h;
    }
  }
  const int64_t interp = p.GetInt("interp");
  WEFT_CHECK(interp == 0 || interp == 1, kInvalidArgument)
      << op << ": parameter 'interp' must be 0 (nearest) or 1 (bilinear), got " << interp
      << " (area, bicubic and Lanczos resampling are not built)";
}

// crop's box, checked against the image.
struct Box {
  int64_t x, y, w, h;
};
inline Box CropBox(const Params& p, const ImageDims& d, const std::string& op) {
  Box b{p.GetInt("x"), p.GetInt("y"), p.GetInt("width"), p.GetInt("height")};
  WEFT_CHECK(b.x >= 0 && b.y >= 0 && b.w > 0 && b.h > 0, kInvalidArgument)
      << op << ": x and y must be >= 0 and width and height > 0, got x=" << b.x << " y=" << b.y
      << " width=" << b.w << " height=" << b.h;
  WEFT_CHECK(b.x + b.w <= d.w && b.y + b.h <= d.h, kInvalidArgument)
      << op << ": the box x=" << b.x << " y=" << b.y << " width=" << b.w << " height=" << b.h
      << " does not fit an image of height " << d.h << " and width " << d.w;
  return b;
}

// A shape with the batch axis of `like` (3-D or 4-D) and the given image extent.
inline Shape HwcShape(const Shape& like, int64_t h, int64_t w, int64_t c) {
  if (like.ndim() == 4) return Shape{like[0], h, w, c};
  return Shape{h, w, c};
}

}  // namespace image
}  // namespace weft
