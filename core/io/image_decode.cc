// Note [Image decoders] in image_decode.h: libjpeg-turbo (TurboJPEG) and libpng.
#include "core/io/image_decode.h"

#include <png.h>
#include <turbojpeg.h>

#include <cstring>
#include <memory>

#include "core/base/error.h"

namespace weft {
namespace io {
namespace {

// One TurboJPEG decompressor per thread (a handle is not thread-safe).
tjhandle ThreadDecompressor() {
  struct Holder {
    tjhandle h = tjInitDecompress();
    ~Holder() {
      if (h) tjDestroy(h);
    }
  };
  thread_local Holder holder;
  WEFT_CHECK(holder.h != nullptr, kInternal) << "tjInitDecompress failed: " << tjGetErrorStr2(nullptr);
  return holder.h;
}

void ReadJpegHeader(const uint8_t* data, size_t size, const std::string& where, int* h, int* w) {
  tjhandle tj = ThreadDecompressor();
  int subsamp = 0, colorspace = 0;
  if (tjDecompressHeader3(tj, data, static_cast<unsigned long>(size), w, h, &subsamp, &colorspace) != 0)
    WEFT_THROW(kIO) << where << ": corrupt JPEG: " << tjGetErrorStr2(tj);
  WEFT_CHECK(*h > 0 && *w > 0 && static_cast<int64_t>(*h) * *w <= (int64_t{1} << 28), kIO)
      << where << ": corrupt JPEG: its header gives " << *h << "x" << *w << " pixels (empty or too large)";
}

void DecodeJpeg(const uint8_t* data, size_t size, int channels, const std::string& where, Image* out,
                int scale_num) {
  tjhandle tj = ThreadDecompressor();
  int h = 0, w = 0;
  ReadJpegHeader(data, size, where, &h, &w);
  const int sh = ScaledSize(h, scale_num), sw = ScaledSize(w, scale_num);
  out->Allocate(sh, sw, channels);
  const int rc = tjDecompress2(tj, data, static_cast<unsigned long>(size), out->pixels.data(), sw, sw * channels, sh,
                               channels == 3 ? TJPF_RGB : TJPF_GRAY, 0);
  // A warning (a truncated scan, extraneous bytes) leaves a usable image, as in OpenCV.
  if (rc != 0 && tjGetErrorCode(tj) != TJERR_WARNING)
    WEFT_THROW(kIO) << where << ": corrupt JPEG: " << tjGetErrorStr2(tj);
}

struct PngImage {
  png_image img;
  PngImage() {
    std::memset(&img, 0, sizeof(img));
    img.version = PNG_IMAGE_VERSION;
  }
  ~PngImage() { png_image_free(&img); }
};

void DecodePng(const uint8_t* data, size_t size, int channels, const std::string& where, Image* out) {
  PngImage png;
  if (!png_image_begin_read_from_memory(&png.img, data, size))
    WEFT_THROW(kIO) << where << ": corrupt PNG: " << png.img.message;
  png.img.format = channels == 3 ? PNG_FORMAT_RGB : PNG_FORMAT_GRAY;
  WEFT_CHECK(png.img.height <= (1u << 16) && png.img.width <= (1u << 16), kIO)
      << where << ": PNG of " << png.img.height << "x" << png.img.width << " pixels is too large";
  out->Allocate(static_cast<int>(png.img.height), static_cast<int>(png.img.width), channels);
  if (!png_image_finish_read(&png.img, nullptr, out->pixels.data(), 0, nullptr))
    WEFT_THROW(kIO) << where << ": corrupt PNG: " << png.img.message;
}

}  // namespace

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

void PeekImageSize(const uint8_t* data, size_t size, const std::string& where, int* height, int* width) {
  switch (DetectFormat(data, size)) {
    case ImageFormat::kJPEG:
      ReadJpegHeader(data, size, where, height, width);
      return;
    case ImageFormat::kPNG: {
      PngImage png;
      if (!png_image_begin_read_from_memory(&png.img, data, size))
        WEFT_THROW(kIO) << where << ": corrupt PNG: " << png.img.message;
      *height = static_cast<int>(png.img.height);
      *width = static_cast<int>(png.img.width);
      return;
    }
    case ImageFormat::kUnknown:
      NotAnImage(size, where);
  }
}

void DecodeImage(const uint8_t* data, size_t size, int channels, const std::string& where, Image* out,
                 int scale_num) {
  WEFT_CHECK(channels == 1 || channels == 3, kInvalidArgument) << "DecodeImage: channels must be 1 or 3";
  switch (DetectFormat(data, size)) {
    case ImageFormat::kJPEG:
      DecodeJpeg(data, size, channels, where, out, scale_num);
      return;
    case ImageFormat::kPNG:
      DecodePng(data, size, channels, where, out);
      return;
    case ImageFormat::kUnknown:
      NotAnImage(size, where);
  }
}

}  // namespace io
}  // namespace weft
