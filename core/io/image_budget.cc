// Note [Image pixel budget]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~
// An image header is a promise the data need not keep: a 304-byte PNG can say
// 65536x10000, a 1.4 KB JPEG 16384x16384, and a decoder that sizes its output
// from the header allocates gigabytes before it reads a byte of pixels. So
// every decoder weft runs -- the C++ JPEG and PNG paths of ImageRecordIter
// (jpeg_decode.cc, png_decode.cc) and OpenCV behind weft.image
// (bindings/python/weft/image/header.py) -- reads the header first and refuses
// an image of more than max_pixels pixels before allocating anything for it,
// as Pillow's MAX_IMAGE_PIXELS does. The default, 2^28 (16384x16384), is
// well above any training image and bounds an RGB decode to 768 MiB (a
// progressive JPEG also holds its DCT coefficients while it is read, 2 bytes
// per sample: up to twice that again). It is set by WEFT_MAX_IMAGE_PIXELS
// (read when an iterator is made, and by weft.image at each decode) or by
// assigning weft.image.MAX_IMAGE_PIXELS, which then wins over the variable and
// which the Python binding passes to the C++ iterator as its max_image_pixels
// parameter: one setting governs every decoder.
//
// The budget alone does not bound an image within it whose data stops short
// (a 16384x16384 header on 1.4 KB): such data is refused as truncated, and the
// C++ decoders leave the output buffer uninitialised (Image's allocator), so
// only the rows actually decoded are ever touched; the Python path checks
// that the data can hold what the header claims before OpenCV allocates.
#include "core/io/image_budget.h"

#include <cerrno>
#include <cstdlib>

#include "core/base/error.h"

namespace weft {
namespace io {

int64_t MaxImagePixelsFromEnv() {
  const char* v = std::getenv("WEFT_MAX_IMAGE_PIXELS");
  if (v == nullptr || *v == '\0') return kDefaultMaxImagePixels;
  char* end = nullptr;
  errno = 0;
  const long long n = std::strtoll(v, &end, 10);
  WEFT_CHECK(errno == 0 && end != v && *end == '\0' && n > 0 && n <= kMaxImagePixelsLimit, kInvalidArgument)
      << "WEFT_MAX_IMAGE_PIXELS must be a positive integer (a number of pixels) up to 2^40, got '" << v << "'";
  return static_cast<int64_t>(n);
}

void CheckImagePixels(const char* format, int64_t height, int64_t width, int64_t max_pixels,
                      const std::string& where) {
  WEFT_CHECK(height > 0 && width > 0, kIO)
      << where << ": corrupt " << format << ": its header gives an empty image (" << height << "x" << width << ")";
  WEFT_CHECK(width <= max_pixels / height, kIO)  // height * width could overflow
      << where << ": " << format << " of " << height << "x" << width << " (h x w) pixels is over the image budget of "
      << max_pixels
      << " pixels (WEFT_MAX_IMAGE_PIXELS, weft.image.MAX_IMAGE_PIXELS)";
}

}  // namespace io
}  // namespace weft
