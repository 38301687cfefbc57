// JPEG and PNG decoding for the C++ ImageRecordIter.
//
// Note [Image decoders]
// ~~~~~~~~~~~~~~~~~~~~~
// JPEG: libjpeg-turbo through its TurboJPEG API (Debian libturbojpeg0-dev) --
// the SIMD decoder OpenCV and Pillow use underneath, so our pixels are the
// ones MXNet's OpenCV decode gives (same accurate integer IDCT and fancy
// upsampling); its API reports errors as return codes (no setjmp/longjmp
// through C++ frames) and it decodes at M/8 scales in the DCT domain, which
// the random-resized-crop path uses when the crop is larger than its output
// (Note [Scaled JPEG decode] in image_augment.cc). A warning ("premature end of
// JPEG file") keeps the image, as OpenCV does. PNG: libpng's simplified API
// (Debian libpng-dev), 8-bit RGB or grey whatever the file's depth or palette.
// Other formats (BMP, TIFF, WebP, which OpenCV also reads) are refused with a
// message; the Python path (weft.image) still decodes them.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace weft {
namespace io {

// An 8-bit image, rows of width * channels bytes, RGB or grey.
struct Image {
  int height = 0, width = 0, channels = 0;
  std::vector<uint8_t> pixels;
  void Allocate(int h, int w, int c) {
    height = h;
    width = w;
    channels = c;
    pixels.resize(static_cast<size_t>(h) * w * c);
  }
};

enum class ImageFormat { kJPEG, kPNG, kUnknown };
ImageFormat DetectFormat(const uint8_t* data, size_t size);

// Width and height from the file's header; throws kIO (message prefixed by `where`).
void PeekImageSize(const uint8_t* data, size_t size, const std::string& where, int* height, int* width);

// Decodes into `channels` (1 grey, 3 RGB) channels. For JPEG, scale_num/8
// (1..8) decodes at that fraction of the size in the DCT domain. Throws kIO
// "<where>: not an image ..." / "<where>: corrupt JPEG: ..." on bad input.
void DecodeImage(const uint8_t* data, size_t size, int channels, const std::string& where, Image* out,
                 int scale_num = 8);

// The size a JPEG of height x width decodes to at scale_num/8 (libjpeg rounds up).
inline int ScaledSize(int size, int scale_num) { return (size * scale_num + 7) / 8; }

}  // namespace io
}  // namespace weft
