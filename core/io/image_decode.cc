// Note [Image decoders] in image_decode.h: the format from the first bytes,
// then the JPEG (jpeg_decode.cc) or PNG (png_decode.cc) decoder.
#include "core/io/image_decode.h"

#include <cstring>

#include "core/base/error.h"
#include "core/io/image_codecs.h"

namespace weft {
namespace io {

ImageFormat DetectFormat(const uint8_t* data, size_t size) {
  static const uint8_t kPng[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
  if (size >= 3 && data[0] == 0xFF && data[1] == 0xD8 && data[2] == 0xFF) return ImageFormat::kJPEG;
  if (size >= 8 && std::memcmp(data, kPng, 8) == 0) return ImageFormat::kPNG;
  return ImageFormat::kUnknown;
}

namespace {
[[noreturn]] void NotAnImage(size_t size, const std::string& where) {
  WEFT_THROW(kIO) << where << ": not an image (neither JPEG nor PNG; " << size
                  << " bytes); the C++ ImageRecordIter decodes JPEG and PNG";
}
}  // namespace

void PeekImageSize(const uint8_t* data, size_t size, int64_t max_pixels, const std::string& where, int* height,
                   int* width) {
  switch (DetectFormat(data, size)) {
    case ImageFormat::kJPEG:
      JpegSize(data, size, max_pixels, where, height, width);
      return;
    case ImageFormat::kPNG:
      PngSize(data, size, max_pixels, where, height, width);
      return;
    case ImageFormat::kUnknown:
      NotAnImage(size, where);
  }
}

void DecodeImage(const uint8_t* data, size_t size, int channels, int64_t max_pixels, const std::string& where,
                 Image* out, int scale_num) {
  WEFT_CHECK(channels == 1 || channels == 3, kInvalidArgument) << "DecodeImage: channels must be 1 or 3";
  WEFT_CHECK(scale_num >= 1 && scale_num <= 8, kInvalidArgument) << "DecodeImage: scale_num must be in 1..8";
  switch (DetectFormat(data, size)) {
    case ImageFormat::kJPEG:
      DecodeJpeg(data, size, channels, max_pixels, where, out, scale_num);
      return;
    case ImageFormat::kPNG:
      DecodePng(data, size, channels, max_pixels, where, out);
      return;
    case ImageFormat::kUnknown:
      NotAnImage(size, where);
  }
}

}  // namespace io
}  // namespace weft
