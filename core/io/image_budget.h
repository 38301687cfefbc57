// The pixel budget every image decoder checks against the header's size
// before it allocates (Note [Image pixel budget] in image_budget.cc).
#pragma once
#include <cstdint>
#include <string>

namespace weft {
namespace io {

constexpr int64_t kDefaultMaxImagePixels = int64_t{1} << 28;
// The largest budget one may set: row sizes times heights stay far from int64's limit.
constexpr int64_t kMaxImagePixelsLimit = int64_t{1} << 40;

// WEFT_MAX_IMAGE_PIXELS (a positive integer), else kDefaultMaxImagePixels.
// Throws kInvalidArgument naming the variable when it is set to anything else.
int64_t MaxImagePixelsFromEnv();

// Throws kIO "<where>: <format> of HxW pixels is over the image budget ..."
// when height * width > max_pixels, or "... is empty" when either is 0.
void CheckImagePixels(const char* format, int64_t height, int64_t width, int64_t max_pixels, const std::string& where);

}  // namespace io
}  // namespace weft
