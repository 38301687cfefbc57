// ImageRecordIter's parameters from MXNet-style strings (the C ABI passes
// keys and values as text, as MXDataIterCreateIter does).
#include <cmath>
#include <cstdlib>
#include <functional>
#include <map>

#include "core/base/error.h"
#include "core/io/image_budget.h"
#include "core/io/image_record_iter.h"

namespace weft {
namespace io {
namespace {

bool ParseBool(const std::string& k, const std::string& v) {
  if (v == "1" || v == "True" || v == "true") return true;
  if (v == "0" || v == "False" || v == "false") return false;
  WEFT_THROW(kInvalidArgument) << "ImageRecordIter: " << k << " must be a boolean, got '" << v << "'";
}

double ParseNumber(const std::string& k, const std::string& v) {
  char* end = nullptr;
  const double d = std::strtod(v.c_str(), &end);
  WEFT_CHECK(!v.empty() && end && *end == '\0' && std::isfinite(d), kInvalidArgument)
      << "ImageRecordIter: " << k << " must be a number, got '" << v << "'";
  return d;
}

int ParseInt(const std::string& k, const std::string& v) {
  const double d = ParseNumber(k, v);
  WEFT_CHECK(d == std::floor(d) && std::fabs(d) < 2147483648.0, kInvalidArgument)
      << "ImageRecordIter: " << k << " must be an integer, got '" << v << "'";
  return static_cast<int>(d);
}

// "(3, 224, 224)" or "3,224,224".
void ParseShape(const std::string& v, AugmentParam* a) {
  std::vector<int> dims;
  std::string cur;
  for (char ch : v + ",") {
    if (ch == '(' || ch == ')' || ch == '[' || ch == ']' || ch == ' ') continue;
    if (ch == ',') {
      if (!cur.empty()) dims.push_back(ParseInt("data_shape", cur));
      cur.clear();
    } else {
      cur += ch;
    }
  }
  WEFT_CHECK(dims.size() == 3 && (dims[0] == 1 || dims[0] == 3) && dims[1] > 0 && dims[2] > 0, kInvalidArgument)
      << "ImageRecordIter: data_shape must be (channels, height, width) with 1 or 3 channels, got " << v;
  a->channels = dims[0];
  a->height = dims[1];
  a->width = dims[2];
}

}  // namespace

ImageRecordIterParam ParseImageRecordIterParam(const std::vector<std::pair<std::string, std::string>>& kv) {
  ImageRecordIterParam p;
  AugmentParam& a = p.aug;
  bool has_seed_aug = false, has_shape = false, has_max_pixels = false;
  using Setter = std::function<void(const std::string&, const std::string&)>;
  auto num = [](double* dst) { return Setter([dst](const std::string& k, const std::string& v) { *dst = ParseNumber(k, v); }); };
  auto flt = [](float* dst) {
    return Setter([dst](const std::string& k, const std::string& v) { *dst = static_cast<float>(ParseNumber(k, v)); });
  };
  auto integer = [](int* dst) { return Setter([dst](const std::string& k, const std::string& v) { *dst = ParseInt(k, v); }); };
  auto boolean = [](bool* dst) { return Setter([dst](const std::string& k, const std::string& v) { *dst = ParseBool(k, v); }); };
  const std::map<std::string, Setter> setters = {
      {"path_imgrec", [&](const std::string&, const std::string& v) { p.path_imgrec = v; }},
      {"path_imgidx", [&](const std::string&, const std::string& v) { p.path_imgidx = v; }},
      {"data_shape", [&](const std::string&, const std::string& v) { ParseShape(v, &a); has_shape = true; }},
      {"batch_size", integer(&p.batch_size)},
      {"label_width", integer(&p.label_width)},
      {"shuffle", boolean(&p.shuffle)},
      {"round_batch", boolean(&p.round_batch)},
      {"seed", [&](const std::string& k, const std::string& v) { p.seed = static_cast<uint64_t>(ParseInt(k, v)); }},
      {"seed_aug", [&](const std::string& k, const std::string& v) {
         p.seed_aug = static_cast<uint64_t>(ParseInt(k, v));
         has_seed_aug = true;
       }},
      {"num_parts", integer(&p.num_parts)},
      {"part_index", integer(&p.part_index)},
      {"preprocess_threads", integer(&p.preprocess_threads)},
      {"prefetch_buffer", integer(&p.prefetch_buffer)},
      {"resize", integer(&a.resize)},
      {"rand_crop", boolean(&a.rand_crop)},
      {"random_resized_crop", boolean(&a.random_resized_crop)},
      {"rand_mirror", boolean(&a.rand_mirror)},
      {"min_random_area", num(&a.min_random_area)},
      {"max_random_area", num(&a.max_random_area)},
      {"min_aspect_ratio", [&](const std::string& k, const std::string& v) {
         a.has_min_aspect_ratio = v != "None" && !v.empty();
         if (a.has_min_aspect_ratio) a.min_aspect_ratio = ParseNumber(k, v);
       }},
      {"max_aspect_ratio", num(&a.max_aspect_ratio)},
      {"brightness", num(&a.brightness)},
      {"contrast", num(&a.contrast)},
      {"saturation", num(&a.saturation)},
      {"pca_noise", num(&a.pca_noise)},
      {"inter_method", integer(&a.inter_method)},
      {"mean_r", flt(&a.mean[0])}, {"mean_g", flt(&a.mean[1])}, {"mean_b", flt(&a.mean[2])},
      {"std_r", flt(&a.std[0])}, {"std_g", flt(&a.std[1])}, {"std_b", flt(&a.std[2])},
      {"scale", flt(&a.scale)},
      {"normalize", boolean(&a.normalize)},
      // weft's: the decoders' pixel budget (Note [Image pixel budget]); the
      // Python binding passes weft.image.MAX_IMAGE_PIXELS.
      {"max_image_pixels", [&](const std::string& k, const std::string& v) {
         const double d = ParseNumber(k, v);
         WEFT_CHECK(d == std::floor(d) && d > 0 && d <= static_cast<double>(kMaxImagePixelsLimit), kInvalidArgument)
             << "ImageRecordIter: max_image_pixels must be a positive integer up to 2^40, got '" << v << "'";
         a.max_pixels = static_cast<int64_t>(d);
         has_max_pixels = true;
       }},
  };
  for (const auto& [k, v] : kv) {
    auto it = setters.find(k);
    WEFT_CHECK(it != setters.end(), kInvalidArgument) << "ImageRecordIter: unknown parameter '" << k << "'";
    it->second(k, v);
  }
  WEFT_CHECK(!p.path_imgrec.empty(), kInvalidArgument) << "ImageRecordIter: path_imgrec is required";
  WEFT_CHECK(has_shape, kInvalidArgument) << "ImageRecordIter: data_shape is required";
  WEFT_CHECK(a.inter_method == 0 || a.inter_method == 1, kInvalidArgument)
      << "ImageRecordIter (C++): inter_method must be 0 (nearest) or 1 (bilinear), got " << a.inter_method;
  if (a.random_resized_crop) {
    const double lo = a.has_min_aspect_ratio ? a.min_aspect_ratio : 1 - a.max_aspect_ratio;
    const double hi = a.has_min_aspect_ratio ? a.max_aspect_ratio : 1 + a.max_aspect_ratio;
    WEFT_CHECK(lo > 0 && hi >= lo, kInvalidArgument)
        << "ImageRecordIter: the aspect ratio range [" << lo << ", " << hi << "] must be positive and ordered";
    WEFT_CHECK(a.min_random_area > 0 && a.max_random_area >= a.min_random_area, kInvalidArgument)
        << "ImageRecordIter: need 0 < min_random_area <= max_random_area";
  }
  for (int c = 0; c < 3; ++c)
    WEFT_CHECK(a.std[c] != 0, kInvalidArgument) << "ImageRecordIter: std_r/g/b must not be 0";
  if (!has_seed_aug) p.seed_aug = p.seed;
  if (!has_max_pixels) a.max_pixels = MaxImagePixelsFromEnv();
  return p;
}

}  // namespace io
}  // namespace weft
