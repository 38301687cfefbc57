// PNG through libpng's simplified API (Note [Image decoders] in
// image_decode.h), after a walk of the file's chunks.
//
// Note [PNG chunk walk]
// ~~~~~~~~~~~~~~~~~~~~~
// Before libpng sees the data, one pass over the chunk headers (8 bytes each,
// no decompression) checks what libpng would only find after the output is
// allocated: IHDR first, its size within the pixel budget (Note [Image pixel
// budget]); every chunk inside the data and an IEND at the end (else the file
// was cut: truncated); and enough IDAT bytes for the rows the header claims.
// Deflate expands at most 1032 times (a 258-byte match in two 1-bit codes),
// so H rows of (1 + W * bits per pixel / 8) bytes need at least 1/1032 of
// that in IDAT: the 304-byte PNG that claimed 65536x10000 pixels and the
// like are refused before any allocation. libpng's own errors (CRCs, bad
// zlib streams, too little image data) come back from the simplified API as a
// message, which becomes our kIO error.
#include <png.h>

#include <cstring>

#include "core/base/error.h"
#include "core/io/image_budget.h"
#include "core/io/image_codecs.h"

namespace weft {
namespace io {
namespace {

constexpr int64_t kMaxDeflateRatio = 1032;

uint32_t ReadBE32(const uint8_t* p) {
  return (uint32_t{p[0]} << 24) | (uint32_t{p[1]} << 16) | (uint32_t{p[2]} << 8) | uint32_t{p[3]};
}

struct PngLayout {
  int64_t height = 0, width = 0;
  int bit_depth = 0, colour_type = 0;
};

// Note [PNG chunk walk]: throws kIO unless the data can hold the image its header gives.
PngLayout WalkPng(const uint8_t* data, size_t size, int64_t max_pixels, const std::string& where) {
  PngLayout l;
  WEFT_CHECK(size >= 8 + 8 + 13 + 4 && ReadBE32(data + 8) == 13 && std::memcmp(data + 12, "IHDR", 4) == 0, kIO)
      << where << ": corrupt PNG: no IHDR chunk after the signature (" << size << " bytes)";
  l.width = ReadBE32(data + 16);
  l.height = ReadBE32(data + 20);
  WEFT_CHECK(l.width <= 0x7FFFFFFF && l.height <= 0x7FFFFFFF, kIO)
      << where << ": corrupt PNG: its IHDR gives " << l.height << "x" << l.width << " pixels (at most 2^31-1 each)";
  l.bit_depth = data[24];
  l.colour_type = data[25];
  CheckImagePixels("PNG", l.height, l.width, max_pixels, where);
  int64_t idat = 0;
  size_t at = 8;
  for (;;) {
    WEFT_CHECK(size - at >= 12, kIO) << where << ": corrupt PNG: its data ends at byte " << size
                                     << " before its IEND chunk (truncated)";
    const uint32_t length = ReadBE32(data + at);
    const uint8_t* type = data + at + 4;
    WEFT_CHECK(length <= 0x7FFFFFFFu && size - at - 12 >= length, kIO)
        << where << ": corrupt PNG: the chunk at byte " << at << " says it holds " << length
        << " bytes, past the end of the " << size << " bytes (truncated)";
    if (std::memcmp(type, "IDAT", 4) == 0) idat += length;
    if (std::memcmp(type, "IEND", 4) == 0) break;
    at += 12 + length;
  }
  static const int kSamples[7] = {1, 0, 3, 1, 2, 0, 4};  // per colour type; 0: not a PNG colour type
  const int samples = l.colour_type <= 6 ? kSamples[l.colour_type] : 0;
  WEFT_CHECK(samples > 0 && l.bit_depth > 0 && l.bit_depth <= 16, kIO)
      << where << ": corrupt PNG: colour type " << l.colour_type << " with bit depth " << l.bit_depth;
  const int64_t row_bytes = 1 + (l.width * samples * l.bit_depth + 7) / 8;
  const int64_t min_idat = l.height * row_bytes / kMaxDeflateRatio;
  WEFT_CHECK(idat >= min_idat, kIO) << where << ": corrupt PNG: its IDAT chunks hold " << idat
                                    << " bytes, too few for the " << l.height << "x" << l.width
                                    << " image its header gives (at least " << min_idat << " bytes; truncated)";
  return l;
}

struct PngImage {
  png_image img;
  PngImage() {
    std::memset(&img, 0, sizeof(img));
    img.version = PNG_IMAGE_VERSION;
  }
  ~PngImage() { png_image_free(&img); }
};

}  // namespace

void PngSize(const uint8_t* data, size_t size, int64_t max_pixels, const std::string& where, int* height,
             int* width) {
  const PngLayout l = WalkPng(data, size, max_pixels, where);
  *height = static_cast<int>(l.height);
  *width = static_cast<int>(l.width);
}

void DecodePng(const uint8_t* data, size_t size, int channels, int64_t max_pixels, const std::string& where,
               Image* out) {
  const PngLayout l = WalkPng(data, size, max_pixels, where);
  PngImage png;
  if (!png_image_begin_read_from_memory(&png.img, data, size))
    WEFT_THROW(kIO) << where << ": corrupt PNG: " << png.img.message;
  WEFT_CHECK(png.img.height == l.height && png.img.width == l.width, kIO)
      << where << ": corrupt PNG: libpng reads " << png.img.height << "x" << png.img.width << ", its IHDR says "
      << l.height << "x" << l.width;
  png.img.format = channels == 3 ? PNG_FORMAT_RGB : PNG_FORMAT_GRAY;
  out->Allocate(static_cast<int>(png.img.height), static_cast<int>(png.img.width), channels);
  if (!png_image_finish_read(&png.img, nullptr, out->pixels.data(), 0, nullptr))
    WEFT_THROW(kIO) << where << ": corrupt PNG: " << png.img.message;
}

}  // namespace io
}  // namespace weft
