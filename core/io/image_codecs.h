// The per-format decoders behind image_decode.h's DecodeImage and
// PeekImageSize: each includes its codec library's header in its own .cc
// (cmake/image_codecs.cmake), so nothing else sees them.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/io/image_decode.h"

namespace weft {
namespace io {

void JpegSize(const uint8_t* data, size_t size, int64_t max_pixels, const std::string& where, int* height,
              int* width);
void DecodeJpeg(const uint8_t* data, size_t size, int channels, int64_t max_pixels, const std::string& where,
                Image* out, int scale_num);

void PngSize(const uint8_t* data, size_t size, int64_t max_pixels, const std::string& where, int* height, int* width);
void DecodePng(const uint8_t* data, size_t size, int channels, int64_t max_pixels, const std::string& where,
               Image* out);

}  // namespace io
}  // namespace weft
