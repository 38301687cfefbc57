// Fuzz target: the C++ ImageRecordIter's image decoders (core/io/:
// libjpeg-turbo's libjpeg API and libpng behind DecodeImage and
// PeekImageSize; Note [Image decoders]) -- what a record's payload can hold.
//
// Input layout: byte 0 picks the channels (bit 0: grey, else RGB) and the
// JPEG scale ((b >> 1) & 7) + 1 of 8; the rest is the file. The budget is
// 2^22 pixels, so that an image the fuzzer grows within the budget stays far
// below libFuzzer's memory limit. Beyond "no crash, no sanitizer report": a
// failure is a weft::Error of status kIO naming the input (never a
// std::bad_alloc or another exception), a success fits the budget and fills
// its buffer, and the header's size agrees with a full-scale decode.
#include <cstdint>
#include <cstring>
#include <new>
#include <string>

#include "core/base/error.h"
#include "core/io/image_decode.h"
#include "tests/fuzz/fuzz_check.h"

namespace {

constexpr int64_t kFuzzBudget = int64_t{1} << 22;
const std::string kWhere = "fuzz input";

bool DecodeOrRefuse(const uint8_t* data, size_t size, int channels, int scale, weft::io::Image* out) {
  try {
    weft::io::DecodeImage(data, size, channels, kFuzzBudget, kWhere, out, scale);
    return true;
  } catch (const weft::Error& e) {
    FUZZ_CHECK(e.status() == weft::Status::kIO, "status %d: %s", static_cast<int>(e.status()), e.what());
    FUZZ_CHECK(std::strncmp(e.what(), kWhere.c_str(), kWhere.size()) == 0, "unnamed error: %s", e.what());
    return false;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  const int channels = (data[0] & 1) ? 1 : 3;
  const int scale = ((data[0] >> 1) & 7) + 1;
  ++data;
  --size;
  weft::io::Image img;
  if (!DecodeOrRefuse(data, size, channels, scale, &img)) return 0;
  FUZZ_CHECK(img.channels == channels && img.height > 0 && img.width > 0, "decoded %dx%dx%d", img.height, img.width,
             img.channels);
  FUZZ_CHECK(static_cast<int64_t>(img.height) * img.width <= kFuzzBudget, "%dx%d is over the budget", img.height,
             img.width);
  FUZZ_CHECK(img.pixels.size() == static_cast<size_t>(img.height) * img.width * channels, "buffer of %zu bytes",
             img.pixels.size());
  int h = 0, w = 0;
  weft::io::PeekImageSize(data, size, kFuzzBudget, kWhere, &h, &w);  // decoded, so its header reads
  const int s = weft::io::DetectFormat(data, size) == weft::io::ImageFormat::kJPEG ? scale : 8;  // PNG: full size
  FUZZ_CHECK(weft::io::ScaledSize(h, s) == img.height && weft::io::ScaledSize(w, s) == img.width,
             "header %dx%d at %d/8, decoded %dx%d", h, w, s, img.height, img.width);
  return 0;
}
