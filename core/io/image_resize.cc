// Resize for the C++ ImageRecordIter (image_augment.h): OpenCV's geometry
// (pixel centres at +0.5, edges clamped) so results match MXNet's cv::resize
// within one grey level (OpenCV rounds through 11-bit fixed point; this is
// float). At an exact 2x reduction bilinear averages 2x2 blocks and rounds
// half up, which is what OpenCV's INTER_AREA shortcut for that case gives.
#include <algorithm>
#include <cmath>
#include <vector>

#include "core/io/image_augment.h"

namespace weft {
namespace io {
namespace {

struct Taps {
  std::vector<int> i0, i1;
  std::vector<float> a;  // weight of i1
};

Taps BilinearTaps(int src, int dst) {
  Taps t;
  t.i0.resize(dst);
  t.i1.resize(dst);
  t.a.resize(dst);
  const double step = static_cast<double>(src) / dst;
  for (int d = 0; d < dst; ++d) {
    const double f = (d + 0.5) * step - 0.5;
    int i = static_cast<int>(std::floor(f));
    float a = static_cast<float>(f - i);
    if (i < 0) i = 0, a = 0;
    if (i >= src - 1) i = src - 1, a = 0;
    t.i0[d] = i;
    t.i1[d] = std::min(i + 1, src - 1);
    t.a[d] = a;
  }
  return t;
}

void ResizeNearest(const ImageView& src, int out_h, int out_w, Image* out) {
  const int c = src.channels;
  std::vector<int> xs(out_w);
  for (int x = 0; x < out_w; ++x)
    xs[x] = std::min(static_cast<int>(std::floor(x * (static_cast<double>(src.width) / out_w))), src.width - 1) * c;
  for (int y = 0; y < out_h; ++y) {
    const int sy = std::min(static_cast<int>(std::floor(y * (static_cast<double>(src.height) / out_h))),
                            src.height - 1);
    const uint8_t* row = src.data + sy * src.row_stride;
    uint8_t* o = out->pixels.data() + static_cast<size_t>(y) * out_w * c;
    for (int x = 0; x < out_w; ++x)
      for (int k = 0; k < c; ++k) o[x * c + k] = row[xs[x] + k];
  }
}

}  // namespace

void Resize(const ImageView& src, int out_h, int out_w, int interp, Image* out) {
  const int c = src.channels;
  out->Allocate(out_h, out_w, c);
  if (interp == 0) return ResizeNearest(src, out_h, out_w, out);
  const Taps tx = BilinearTaps(src.width, out_w), ty = BilinearTaps(src.height, out_h);
  const int n = out_w * c;
  // Horizontally resized source rows s0 (top) and s1 (below); consecutive
  // output rows mostly share them, so each source row is resized about once.
  std::vector<float> top(n), below(n);
  int top_row = -1, below_row = -1;
  auto hresize = [&](int sy, float* r) {
    const uint8_t* s = src.data + sy * src.row_stride;
    for (int x = 0; x < out_w; ++x) {
      const uint8_t* p0 = s + tx.i0[x] * c;
      const uint8_t* p1 = s + tx.i1[x] * c;
      const float a = tx.a[x];
      for (int ch = 0; ch < c; ++ch) r[x * c + ch] = p0[ch] + a * (static_cast<float>(p1[ch]) - p0[ch]);
    }
  };
  for (int y = 0; y < out_h; ++y) {
    const int s0 = ty.i0[y], s1 = ty.i1[y];
    if (top_row != s0) {
      if (below_row == s0) {
        std::swap(top, below);
        std::swap(top_row, below_row);
      } else {
        hresize(s0, top.data());
        top_row = s0;
      }
    }
    if (below_row != s1) {
      hresize(s1, below.data());
      below_row = s1;
    }
    const float b = ty.a[y];
    const float* r0 = top.data();
    const float* r1 = below.data();
    uint8_t* o = out->pixels.data() + static_cast<size_t>(y) * n;
    for (int i = 0; i < n; ++i) o[i] = static_cast<uint8_t>(r0[i] + b * (r1[i] - r0[i]) + 0.5f);
  }
}

}  // namespace io
}  // namespace weft
