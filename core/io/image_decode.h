// JPEG and PNG decoding for the C++ ImageRecordIter.
//
// Note [Image decoders]
// ~~~~~~~~~~~~~~~~~~~~~
// JPEG: libjpeg-turbo through its libjpeg API (Debian libjpeg62-turbo-dev) --
// the SIMD decoder OpenCV and Pillow use underneath, so our pixels are the
// ones MXNet's OpenCV decode gives (same accurate integer IDCT and fancy
// upsampling); it decodes at M/8 scales in the DCT domain, which the
// random-resized-crop path uses when the crop is larger than its output
// (Note [Scaled JPEG decode] in image_augment.cc). The libjpeg API rather than
// TurboJPEG because only its error manager tells one warning from another:
// a truncated file (Note [JPEG truncation] in jpeg_decode.cc) is refused,
// while warnings about extra bytes keep the image, as OpenCV does. PNG:
// libpng's simplified API (Debian libpng-dev), 8-bit RGB or grey whatever the
// file's depth or palette, after a walk of its chunks (png_decode.cc). Both
// check the header's size against the pixel budget before allocating (Note
// [Image pixel budget] in image_budget.cc). Other formats (BMP, TIFF, WebP,
// which OpenCV also reads) are refused with a message; the Python path
// (weft.image) still decodes them.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace weft {
namespace io {

// std::allocator, except that resize() leaves new elements uninitialised: a
// decoder writes every pixel, and until it does the pages stay untouched, so
// an image whose data stops short costs only the rows it decoded (Note [Image
// pixel budget]).
template <class T>
struct UninitializedAllocator : std::allocator<T> {
  template <class U>
  struct rebind {
    using other = UninitializedAllocator<U>;
  };
  UninitializedAllocator() = default;
  template <class U>
  UninitializedAllocator(const UninitializedAllocator<U>&) noexcept {}  // NOLINT(google-explicit-constructor)
  template <class U>
  void construct(U* p) noexcept {
    ::new (static_cast<void*>(p)) U;
  }
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
};

// An 8-bit image, rows of width * channels bytes, RGB or grey.
struct Image {
  int height = 0, width = 0, channels = 0;
  std::vector<uint8_t, UninitializedAllocator<uint8_t>> pixels;
  void Allocate(int h, int w, int c) {
    height = h;
    width = w;
    channels = c;
    pixels.resize(static_cast<size_t>(h) * w * c);
  }
};

enum class ImageFormat { kJPEG, kPNG, kUnknown };
ImageFormat DetectFormat(const uint8_t* data, size_t size);

// Width and height from the file's header, checked against the budget of
// max_pixels pixels; throws kIO (message prefixed by `where`).
void PeekImageSize(const uint8_t* data, size_t size, int64_t max_pixels, const std::string& where, int* height,
                   int* width);

// Decodes into `channels` (1 grey, 3 RGB) channels. For JPEG, scale_num/8
// (1..8) decodes at that fraction of the size in the DCT domain. Throws kIO
// "<where>: not an image ...", "<where>: corrupt JPEG: ..." (truncated data
// included), "<where>: PNG of HxW ... is over the image budget ..." on bad
// input, before allocating for an image over max_pixels pixels.
void DecodeImage(const uint8_t* data, size_t size, int channels, int64_t max_pixels, const std::string& where,
                 Image* out, int scale_num = 8);

// The size a JPEG of height x width decodes to at scale_num/8 (libjpeg rounds up).
inline int ScaledSize(int size, int scale_num) { return (size * scale_num + 7) / 8; }

}  // namespace io
}  // namespace weft
